/**
 * A few fields of a JSON object read from its text without parsing the
 * rest: a search hit needs an item's text, headings and url, a few KB of a
 * file whose HTML, Markdown and tree are most of it, and parsing all of it
 * per hit made objects of all of it. The text is walked as JSON (strings
 * skipped whole, nesting counted), so a field is found by its place in the
 * object, never by text that looks like it; only the values asked for are
 * parsed. A path is a key of the top-level object, or `key.key` of an
 * object in it. The walk reads the bytes, not a decoded copy of the file:
 * JSON's structure is ASCII, and no byte of a multi-byte UTF-8 character is,
 * so only the keys and the values asked for are decoded.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COLON = 0x3a
const COMMA = 0x2c

/** Which fields to read: the paths, and the objects they are in. */
export interface FieldPaths {
  wanted: ReadonlySet<string>
  parents: ReadonlySet<string>
}

export function fieldPaths(paths: readonly string[]): FieldPaths {
  const parents = paths.filter((p) => p.includes('.')).map((p) => p.slice(0, p.lastIndexOf('.')))
  return { wanted: new Set(paths), parents: new Set(parents) }
}

/** The values of `paths` in the JSON object of `json`, a file's bytes (those it has); throws a SyntaxError, as JSON.parse, on what is not one. */
export function jsonFields(json: Buffer, paths: FieldPaths): Map<string, unknown> {
  const found = new Map<string, unknown>()
  const end = walkObject(json, skipSpace(json, 0), '', paths, found)
  if (skipSpace(json, end) !== json.length) throw new SyntaxError('more after the object')
  return found
}

/** Walks the object at `at` (its `{`), keeping the values of the paths under `prefix`; returns where it ends. */
function walkObject(json: Buffer, at: number, prefix: string, paths: FieldPaths, found: Map<string, unknown>) {
  if (json[at] !== 0x7b) throw new SyntaxError('not an object')
  let i = skipSpace(json, at + 1)
  if (json[i] === 0x7d) return i + 1
  for (;;) {
    const keyEnd = stringEnd(json, i)
    const path = prefix + (JSON.parse(json.toString('utf8', i, keyEnd)) as string)
    i = skipSpace(json, keyEnd)
    if (json[i] !== COLON) throw new SyntaxError('no colon')
    const start = skipSpace(json, i + 1)
    const nested = json[start] === 0x7b && paths.parents.has(path)
    const end = nested ? walkObject(json, start, `${path}.`, paths, found) : valueEnd(json, start)
    if (paths.wanted.has(path)) found.set(path, JSON.parse(json.toString('utf8', start, end)))
    i = skipSpace(json, end)
    if (json[i] === 0x7d) return i + 1
    if (json[i] !== COMMA) throw new SyntaxError('no comma')
    i = skipSpace(json, i + 1)
  }
}

/** Where the value at `at` ends: a string, an object or array (nesting counted, strings skipped), or a literal. */
function valueEnd(json: Buffer, at: number): number {
  const first = json[at]
  if (first === QUOTE) return stringEnd(json, at)
  if (first !== 0x7b && first !== 0x5b) {
    let i = at
    while (i < json.length && !isDelimiter(json[i]!)) i++
    if (i === at) throw new SyntaxError('no value')
    return i
  }
  let depth = 0
  for (let i = at; i < json.length; i++) {
    const c = json[i]
    if (c === QUOTE) i = stringEnd(json, i) - 1
    else if (c === 0x7b || c === 0x5b) depth++
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1
  }
  throw new SyntaxError('unterminated')
}

/** Where the string starting at `at` (its opening quote) ends: past its closing quote, one no backslash escapes. */
function stringEnd(json: Buffer, at: number): number {
  if (json[at] !== QUOTE) throw new SyntaxError('not a string')
  let close = json.indexOf(QUOTE, at + 1)
  while (close !== -1) {
    let slashes = 0
    while (json[close - 1 - slashes] === BACKSLASH) slashes++
    if (slashes % 2 === 0) return close + 1
    close = json.indexOf(QUOTE, close + 1)
  }
  throw new SyntaxError('unterminated string')
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
}

function skipSpace(json: Buffer, at: number): number {
  let i = at
  while (i < json.length && (json[i] === 0x20 || json[i] === 0x0a || json[i] === 0x0d || json[i] === 0x09)) i++
  return i
}
