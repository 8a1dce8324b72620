/**
 * The sanitised hast tree as `body.tree` (contract/body-tree.ts), built in
 * the walk body-finish.ts makes anyway for ids and embeds: `hooks` lets it
 * settle each iframe and collect each heading on the way. A component is
 * found by its `data-component`, its attributes read back from its
 * `data-*` (what component-html.ts wrote, after validation); the markup a
 * built-in adds around the author's content (a callout's title, a quote's
 * caption, a video's player) is not in the tree, its attributes say it.
 */
import type { Element, ElementContent, Root } from 'hast'
import type { BodyNode, BodyNodeType } from '../../contract/body-tree.ts'

export interface TreeHooks {
  /** Whether the iframe stays (it is settled in place). */
  iframe(element: Element): boolean
  /** A heading without an id yet: its node gets `id` and `children` once the ids are known. */
  heading(element: Element, node: BodyNode): void
}

const SIMPLE: Record<string, BodyNodeType> = {
  p: 'paragraph',
  blockquote: 'blockquote',
  li: 'list_item',
  em: 'emphasis',
  strong: 'strong',
  del: 'delete',
  br: 'break',
  hr: 'thematic_break',
  table: 'table',
  tr: 'table_row',
}
const HEADING = /^h([1-6])$/
/** Elements whose whitespace-only text is layout between blocks, not content. */
const BLOCK_PARENTS = new Set(['blockquote', 'ul', 'ol', 'table', 'thead', 'tbody', 'tr', 'section', 'aside', 'figure'])

/** The nodes of `parent`'s children, settling iframes and collecting headings through `hooks`. */
export function treeChildren(parent: Root | Element, hooks: TreeHooks): BodyNode[] {
  const out: BodyNode[] = []
  const blocks =
    parent.type === 'root' ||
    BLOCK_PARENTS.has(parent.tagName) ||
    (isComponent(parent) && (parent as Element).tagName !== 'span')
  for (let k = 0; k < parent.children.length; k++) {
    const child = parent.children[k]!
    if (child.type === 'text') {
      // Between blocks, text (what raw HTML leaves) is trimmed, as the HTML is: layout whitespace goes.
      const value = blocks ? child.value.trim() : child.value
      if (!value || (parent.type === 'element' && parent.tagName === 'li' && !value.trim() && value.includes('\n')))
        continue
      // Engines split text differently (markdown-it at each `&`, say): one node per run of text.
      const last = out.at(-1)
      if (last?.type === 'text') last.value += value
      else out.push({ type: 'text', value })
      continue
    }
    if (child.type !== 'element') continue
    if (child.tagName === 'iframe' && !hooks.iframe(child)) {
      parent.children.splice(k--, 1)
      continue
    }
    // thead and tbody only group rows: their rows are the table's.
    if (child.tagName === 'thead' || child.tagName === 'tbody') out.push(...treeChildren(child, hooks))
    else {
      const node = treeNode(child, hooks)
      if (node) out.push(node)
    }
  }
  return out
}

function treeNode(element: Element, hooks: TreeHooks): BodyNode | undefined {
  const { tagName: tag, properties } = element
  if (isComponent(element)) return component(element, hooks)
  const heading = HEADING.exec(tag)
  if (heading) {
    const node: BodyNode = { type: 'heading', depth: Number(heading[1]) }
    if (typeof properties.id === 'string') Object.assign(node, { id: properties.id, children: inline(element, hooks) })
    else hooks.heading(element, node)
    return node
  }
  const simple = SIMPLE[tag]
  if (simple) {
    const children = treeChildren(element, hooks)
    if (tag === 'li') return taskItem(children)
    return simple === 'break' || simple === 'thematic_break' ? { type: simple } : { type: simple, children }
  }
  switch (tag) {
    case 'ul':
    case 'ol': {
      const start = tag === 'ol' && typeof properties.start === 'number' ? { start: properties.start } : {}
      return { type: 'list', ordered: tag === 'ol', ...start, children: treeChildren(element, hooks) }
    }
    case 'th':
    case 'td': {
      const align = typeof properties.align === 'string' ? { align: properties.align } : {}
      return { type: 'table_cell', header: tag === 'th', ...align, children: treeChildren(element, hooks) }
    }
    case 'pre': {
      const code = element.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code')
      const lang = classes(code)
        .find((c) => c.startsWith('language-'))
        ?.slice('language-'.length)
      return { type: 'code', ...(lang && { lang }), value: textOf(code ?? element) }
    }
    case 'code':
      return { type: 'inline_code', value: textOf(element) }
    case 'a':
      return { type: 'link', href: String(properties.href ?? ''), ...titled(element), children: inline(element, hooks) }
    case 'img':
      return { type: 'image', src: String(properties.src ?? ''), alt: String(properties.alt ?? ''), ...titled(element) }
    case 'input':
      // A task list's checkbox: taskItem moves it to the item's `checked`.
      if (properties.type === 'checkbox') return { type: 'element', tag: 'input', checked: properties.checked === true }
  }
  return { type: 'element', tag, attributes: htmlAttributes(element), children: treeChildren(element, hooks) }
}

