/**
 * The fast renderer: markdown-it parses, markdown-hast.ts builds the tree the
 * reference renderer would have after sanitising (raw HTML parsed and
 * sanitised by markdown-raw.ts), hast-util-to-text and hast-util-to-html give
 * text and HTML. It declines (undefined) the few bodies the reference renderer
 * must take; it never loads unified, so render workers start quickly.
 */
import type { Element, ElementContent, Root } from 'hast'
import { toHtml } from 'hast-util-to-html'
import { toText } from 'hast-util-to-text'
import type { Token } from 'markdown-it'
import { finishTree, readableText } from './body-finish.ts'
import { bodyImages, imagesWithoutAlt } from './image-alt.ts'
import { md, type Env } from './markdown-engine.ts'
import { hasDirectives } from './markdown-directives.ts'
import { HastBuilder } from './markdown-hast.ts'
import { parseAndSanitize } from './markdown-raw.ts'
import type { BodyResult } from './markdown-types.ts'
import { countWords } from './word-count.ts'

/** Render a body, or undefined when it needs the reference renderer (see `needsReference`). */
export function renderFast(markdown: string): BodyResult | undefined {
  const env: Env = {}
  const tokens = md.parse(markdown, env)
  if (hasDirectives(markdown) || needsReference(tokens, env, markdown) || markersBesideReferences(tokens, env))
    return undefined
  const images = bodyImages(env.documentTokens ?? tokens, markdown)
  const missingAlt = imagesWithoutAlt(images)
  if (missingAlt.length)
    return { missingAlt, images: images.map(({ src, line, column }) => ({ src, line, column })), errors: [] }
  const builder = new HastBuilder(tokens, env.footnotes?.list)
  let root = builder.root()
  if (builder.hasRaw) root = parseAndSanitize(root)
  const { toc, treeJson, errors } = finishTree(root, markdown)
  const text = readableText(root)
  const rendered = {
    html: toHtml(root).trim(),
    text,
    word_count: countWords(text),
    first_paragraph: firstParagraph(tokens, root, env, builder.hasRaw),
    images: images.map(({ src, line, column }) => ({ src, line, column })),
    toc,
    tree_json: treeJson,
  }
  return { rendered, missingAlt, errors }
}

/**
 * The first top-level paragraph as plain text. Like the reference renderer,
 * which renders that paragraph on its own, references in it (links to
 * definitions elsewhere) stay as written and footnotes count from 1; in a
 * body with raw HTML it is parsed on its own too (an unclosed tag before it
 * does not hold it).
 */
function firstParagraph(tokens: Token[], root: Root, env: Env, bodyHasRaw: boolean): string {
  const open = tokens.findIndex((t) => t.type === 'paragraph_open' && t.level === 0)
  if (open === -1) return ''
  const inline = tokens[open + 1]!
  const references = (env.footnotes || Object.keys(env.references ?? {}).length) && inline.content.includes('[')
  if (!references && !bodyHasRaw) {
    const paragraph = root.children.find((n): n is Element => n.type === 'element' && n.tagName === 'p')
    return paragraph ? toText(paragraph).replace(/\s+/g, ' ').trim() : ''
  }
  let builder: HastBuilder
  let children: ElementContent[]
  if (references) {
    const alone: Env = env.footnotes?.refs
      ? { footnotes: { refs: Object.fromEntries(Object.keys(env.footnotes.refs).map((k) => [k, -1])) } }
      : {}
    const [parsed] = md.parseInline(inline.content, alone)
    builder = new HastBuilder([], alone.footnotes?.list)
    children = builder.inline(parsed?.children ?? [])
  } else {
    builder = new HastBuilder([], env.footnotes?.list)
    children = builder.inline(inline.children ?? [])
  }
  let paragraph: Root = { type: 'root', children: [{ type: 'element', tagName: 'p', properties: {}, children }] }
  if (builder.hasRaw) paragraph = parseAndSanitize(paragraph)
  return toText(paragraph).replace(/\s+/g, ' ').trim()
}

/**
 * Whether the first paragraph has a reference link beside an emphasis marker
 * the link left literal (`*[foo*][ref]`): alone, as the summary reads it, the
 * reference renderer keeps the parse in context and markdown-it parses again,
 * pairing the markers, so that body goes to the reference renderer.
 */
function markersBesideReferences(tokens: Token[], env: Env): boolean {
  if (!Object.keys(env.references ?? {}).length) return false
  const open = tokens.findIndex((t) => t.type === 'paragraph_open' && t.level === 0)
  const children = open === -1 ? [] : (tokens[open + 1]!.children ?? [])
  return (
    children.some((t) => t.type === 'link_open') && children.some((t) => t.type === 'text' && /[*_]/.test(t.content))
  )
}

/** URL-like runs in inline content, and the characters in them that markdown-it and GFM's autolinks read differently. */
const URL_RUN = /(?:https?:\/\/|www\.)[^\s<]*/gi
const MARKUP_IN_URL = /[\\*~`[]|&#?\w+;|(?:^|[^\dA-Za-z])_|_(?:[^\dA-Za-z]|$)/

/** Whether `block` is the first thing of the list item or quote `before` opens, on its first line. */
function opensContainer(before: Token | undefined, block: Token): boolean {
  return before !== undefined && before.nesting === 1 && before.map?.[0] === block.map![0]
}

/** A link's destination (`](https://…)`) ends at its `)`: what follows it (`)**`) is no part of the URL. */
function destinationOrRun(content: string, run: RegExpExecArray): string {
  if (content.slice(run.index - 2, run.index) !== '](') return run[0]
  const close = run[0].indexOf(')')
  return close === -1 ? run[0] : run[0].slice(0, close)
}

/**
 * Bodies the reference renderer takes: footnotes markdown-it-footnote
 * resolves differently from GFM (a reference whose label differs in case, a
 * repeated definition, a reference inside a definition); markup inside a
 * literal URL, which GFM keeps in the link; raw HTML where markdown-it and
 * micromark end a paragraph, a list item or a table differently (an HTML
 * line right after a text line or a table row: a block to one, a
 * continuation to the other).
 */
function needsReference(tokens: Token[], env: Env, markdown: string): boolean {
  let inNotes = false
  let lines: string[] | undefined
  for (const [k, token] of tokens.entries()) {
    if (token.type === 'footnote_block_open') inNotes = true
    if (token.type === 'html_block' && token.map && token.map[0] > 0 && !opensContainer(tokens[k - 1], token)) {
      lines ??= markdown.split('\n')
      // The line before, blank but for the quote markers of the block it is in.
      if (lines[token.map[0] - 1]!.replace(/^[\s>]*/, '') !== '') return true
    }
    // A table row written as HTML: an HTML block that ends the table for micromark, a row for markdown-it.
    if (token.type === 'tr_open' && token.map) {
      lines ??= markdown.split('\n')
      if (lines[token.map[0]]!.trimStart().startsWith('<')) return true
    }
    if (token.type !== 'inline') continue
    for (const [i, child] of (token.children ?? []).entries()) {
      if (child.type === 'html_inline' && token.children![i - 1]?.type === 'softbreak') return true
      if (inNotes && child.type === 'footnote_ref') return true
      if (env.footnotes && child.type === 'text' && child.content.includes('[^')) return true
    }
    URL_RUN.lastIndex = 0
    for (let run = URL_RUN.exec(token.content); run; run = URL_RUN.exec(token.content)) {
      if (MARKUP_IN_URL.test(destinationOrRun(token.content, run))) return true
    }
  }
  return env.footnoteDuplicates === true
}
