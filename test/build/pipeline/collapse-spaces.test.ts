/**
 * build/pipeline/collapse-spaces.ts stands in for hast-util-to-text's own
 * `trimAndCollapseSpacesAndTabs` in the bundle (build/bundle/prebuilt.ts): the two
 * give the same string for every input and both segment-break flags. The
 * library's function is read from its installed source, so an update of it
 * that changes the behaviour fails here.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { trimAndCollapseSpacesAndTabs } from '../../../build/pipeline/collapse-spaces.ts'

type Collapse = (value: string, breakBefore: unknown, breakAfter: unknown) => string

/** The library's function, compiled from its source with the regular expression it uses. */
function libraryFunction(): Collapse {
  const entry = fileURLToPath(import.meta.resolve('hast-util-to-text'))
  const source = readFileSync(join(dirname(entry), 'lib', 'index.js'), 'utf8')
  const start = source.indexOf('function trimAndCollapseSpacesAndTabs(')
  const end = source.indexOf('\n}\n', start) + 2
  const regex = /^const searchTabOrSpaces = .*$/m.exec(source)![0]
  expect(start).toBeGreaterThan(-1)
  return new Function(`${regex}\n${source.slice(start, end)}\nreturn trimAndCollapseSpacesAndTabs`)() as Collapse
}

/** A seeded generator of strings of spaces, tabs, letters and the other whitespace the function leaves alone. */
function* inputs(count: number): Generator<string> {
  let seed = 42
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed
  }
  const alphabet = [' ', ' ', '\t', 'a', 'b', '’', '\r', '\f', '\u00a0', '\u200e', 'é']
  yield* ['', ' ', '\t', '  ', 'a', ' a', 'a ', ' a ', '\t a \t', 'a  b', 'a\t\tb c']
  for (let i = 0; i < count; i++) {
    const length = next() % 12
    let text = ''
    for (let k = 0; k < length; k++) text += alphabet[next() % alphabet.length]
    yield text
  }
}

describe('trimAndCollapseSpacesAndTabs', () => {
  it("gives hast-util-to-text's result for every input and segment breaks", () => {
    const library = libraryFunction()
    let compared = 0
    for (const value of inputs(20_000))
      for (const breakBefore of [false, true, 1, 2, undefined])
        for (const breakAfter of [false, true, 1, 2, undefined]) {
          expect(trimAndCollapseSpacesAndTabs(value, breakBefore, breakAfter), JSON.stringify(value)).toBe(
            library(value, breakBefore, breakAfter),
          )
          compared++
        }
    expect(compared).toBeGreaterThan(500_000)
  })
})
