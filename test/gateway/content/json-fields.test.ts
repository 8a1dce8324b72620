/**
 * Fields read from an item file's text without parsing the rest
 * (gateway/content/json-fields.ts): each value is what JSON.parse gives for
 * it, found by its place in the object, whatever the strings around it hold.
 */
import { describe, expect, it } from 'vitest'
import { fieldPaths, jsonFields } from '../../../gateway/content/json-fields.ts'

const PATHS = fieldPaths(['url', 'body.text', 'toc'])

const read = (value: unknown, spaced = false) =>
  jsonFields(Buffer.from(spaced ? JSON.stringify(value, null, 2) : JSON.stringify(value)), PATHS)

describe('jsonFields', () => {
  it('gives the values JSON.parse does, decoded, escapes and all', () => {
    const record = {
      id: 'a',
      url: 'https://example.test/blog/caf\u00e9-\u2603',
      custom: { text: 'not the body', nested: [{ url: 'not the url' }] },
      body: {
        html: '<p class="x">a \\" quote</p>',
        markdown: 'a "quoted" line\\\nand a backslash at the end\\',
        text: 'Line one\n"text": "a look-alike"\tand \u00fcml\u00e4uts \ud83d\ude00 \\',
        tree: { type: 'root', children: [{ type: 'text', value: '"toc": []' }], text: 'tree text' },
      },
      toc: [{ depth: 2, text: 'A "heading"', id: 'a-heading' }],
      empty: {},
      flags: [true, false, null, -1.5e3],
    }
    for (const spaced of [false, true]) {
      const found = read(record, spaced)
      expect(found.get('url')).toBe(record.url)
      expect(found.get('body.text')).toBe(record.body.text)
      expect(found.get('toc')).toEqual(record.toc)
      expect([...found.keys()].sort()).toEqual(['body.text', 'toc', 'url'])
    }
  })

  it('leaves out the fields an object has not, and looks only where a path says', () => {
    const found = read({ text: 'top level', body: { html: '' }, toc: null, more: { body: { text: 'deeper' } } })
    expect(found.has('body.text')).toBe(false)
    expect(found.get('toc')).toBeNull()
    expect(found.has('url')).toBe(false)
  })

  it('throws as JSON.parse does on what is not a whole JSON object', () => {
    for (const text of [
      '',
      '[1]',
      '{"url": "a"',
      '{"url": "a"} x',
      '{"url" "a"}',
      '{"url": "a" "toc": 1}',
      '{"a": "\\"}',
    ])
      expect(() => jsonFields(Buffer.from(text), PATHS), text).toThrow(SyntaxError)
  })
})