function inline(element: Element, hooks: TreeHooks): BodyNode[] {
  return treeChildren(element, hooks)
}

/** Fill a heading node collected through `hooks.heading` once its id is set. */
export function finishHeading(element: Element, node: BodyNode, hooks: TreeHooks): void {
  node.id = String(element.properties.id)
  node.children = inline(element, hooks)
}

/** A list item: a task's checkbox (first in it, or in its first paragraph) becomes `checked`. */
function taskItem(children: BodyNode[]): BodyNode {
  const holder = children[0]?.type === 'paragraph' ? children[0].children! : children
  const box = holder[0]
  if (box?.type !== 'element' || box.tag !== 'input') return { type: 'list_item', children }
  holder.shift()
  const next = holder[0]
  if (next?.type === 'text') next.value = next.value!.replace(/^ /, '')
  if (next?.value === '') holder.shift()
  return { type: 'list_item', checked: box.checked === true, children }
}

function component(element: Element, hooks: TreeHooks): BodyNode {
  const name = String(element.properties.dataComponent)
  const attributes: Record<string, string> = {}
  for (const [key, value] of Object.entries(element.properties))
    if (key.startsWith('data') && key !== 'dataComponent' && key.length > 4 && typeof value === 'string')
      attributes[key.slice(4).replace(/[A-Z]/g, (c, at: number) => (at ? '-' : '') + c.toLowerCase())] = value
  const children = treeChildren(element, hooks)
  const node: BodyNode = { type: 'component', name, attributes, children }
  if (name === 'callout') node.children = children.filter((_, k) => !(k === 0 && calloutTitle(element)))
  else if (name === 'quote') node.children = children.find((c) => c.type === 'blockquote')?.children ?? []
  else if (name === 'video') {
    const player = findElement(element, 'iframe')
    node.embed = { provider: attributes.provider ?? '', url: String(player?.properties.src ?? '') }
    delete attributes.provider
    node.children = []
  } else if (name === 'cta') node.children = []
  return node
}

function calloutTitle(element: Element): boolean {
  const first = element.children.find((c): c is Element => c.type === 'element')
  return classes(first).includes('component-callout-title')
}

function isComponent(element: Root | Element): boolean {
  return element.type === 'element' && typeof element.properties.dataComponent === 'string'
}

function findElement(node: Element, tag: string): Element | undefined {
  for (const child of node.children) {
    if (child.type !== 'element') continue
    if (child.tagName === tag) return child
    const inner = findElement(child, tag)
    if (inner) return inner
  }
  return undefined
}

function classes(element: Element | undefined): string[] {
  const value = element?.properties.className
  return Array.isArray(value) ? value.map(String) : []
}

function titled(element: Element): { title?: string } {
  return typeof element.properties.title === 'string' ? { title: element.properties.title } : {}
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value
  return node.type === 'element' ? node.children.map(textOf).join('') : ''
}

/** An element's properties as HTML attributes (`className` → `class`, `dataFootnoteRef` → `data-footnote-ref`). */
function htmlAttributes(element: Element): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(element.properties)) {
    if (value === undefined || value === null || value === false) continue
    const name = key === 'className' ? 'class' : key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    out[name] = value === true ? '' : Array.isArray(value) ? value.join(' ') : String(value)
  }
  return out
}
