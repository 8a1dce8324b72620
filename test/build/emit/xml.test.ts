/**
 * xmlText: what XML 1.0 forbids is dropped (control characters, lone
 * surrogates, U+FFFE/U+FFFF), the five special characters are escaped, and
 * the fast scan that spares most text the full pattern gives the same text
 * as the full pattern for any string.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { xmlText } from '../../../build/emit/xml.ts'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }
/** The reference: the full pattern on every string. */
function reference(value: string): string {
  return value
    .replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 forbids.
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '',
    )
    .replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

describe('xmlText', () => {
  it('escapes the special characters and drops what XML forbids, keeping surrogate pairs', () => {
    expect(xmlText('<p class="a">Tom & Jerry\'s</p>')).toBe(
      '&lt;p class=&quot;a&quot;&gt;Tom &amp; Jerry&apos;s&lt;/p&gt;',
    )
    expect(xmlText('bell\u0007 tab\t newline\n cr\r')).toBe('bell tab\t newline\n cr\r')
    expect(xmlText('lone \uD800 and \uDC00, pair 😀, \uFFFE\uFFFF')).toBe('lone  and , pair 😀, ')
    expect(xmlText('plain text')).toBe('plain text')
  })

  it('gives the full pattern’s text for any string', () => {
    const unit = fc.oneof(
      fc.constantFrom('&', '<', '>', '"', "'", '\u0000', '\u000B', '\t', '\uD83D', '\uDE00', '\uFFFE', '\uFFFF', 'é'),
      fc.string({ maxLength: 3 }),
    )
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), (parts) => {
        const value = parts.join('')
        expect(xmlText(value)).toBe(reference(value))
      }),
      { numRuns: 2000 },
    )
  })
})
