/** Writing XML by hand, safely: escaped text and attributes, no characters XML 1.0 forbids. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }
// Control characters (but tab, newline, carriage return), lone surrogates and U+FFFE/U+FFFF.
const FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters, so they are what this matches.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Any character FORBIDDEN might match, in one character class: a fast scan that spares
 * most text (no control characters, no astral characters) the slower look-around pattern.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same characters as FORBIDDEN, and every surrogate.
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/
const SPECIAL = /[&<>"']/

/** Text or an attribute value, escaped. */
export function xmlText(value: string): string {
  const allowed = SUSPECT.test(value) ? value.replace(FORBIDDEN, '') : value
  return SPECIAL.test(allowed) ? allowed.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : allowed
}

/** `<name attr="…">text</name>`, or self-closed without text; attributes in the given order, undefined ones left out. */
export function element(name: string, text?: string, attributes: Record<string, string | undefined> = {}): string {
  const attrs = Object.entries(attributes)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(v!)}"`)
    .join('')
  return text === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${xmlText(text)}</${name}>`
}

/** Lines indented by `depth` steps of two spaces. */
export function indent(lines: readonly string[], depth: number): string[] {
  const pad = '  '.repeat(depth)
  return lines.map((line) => pad + line)
}
