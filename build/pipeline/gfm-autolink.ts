/**
 * GFM literal autolinks (`www.example.com`, `https://…`, `mailto:`/`xmpp:`
 * and bare emails) in a run of text, found as remark-gfm finds them: first
 * micromark's scanner (gfm-autolink-scan.ts), then, over the text left, the
 * patterns and checks of mdast-util-gfm-autolink-literal (MIT, Titus Wormer).
 */
import { unicodePunctuation, unicodeWhitespace } from 'micromark-util-character'
import { scanAutolinks } from './gfm-autolink-scan.ts'

export interface AutolinkSegment {
  url: string
  text: string
}

/** Text split into plain strings and autolinks, adjacent strings merged. */
export type Segments = (string | AutolinkSegment)[]

type Finder = (match: RegExpExecArray) => false | Segments

const PATTERNS: [RegExp, Finder][] = [
  [/(?<![\da-z])(https?:\/\/|www(?=\.))([\w-]*\.[\w\-.]*)([^\t\n\r ]*)/gi, findUrl],
  [/(?<![\w+\-.@])xmpp:([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)(\/(?:[\w\-/]|\.(?=[\dA-Za-z]))*)?/g, findXmpp],
  [/(?<![\w+\-.@])mailto:([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)/g, findMailto],
  [/(?<![\w+\-.]|(?:^|[^\d@A-Za-z])(?:mailto|xmpp):)([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)/g, findEmail],
]

/** Cheap pre-check: every literal autolink has `@`, `www.` or `http(s)://`. */
const CANDIDATE = /@|www\.|https?:\/\//i

export function findAutolinks(text: string): Segments {
  if (!CANDIDATE.test(text)) return [text]
  let segments: Segments = []
  let at = 0
  for (const link of scanAutolinks(text)) {
    if (link.start > at) segments.push(text.slice(at, link.start))
    segments.push({ url: link.url, text: text.slice(link.start, link.end) })
    at = link.end
  }
  if (at < text.length) segments.push(text.slice(at))
  for (const [pattern, find] of PATTERNS) {
    const next: Segments = []
    for (const segment of segments) {
      if (typeof segment === 'string') replaceIn(segment, pattern, find, next)
      else next.push(segment)
    }
    segments = next
  }
  return segments
}

function replaceIn(value: string, pattern: RegExp, find: Finder, out: Segments): void {
  let start = 0
  pattern.lastIndex = 0
  let match = pattern.exec(value)
  while (match) {
    const found = find(match)
    if (found === false) {
      pattern.lastIndex = match.index + 1
    } else {
      if (start !== match.index) add(out, value.slice(start, match.index))
      for (const part of found) add(out, part)
      start = match.index + match[0].length
    }
    match = pattern.exec(value)
  }
  if (start < value.length) add(out, value.slice(start))
}

function add(out: Segments, part: string | AutolinkSegment): void {
  const last = out.length - 1
  if (typeof part === 'string' && typeof out[last] === 'string') out[last] += part
  else out.push(part)
}

function findUrl(match: RegExpExecArray): false | Segments {
  let [, protocol = '', domain = '', path = ''] = match
  if (!previous(match)) return false
  let prefix = ''
  // `www` is part of the domain.
  if (/^w/i.test(protocol)) {
    domain = protocol + domain
    protocol = ''
    prefix = 'http://'
  }
  if (unicodePunctuation(domain.charCodeAt(0)) || !isCorrectDomain(domain)) return false
  const [url, trail] = splitUrl(domain + path)
  const link = { url: prefix + protocol + url, text: protocol + url }
  return trail ? [link, trail] : [link]
}

function findEmail(match: RegExpExecArray): false | Segments {
  const [, atext, label = ''] = match
  if (/[\d\-_]$/.test(label)) return false
  return [{ url: `mailto:${atext}@${label}`, text: `${atext}@${label}` }]
}

function findMailto(match: RegExpExecArray): false | Segments {
  const [, atext, label = ''] = match
  if (/[\d\-_]$/.test(label)) return false
  const value = `mailto:${atext}@${label}`
  return [{ url: value, text: value }]
}

function findXmpp(match: RegExpExecArray): false | Segments {
  const [whole, atext, label = '', resource] = match
  if (
    /[\d\-_]$/.test(label) ||
    (resource && (!/[A-Za-z]$/.test(resource) || match.input.charAt(match.index + whole.length) === '@'))
  ) {
    return false
  }
  const value = `xmpp:${atext}@${label}${resource ?? ''}`
  return [{ url: value, text: value }]
}

function isCorrectDomain(domain: string): boolean {
  const parts = domain.split('.')
  const bad = (part: string | undefined) => Boolean(part) && (/_/.test(part!) || !/[\dA-Za-z]/.test(part!))
  return parts.length >= 2 && !bad(parts[parts.length - 1]) && !bad(parts[parts.length - 2])
}

/** Trailing punctuation is not part of a URL, except closing parentheses that balance opening ones. */
function splitUrl(value: string): [url: string, trail: string | undefined] {
  let index = value.length
  while (index > 0 && TRAILING.has(value.charCodeAt(index - 1))) index--
  if (index === value.length) return [value, undefined]
  let trail = value.slice(index)
  let url = value.slice(0, index)
  let closingParenIndex = trail.indexOf(')')
  const openingParens = count(url, '(')
  let closingParens = count(url, ')')
  while (closingParenIndex !== -1 && openingParens > closingParens) {
    url += trail.slice(0, closingParenIndex + 1)
    trail = trail.slice(closingParenIndex + 1)
    closingParenIndex = trail.indexOf(')')
    closingParens++
  }
  return [url, trail]
}

const TRAILING = new Set([...'!"&\'),.:;<>?]}'].map((c) => c.charCodeAt(0)))

function count(value: string, character: string): number {
  let n = 0
  for (let i = value.indexOf(character); i !== -1; i = value.indexOf(character, i + 1)) n++
  return n
}

function previous(match: RegExpExecArray): boolean {
  const code = match.input.charCodeAt(match.index - 1)
  return match.index === 0 || unicodeWhitespace(code) || unicodePunctuation(code)
}
