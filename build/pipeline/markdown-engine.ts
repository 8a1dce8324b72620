/**
 * The markdown-it parser set up to read GFM the way micromark (remark-gfm)
 * does: tables, footnotes (markdown-it-footnote), `~one~` and `~~two~~`
 * strikethrough, raw HTML recognised (so markdown.ts can hand those bodies to
 * the reference renderer), URLs normalised like mdast-util-to-hast and never
 * refused at parse time: the hast step drops a disallowed URL the way the
 * sanitiser does, so the text stays what it was. Literal autolinks and task
 * list items are read in the hast step (gfm-autolink.ts, markdown-hast.ts).
 */
import MarkdownIt, { type Env as MarkdownItEnv, type StateInline, type Token } from 'markdown-it'
import footnote from 'markdown-it-footnote'
import { normalizeUri } from 'micromark-util-sanitize-uri'
import { footnoteId, type FootnoteList } from './markdown-footnotes.ts'

/** A string attribute (markdown-it's types allow numbers). */
export function attr(token: Token, name: string): string | null {
  const value = token.attrGet(name)
  return value === null ? null : String(value)
}

/** The meta a rule (ours or markdown-it-footnote's) put on a token. */
export function meta<T>(token: Token): T {
  return (token.meta ?? {}) as unknown as T
}

/** Delimiter marker of a single `~` (`~~` keeps the tilde's char code): openers only match closers of the same size. */
const SINGLE_TILDE = -126
const TILDE = 126
const CLOSE_PAREN = 41

/** Where an image started in its inline content, for author errors with line and column. */
export interface ImageMeta {
  start: number
  /** `![alt](url)`, not a reference (`![alt][ref]`, `![alt]`). */
  inline: boolean
}

/** What a parse leaves in its env: link definitions, markdown-it-footnote's notes, and our footnote check. */
export interface Env extends MarkdownItEnv {
  footnotes?: { refs?: Record<string, number>; list?: FootnoteList }
  /** Two definitions of one note: markdown-it-footnote keeps the last, GFM the first. */
  footnoteDuplicates?: boolean
  /** Tokens in document order, footnote definitions in place (even unreferenced ones), before markdown-it-footnote moves them. */
  documentTokens?: Token[]
}

export const md = new MarkdownIt({ html: true }).use(footnote)
md.core.ruler.before('footnote_tail', 'footnote_check', (state) => {
  const env = state.env as Env
  env.documentTokens = state.tokens
  const labels = new Set<string>()
  for (const token of state.tokens) {
    if (token.type !== 'footnote_reference_open') continue
    const label = footnoteId(meta<{ label: string }>(token).label)
    if (labels.has(label)) env.footnoteDuplicates = true
    labels.add(label)
  }
})
md.inline.ruler.disable('footnote_inline') // `^[inline notes]` are not GFM
md.validateLink = () => true
md.normalizeLink = normalizeUri
md.normalizeLinkText = (url) => url
md.inline.ruler.at('strikethrough', tokenizeTildes)
md.inline.ruler2.at('strikethrough', pairTildes)
md.inline.ruler.at('image', recordImageStart(ruleNamed('image')))

/** GFM strikethrough: runs of one or two tildes delimit, longer runs are text (micromark-extension-gfm-strikethrough). */
function tokenizeTildes(state: StateInline, silent: boolean): boolean {
  const start = state.pos
  if (silent || state.src.charCodeAt(start) !== TILDE) return false
  const scanned = state.scanDelims(start, true)
  const token = state.push('text', '', 0)
  token.content = state.src.slice(start, start + scanned.length)
  if (scanned.length <= 2) {
    state.delimiters.push({
      marker: scanned.length === 1 ? SINGLE_TILDE : TILDE,
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    })
  }
  state.pos += scanned.length
  return true
}

function pairTildes(state: StateInline): boolean {
  const delimiterLists = [state.delimiters, ...state.tokens_meta.map((meta) => meta?.delimiters)]
  for (const delimiters of delimiterLists) {
    for (const opener of delimiters ?? []) {
      if ((opener.marker !== TILDE && opener.marker !== SINGLE_TILDE) || opener.end === -1) continue
      retag(state.tokens[opener.token]!, 's_open', 1)
      retag(state.tokens[delimiters![opener.end]!.token]!, 's_close', -1)
    }
  }
  return false
}

function retag(token: Token, type: string, nesting: 1 | -1): void {
  token.type = type
  token.tag = 'del'
  token.nesting = nesting
  token.content = ''
}

type InlineRule = (state: StateInline, silent: boolean) => boolean

/** markdown-it keeps its rules by name but exposes them only as a chain; the image rule is wrapped, so read it. */
function ruleNamed(name: string): InlineRule {
  const rules = (md.inline.ruler as unknown as { __rules__: { name: string; fn: InlineRule }[] }).__rules__
  return rules.find((rule) => rule.name === name)!.fn
}

/** Wrap the image rule so each image token knows its offset in the inline content. */
function recordImageStart(rule: InlineRule): InlineRule {
  return (state, silent) => {
    const start = state.pos
    const before = state.tokens.length
    if (!rule(state, silent)) return false
    if (!silent && state.tokens.length > before) {
      const token = state.tokens[state.tokens.length - 1]!
      if (token.type === 'image')
        token.meta = { start, inline: state.src.charCodeAt(state.pos - 1) === CLOSE_PAREN } satisfies ImageMeta
    }
    return true
  }
}
