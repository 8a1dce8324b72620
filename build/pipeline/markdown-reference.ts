/**
 * The reference renderer: Markdown (GFM) to sanitised HTML and plain text with
 * unified (micromark, mdast, hast). Raw HTML is parsed (rehype-raw) and then
 * sanitised with GitHub's allow-list, so `<script>`, `javascript:` URLs and
 * event handlers never reach the output. markdown.ts renders bodies with raw
 * HTML here, and the differential tests compare the fast renderer with it.
 */
import type { Root as HastRoot } from 'hast'
import { toText } from 'hast-util-to-text'
import type { Root as MdastRoot, RootContent } from 'mdast'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { normalizeUri } from 'micromark-util-sanitize-uri'
import { finishTree, readableText } from './body-finish.ts'
import { componentDirectives } from './directive-syntax.ts'
import type { ComponentDeclaration } from '../core/components.ts'
import { applyComponents } from './markdown-directives.ts'
import type { BodyError, BodyImage, BodyResult, ImageWithoutAlt, RenderedBody } from './markdown-types.ts'
import { BODY_SCHEMA } from './sanitize-schema.ts'
import { singleClobberPrefix } from './hast-clobber.ts'
import { countWords } from './word-count.ts'

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, BODY_SCHEMA)
  .use(singleClobberPrefix)
  .use(rehypeStringify)

/**
 * The same pipeline without rehype-raw, for bodies without raw HTML: re-parsing
 * the whole tree through parse5 is then a no-op that costs a fifth of the render.
 */
const withoutRaw = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeSanitize, BODY_SCHEMA)
  .use(singleClobberPrefix)
  .use(rehypeStringify)

/** The reading of bodies with components (markdown-directives.ts): only its parser differs. */
const withDirectives = unified().use(remarkParse).use(remarkGfm).use(componentDirectives)

export function parseMarkdown(markdown: string): MdastRoot {
  return processor.parse(markdown)
}

/** Images written without alt text, an accessibility error for authors. */
export function findImagesWithoutAlt(tree: MdastRoot): ImageWithoutAlt[] {
  const found: ImageWithoutAlt[] = []
  const walk = (nodes: RootContent[]) => {
    for (const node of nodes) {
      if (node.type === 'image' && !node.alt?.trim()) {
        found.push({ url: node.url, line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1 })
      }
      if ('children' in node) walk(node.children as RootContent[])
    }
  }
  walk(tree.children)
  return found
}

/** Every image (inline and by reference), with its `src` as the HTML will have it and its position. */
export function findImages(tree: MdastRoot): BodyImage[] {
  const definitions = new Map<string, string>()
  const images: { node: RootContent; url?: string; identifier?: string }[] = []
  const walk = (nodes: RootContent[]) => {
    for (const node of nodes) {
      if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node.url)
      if (node.type === 'image') images.push({ node, url: node.url })
      if (node.type === 'imageReference') images.push({ node, identifier: node.identifier })
      if ('children' in node) walk(node.children as RootContent[])
    }
  }
  walk(tree.children)
  return images.flatMap(({ node, url, identifier }) => {
    const target = url ?? definitions.get(identifier!)
    if (target === undefined) return []
    const start = node.position?.start
    return [{ src: normalizeUri(target), line: start?.line ?? 1, column: start?.column ?? 1 }]
  })
}

export function renderMarkdown(tree: MdastRoot, source = ''): RenderedBody & { errors: BodyError[] } {
  const firstParagraph = tree.children.find((n) => n.type === 'paragraph')
  const raw = contains(tree, RAW_TYPES)
  // References and raw HTML render differently alone, so their paragraph gets a second pass on an intact tree.
  const secondPass = firstParagraph !== undefined && (raw || contains(firstParagraph, REFERENCE_TYPES))
  const hast = (raw ? processor : withoutRaw).runSync(secondPass ? structuredClone(tree) : tree) as HastRoot
  const { toc, treeJson, errors } = finishTree(hast, source)
  const html = processor.stringify(hast).trim()
  const text = readableText(hast)
  let first = ''
  if (firstParagraph && !secondPass) {
    // The first top-level <p> is that paragraph, rendered in context: no second pass needed.
    const p = hast.children.find((n) => n.type === 'element' && n.tagName === 'p')
    if (p) first = toText(p).replace(/\s+/g, ' ').trim()
  } else if (firstParagraph) {
    const paragraphHast = processor.runSync({ type: 'root', children: [firstParagraph] }) as HastRoot
    first = toText(paragraphHast).replace(/\s+/g, ' ').trim()
  }
  const rendered = {
    html,
    text,
    word_count: countWords(text),
    first_paragraph: first,
    images: findImages(tree),
    toc,
    tree_json: treeJson,
  }
  return { ...rendered, errors }
}

/** Trees that need the parse5 round trip: raw HTML, and footnotes (whose boolean data attributes it normalises). */
const RAW_TYPES = new Set(['html', 'footnoteReference', 'footnoteDefinition'])
const REFERENCE_TYPES = new Set(['html', 'linkReference', 'imageReference', 'footnoteReference'])

function contains(node: MdastRoot | RootContent, types: Set<string>): boolean {
  if (types.has(node.type)) return true
  return 'children' in node && (node.children as RootContent[]).some((child) => contains(child, types))
}

/** Parse, check images and render in one call (the fallback of markdown.ts). */
export function renderReference(markdown: string): BodyResult {
  return renderTree(parseMarkdown(markdown), markdown, [])
}

/** A body with components: parsed with the directive syntax, each directive checked and marked, then rendered as any other. */
export function renderDirectives(markdown: string, components: ReadonlyMap<string, ComponentDeclaration>): BodyResult {
  const tree = withDirectives.parse(markdown)
  return renderTree(tree, markdown, applyComponents(tree, components, markdown))
}

function renderTree(tree: MdastRoot, markdown: string, errors: BodyError[]): BodyResult {
  const missingAlt = findImagesWithoutAlt(tree)
  if (missingAlt.length) return { missingAlt, images: findImages(tree), errors }
  const { errors: found, ...rendered } = renderMarkdown(tree, markdown)
  return { rendered, missingAlt, errors: [...errors, ...found] }
}
