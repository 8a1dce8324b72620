/**
 * The last steps of every render path, on the sanitised hast tree, whichever
 * engine built it: headings get stable, unique GitHub-style ids (an explicit
 * `{#id}` at the end of a heading wins) and the table of contents; embeds
 * are settled (an iframe the sanitiser left without an allow-listed `src`
 * goes, the others get the fixed `sandbox`/`allow`/`loading`); and the
 * readable text, where a video reads "Video: title (url)". The same walk
 * gives `body.tree` (body-tree.ts).
 */
import GithubSlugger from 'github-slugger'
import type { Element, ElementContent, Root, RootContent } from 'hast'
import { toText } from 'hast-util-to-text'
import { BODY_TREE_VERSION, type BodyNode, type BodyTree } from '../../contract/body-tree.ts'
import { finishHeading, type TreeHooks, treeChildren } from './body-tree.ts'
import type { BodyError, TocEntry } from './markdown-types.ts'

const HEADING = /^h([1-6])$/
const EXPLICIT_ID = /\s*\{#([A-Za-z][\w-]*)\}\s*$/

export const IFRAME_SANDBOX = ['allow-scripts', 'allow-same-origin', 'allow-presentation', 'allow-popups']
export const IFRAME_ALLOW = 'accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen'

/**
 * Ids, toc, embeds and `body.tree` of a sanitised tree, in one walk;
 * `source` is the body, for where a repeated explicit id is written.
 */
export function finishTree(root: Root, source: string): { toc: TocEntry[]; treeJson: string; errors: BodyError[] } {
  const headings: { element: Element; node: BodyNode }[] = []
  const hooks: TreeHooks = { iframe: settleIframe, heading: (element, node) => headings.push({ element, node }) }
  const tree: BodyTree = { version: BODY_TREE_VERSION, children: treeChildren(root, hooks) }
  const toc: TocEntry[] = []
  const errors: BodyError[] = []
  const slugger = new GithubSlugger()
  const explicit = new Map<string, number>()
  const pending: { heading: Element; id?: string }[] = []
  for (const { element: heading } of headings) {
    const id = takeExplicitId(heading)
    if (id !== undefined) {
      const seen = (explicit.get(id) ?? 0) + 1
      explicit.set(id, seen)
      if (seen === 2) errors.push(duplicateId(id, source))
      slugger.slug(id)
    }
    pending.push({ heading, id })
  }
  for (const [k, { heading, id }] of pending.entries()) {
    const text = toText(heading).replace(/\s+/g, ' ').trim()
    const finalId = id ?? slugger.slug(text)
    heading.properties.id = finalId
    finishHeading(heading, headings[k]!.node, hooks)
    toc.push({ depth: Number(HEADING.exec(heading.tagName)![1]), text, id: finalId })
  }
  // As text from here on (BodyTreeJson): the render cache and each record's JSON take it as it is.
  return { toc, treeJson: JSON.stringify(tree), errors }
}

/** Settle an iframe in place: one without an allow-listed `src` (the sanitiser left none) or a title goes. */
function settleIframe(iframe: Element): boolean {
  if (typeof iframe.properties.src !== 'string' || typeof iframe.properties.title !== 'string') return false
  Object.assign(iframe.properties, {
    loading: 'lazy',
    sandbox: IFRAME_SANDBOX,
    allow: IFRAME_ALLOW,
    allowFullScreen: true,
    referrerPolicy: 'strict-origin-when-cross-origin',
  })
  iframe.children = []
  return true
}

/** Remove a trailing ` {#id}` from the heading's last text and return the id. */
function takeExplicitId(heading: Element): string | undefined {
  const last = heading.children.at(-1)
  if (last?.type !== 'text') return undefined
  const match = EXPLICIT_ID.exec(last.value)
  if (!match) return undefined
  last.value = last.value.slice(0, match.index)
  return match[1]
}

/**
 * The error for the second heading with `{#id}`, where it is written: the
 * engines' trees do not all keep positions, so the source says, its second
 * line ending in that `{#id}`.
 */
function duplicateId(id: string, source: string): BodyError {
  const mark = `{#${id}}`
  const lines = source.split('\n')
  const found = lines.map((text, k) => (text.trimEnd().endsWith(mark) ? k : -1)).filter((k) => k !== -1)
  const first = found[0]
  const second = found[1] ?? 0
  return {
    code: 'HEADING_ID',
    line: second + 1,
    column: lines[second]!.lastIndexOf(mark) + 1 || 1,
    detail: `two headings have the id "${id}"${first === undefined ? '' : ` (the first on body line ${first + 1})`}: give this one another {#id}, so each link to a section finds one`,
  }
}

/** The readable text: what toText gives, with each video as "Video: title (url)" and each CTA as "label (url)". */
export function readableText(root: Root): string {
  const swapped: { parent: Root | Element; index: number; node: Element }[] = []
  swapReadable(root, swapped)
  const text = toText(root, { whitespace: 'normal' })
  for (const { parent, index, node } of swapped) parent.children[index] = node
  return text.replace(/\n{3,}/g, '\n\n').trim()
}

function swapReadable(
  parent: Root | Element,
  swapped: { parent: Root | Element; index: number; node: Element }[],
): void {
  for (const [index, child] of parent.children.entries()) {
    if (child.type !== 'element') continue
    const component = child.properties.dataComponent
    const link = component === 'video' || component === 'cta' ? findLink(child) : undefined
    if (link) {
      const label = toText(link).trim()
      const value =
        component === 'video'
          ? `Video: ${label} (${String(link.properties.href)})`
          : `${label} (${String(link.properties.href)})`
      const p: Element = { type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value }] }
      swapped.push({ parent, index, node: child })
      ;(parent.children as (RootContent | ElementContent)[])[index] = p
    } else swapReadable(child, swapped)
  }
}

function findLink(node: Element): Element | undefined {
  for (const child of node.children) {
    if (child.type !== 'element') continue
    if (child.tagName === 'a' && typeof child.properties.href === 'string') return child
    const inner = findLink(child)
    if (inner) return inner
  }
  return undefined
}
