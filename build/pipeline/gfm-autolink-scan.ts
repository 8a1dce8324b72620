/**
 * The first of GFM's two literal-autolink passes: the scanner of
 * micromark-extension-gfm-autolink-literal (MIT, Titus Wormer) run over a
 * text run. It decides most links (domains with any letters, trailing
 * punctuation, `*`/`_`/`~` at the end); gfm-autolink.ts then runs the
 * regular-expression pass over what is left, as remark-gfm does.
 */
import {
  asciiAlpha,
  asciiAlphanumeric,
  asciiControl,
  unicodePunctuation,
  unicodeWhitespace,
} from 'micromark-util-character'

export interface ScannedLink {
  start: number
  end: number
  url: string
}

const code = (s: string, i: number): number | null => (i < s.length ? s.charCodeAt(i) : null)
const space = (c: number | null) => c === null || unicodeWhitespace(c)
const atext = (c: number | null) => c === 43 || c === 45 || c === 46 || c === 95 || asciiAlphanumeric(c)
const lower = (c: number | null) => (c !== null && c >= 65 && c <= 90 ? c + 32 : c)

/** Literal autolinks in `s`, left to right, not overlapping. */
export function scanAutolinks(s: string): ScannedLink[] {
  const links: ScannedLink[] = []
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    const previous = i === 0 ? null : s.charCodeAt(i - 1)
    let end = -1
    let url = ''
    if (atext(c) && !(previous === 47 || atext(previous))) [end, url] = [email(s, i), 'mailto:']
    if (
      end < 0 &&
      lower(c) === 119 &&
      (previous === null || [40, 42, 95, 91, 93, 126].includes(previous) || space(previous))
    )
      [end, url] = [www(s, i), 'http://']
    if (end < 0 && lower(c) === 104 && !asciiAlpha(previous)) [end, url] = [protocol(s, i), '']
    if (end > i) {
      links.push({ start: i, end, url: url + s.slice(i, end) })
      i = end - 1
    }
  }
  return links
}

function email(s: string, i: number): number {
  while (atext(code(s, i))) i++
  if (code(s, i) !== 64) return -1
  i++
  let data = false
  let dot = false
  for (;;) {
    const c = code(s, i)
    if (c === 46) {
      if (!asciiAlphanumeric(code(s, i + 1))) break
      dot = true
    } else if (c === 45 || c === 95 || asciiAlphanumeric(c)) {
      data = true
    } else break
    i++
  }
  return data && dot && asciiAlpha(code(s, i - 1)) ? i : -1
}

function www(s: string, i: number): number {
  for (let k = 0; k < 3; k++) if (lower(code(s, i + k)) !== 119) return -1
  if (code(s, i + 3) !== 46 || code(s, i + 4) === null) return -1
  const afterDomain = domain(s, i)
  return afterDomain < 0 ? -1 : path(s, afterDomain)
}

function protocol(s: string, i: number): number {
  let j = i
  while (asciiAlpha(code(s, j)) && j - i < 5) j++
  const name = s.slice(i, j).toLowerCase()
  if ((name !== 'http' && name !== 'https') || code(s, j) !== 58 || code(s, j + 1) !== 47 || code(s, j + 2) !== 47)
    return -1
  const c = code(s, j + 3)
  if (c === null || asciiControl(c) || space(c) || unicodePunctuation(c)) return -1
  const afterDomain = domain(s, j + 3)
  return afterDomain < 0 ? -1 : path(s, afterDomain)
}

function domain(s: string, i: number): number {
  let underscoreInLast = false
  let underscoreInLastLast = false
  let seen = false
  for (;;) {
    const c = code(s, i)
    if (c === 46 || c === 95) {
      if (trail(s, i)) break
      if (c === 95) underscoreInLast = true
      else [underscoreInLastLast, underscoreInLast] = [underscoreInLast, false]
    } else if (space(c) || (c !== 45 && unicodePunctuation(c!))) {
      break
    } else {
      seen = true
    }
    i++
  }
  return underscoreInLastLast || underscoreInLast || !seen ? -1 : i
}

const PATH_PUNCTUATION = new Set([33, 34, 38, 39, 41, 42, 44, 46, 58, 59, 60, 63, 93, 95, 126])
const TRAIL = new Set([33, 34, 39, 41, 42, 44, 46, 58, 59, 63, 95, 126])

function path(s: string, i: number): number {
  let open = 0
  let close = 0
  for (;;) {
    const c = code(s, i)
    if (c === 40) open++
    else if (c === 41 && close < open) close++
    else if (c !== null && PATH_PUNCTUATION.has(c)) {
      if (trail(s, i)) return i
      if (c === 41) close++
    } else if (space(c)) return i
    i++
  }
}

/** Whether only trailing punctuation (and character references, `]`) is left before white space, `<` or the end. */
function trail(s: string, i: number): boolean {
  for (;;) {
    const c = code(s, i)
    if (c !== null && TRAIL.has(c)) {
      i++
    } else if (c === 38) {
      let j = i + 1
      if (!asciiAlpha(code(s, j))) return false
      while (asciiAlpha(code(s, j))) j++
      if (code(s, j) !== 59) return false
      i = j + 1
    } else if (c === 93) {
      const next = code(s, i + 1)
      if (next === null || next === 40 || next === 91 || space(next)) return true
      i++
    } else {
      return c === 60 || space(c)
    }
  }
}
