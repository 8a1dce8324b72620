/**
 * The quick frontmatter reader (build/pipeline/yaml-fast.ts) against `yaml`,
 * which the build used alone before and still uses for positions and errors:
 * for every input the quick reader takes, both give the same data; every
 * input `yaml` refuses, the quick reader declines, so its message is
 * `yaml`'s. On the content, on the content and any JSON data written in
 * every YAML style, and on lines of YAML's special characters.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDocument, stringify, type ToStringOptions, visit } from 'yaml'
import { loadFrontmatter } from '../../../build/pipeline/yaml-fast.ts'
import { FIXTURE_CONTENT } from '../../helpers/project.ts'

/** What the build read before: `yaml`'s core schema, its errors, and aliases and tags, which load.ts refuses. */
function slow(text: string): { data: unknown } | { error: true } {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, schema: 'core' })
  if (doc.errors.length) return { error: true }
  let literal = false
  visit(doc, {
    Alias: () => void (literal = true),
    Scalar: (_, node) => void (literal ||= node.tag !== undefined),
  })
  return literal ? { error: true } : { data: doc.toJS({ maxAliasCount: 50 }) }
}

/** The quick reader agrees with `yaml`, or declines. */
function agrees(text: string): boolean {
  const quick = loadFrontmatter(text)
  if (!quick) return false
  expect(slow(text), JSON.stringify(text)).toEqual({ data: quick.data })
  return true
}

async function frontmatterUnder(content: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(content, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8')
    const end = text.indexOf('\n---', 3)
    if (text.startsWith('---\n') && end > 0) out.push(text.slice(4, end + 1))
  }
  return out
}

describe('the quick frontmatter reader', () => {
  it('reads every file of the fixture content as yaml does', async () => {
    const all = await frontmatterUnder(FIXTURE_CONTENT)
    expect(all.length).toBeGreaterThan(20)
    const taken = all.filter(agrees)
    expect(taken.length).toBe(all.length)
  })

  it('reads the content and any JSON data, written in every YAML style, as yaml does', async () => {
    const styles: fc.Arbitrary<ToStringOptions> = fc.record({
      defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
      defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE'),
      collectionStyle: fc.constantFrom('any', 'block', 'flow'),
      lineWidth: fc.constantFrom(0, 20, 80),
      indent: fc.constantFrom(2, 4),
    })
    const content = (await frontmatterUnder(FIXTURE_CONTENT)).map((text) => parseDocument(text).toJS() as unknown)
    const data = fc.oneof(fc.constantFrom(...content), fc.dictionary(fc.string(), fc.jsonValue()))
    let taken = 0
    fc.assert(
      fc.property(data, styles, (value, options) => {
        if (agrees(stringify(value, options))) taken++
      }),
      { numRuns: 1000, seed: 26 },
    )
    expect(taken).toBeGreaterThan(250)
  })

  it('declines whatever yaml refuses, and reads the rest alike, on lines of special characters', () => {
    const pieces = [
      'a',
      'b',
      'x y',
      ' ',
      '  ',
      '\t',
      ':',
      ': ',
      '-',
      '- ',
      '#',
      ' #',
      '"',
      "'",
      '[',
      ']',
      '{',
      '}',
      ',',
      '?',
      '|',
      '>',
      '&',
      '*',
      '!',
      '%',
      '@',
      '`',
      '\\',
      '~',
      'null',
      'true',
      'No',
      '0o7',
      '0x1F',
      '1e3',
      '.5',
      '-.inf',
      '.NaN',
      '2026-11-31',
      '12:30',
      '\n',
      '\n  ',
      '\n- ',
      '<<',
      'é',
      '😀',
      '\u2028',
    ]
    const line = fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((parts) => parts.join(''))
    const text = fc
      .array(fc.tuple(fc.constantFrom('title', 'tags', 'a', 'b'), line), { minLength: 1, maxLength: 4 })
      .map((pairs) => `${pairs.map(([key, value]) => `${key}: ${value}`).join('\n')}\n`)
    let refused = 0
    fc.assert(
      fc.property(text, (frontmatter) => {
        const quick = loadFrontmatter(frontmatter)
        const before = slow(frontmatter)
        if ('error' in before) {
          refused++
          expect(quick, `quick read what yaml refuses: ${JSON.stringify(frontmatter)}`).toBeUndefined()
        } else if (quick) expect(before, JSON.stringify(frontmatter)).toEqual({ data: quick.data })
      }),
      { numRuns: 3000, seed: 26 },
    )
    expect(refused).toBeGreaterThan(100)
  })
})
