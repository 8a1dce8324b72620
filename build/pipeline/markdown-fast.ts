/**
 * The fast renderer: markdown-it parses, markdown-hast.ts builds the tree the
 * reference renderer would have after sanitising, hast-util-to-text and
 * hast-util-to-html give text and HTML. It declines (undefined) the bodies
 * the reference renderer must take; it never loads unified, so render
 * workers start quickly.
 */
import type { Element, ElementContent, Root } from 'hast'
import { toHtml } from 'hast-util-to-html'
import { toText } from 'hast-util-to-text'
import type { Token } from 'markdown-it'
import { bodyImages, imagesWithoutAlt } from './image-alt.ts'
import { md, type Env } from './markdown-engine.ts'
import { HastBuilder } from './markdown-hast.ts'
import type { BodyResult } from './markdown-types.ts'
import { countWords } from './word-count.ts'

/** Render a body, or undefined when it needs the reference renderer (see `needsReference`). */
export function renderFast(markdown: string): BodyResult | undefined {
  const env: Env = {}
  const tokens = md.parse(markdown, env)
  if (needsReference(tokens, env)) return undefined
  const images = bodyImages(env.documentTokens ?? tokens, markdown)
  const missingAlt = imagesWithoutAlt(images)
  if (missingAlt.length) return { missingAlt, images: images.map(({ src, line, column }) => ({ src, line, column })) }
  const root = new HastBuilder(tokens, env.footnotes?.list).root()
  const text = toText(root, { whitespace: 'normal' })
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  const rendered = {
    html: toHtml(root).trim(),
    text,
    word_count: countWords(text),
    first_paragraph: firstParagraph(tokens, root, env),
    images: images.map(({ src, line, column }) => ({ src, line, column })),
  }
  return { rendered, missingAlt }
}

/**
 * The first top-level paragraph as plain text. Like the reference renderer,
 * which renders that paragraph on its own, references in it (links to
 * definitions elsewhere) stay as written and footnotes count from 1.
 */
function firstParagraph(tokens: Token[], root: Root, env: Env): string {
  const open = tokens.findIndex((t) => t.type === 'paragraph_open' && t.level === 0)
  if (open === -1) return ''
  const inline = tokens[open + 1]!
  let paragraph = root.children.find((n): n is Element => n.type === 'element' && n.tagName === 'p')
  if ((env.footnotes || Object.keys(env.references ?? {}).length) && inline.content.includes('[')) {
    const alone: Env = env.footnotes?.refs
      ? { footnotes: { refs: Object.fromEntries(Object.keys(env.footnotes.refs).map((k) => [k, -1])) } }
      : {}
    const [parsed] = md.parseInline(inline.content, alone)
    const children: ElementContent[] = new HastBuilder([], alone.footnotes?.list).inline(parsed?.children ?? [])
    paragraph = { type: 'element', tagName: 'p', properties: {}, children }
  }
  return paragraph ? toText(paragraph).replace(/\s+/g, ' ').trim() : ''
}

/** URL-like runs in inline content, and the characters in them that markdown-it and GFM's autolinks read differently. */
const URL_RUN = /(?:https?:\/\/|www\.)[^\s<]*/gi
const MARKUP_IN_URL = /[\\*~`[]|&#?\w+;|(?:^|[^\dA-Za-z])_|_(?:[^\dA-Za-z]|$)/

/**
 * Bodies the reference renderer takes: raw HTML (parsed, then sanitised);
 * footnotes markdown-it-footnote resolves differently from GFM (a reference
 * whose label differs in case, a repeated definition, a reference inside a
 * definition); markup inside a literal URL, which GFM keeps in the link.
 */
function needsReference(tokens: Token[], env: Env): boolean {
  let inNotes = false
  for (const token of tokens) {
    if (token.type === 'html_block') return true
    if (token.type === 'footnote_block_open') inNotes = true
    if (token.type !== 'inline') continue
    for (const child of token.children ?? []) {
      if (child.type === 'html_inline') return true
      if (inNotes && child.type === 'footnote_ref') return true
      if (env.footnotes && child.type === 'text' && child.content.includes('[^')) return true
    }
    URL_RUN.lastIndex = 0
    for (let run = URL_RUN.exec(token.content); run; run = URL_RUN.exec(token.content)) {
      if (MARKUP_IN_URL.test(run[0])) return true
    }
  }
  return env.footnoteDuplicates === true
}
