/**
 * toYaml (contract/yaml-text.ts) against the `yaml` library that reads it back
 * (Decap CMS reads the editor's configuration with a YAML parser): any JSON
 * value, and strings made of what YAML reads specially, come back equal.
 */
import { createRequire } from 'node:module'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { toYaml } from '../../contract/yaml-text.ts'

/** The YAML parser Decap CMS itself reads its configuration with (its core's own `yaml` 1.x). */
const fromDecap = createRequire(import.meta.resolve('decap-cms/package.json'))
const decapYaml = createRequire(fromDecap.resolve('decap-cms-core/package.json'))('yaml') as { parse: typeof parse }

const TRICKY = [
  'true',
  'False',
  'null',
  '~',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  '',
  ' ',
  'a ',
  ' a',
  '1',
  '1.5',
  '0x1f',
  '.inf',
  '-',
  '- a',
  'a: b',
  'a #b',
  '#c',
  '{a}',
  '[a]',
  '&a',
  '*a',
  '!a',
  '|',
  '>',
  '%',
  '@',
  '`',
  "'q'",
  '"q"',
  'a\nb',
  'tab\t',
  '\u007f',
  '\u0085',
  '\u2028',
  'é',
  '😀',
  '\ud800',
  '<<',
  '?',
  'a:b',
  '/path',
  '_x',
  "it's",
  '{{slug}}',
  'a/b (c)',
]

describe('toYaml', () => {
  it('reads back equal for strings YAML treats specially, as values and as keys', () => {
    for (const text of TRICKY) {
      const value = { [text]: text, list: [text, { [text]: [text] }] }
      expect(parse(toYaml(value)), JSON.stringify(text)).toEqual(value)
      expect(decapYaml.parse(toYaml(value)), JSON.stringify(text)).toEqual(value)
    }
  })

  it('reads back equal for any JSON value', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const text = toYaml(value)
        const expected = JSON.parse(JSON.stringify(value))
        expect(parse(text)).toEqual(expected)
        expect(decapYaml.parse(text)).toEqual(expected)
      }),
      { numRuns: 500, seed: 26 },
    )
  })

  it('writes block YAML a person can read', () => {
    expect(toYaml({ backend: { name: 'github' }, list: [{ name: 'title', required: true }, 'x'], empty: [] })).toBe(
      'backend:\n  name: github\nlist:\n  - name: title\n    required: true\n  - x\nempty: []\n',
    )
  })
})
