/**
 * How the editor at /admin/ reads and writes a content file: YAML frontmatter
 * between `---` lines, then the Markdown body, in the style a person writes
 * by hand and `npm run new` starts from. Fields in the order of the schema
 * (the editor's fields), dates as `2026-03-14` and date-times as
 * `2027-02-10T11:00:00-05:00`, plain scalars unless YAML would read them as
 * something else (then a JSON string, as `npm run new` quotes titles), short
 * lists of words inline (`tags: [a, b]`), empty optional fields left out, one
 * blank line before the body and a newline at the end.
 *
 * Plain browser ESM, copied into dist/admin/ as it is (no bundler); `yaml` is
 * the same package the build parses frontmatter with, mapped by the page's
 * import map. Node runs it as it is too, in the tests.
 */
import { parse } from 'yaml'

/** Widest line an inline list may make; longer lists are written one item a line. */
const FLOW_WIDTH = 80
/** A date or an RFC 3339 date-time: YAML 1.2 reads these as strings, so they stay unquoted. */
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))?$/
/** Text that reads like a number (`412`, `31,400`, `-63%`, `~1,900`) is quoted, so it stays text to every reader. */
const NUMERIC_LIKE = /^(?:[-+~]|[\d.,]+%?$)/
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)(?:\r?\n)?^---[ \t]*(?:\r?\n|$)/m

/**
 * A file's frontmatter fields and its body (`body`); nothing for no file (a
 * locale an item has no translation in reads as an empty file).
 * @param {string | null} text
 * @returns {Record<string, unknown>}
 */
export function fromFrontmatterFile(text) {
  if (!text) return {}
  const match = FRONTMATTER.exec(text)
  if (match?.index !== 0) return { body: text }
  const data = parse(match[1] ?? '') ?? {}
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error('the frontmatter must be a mapping of fields')
  const body = text.slice(match[0].length).replace(/^(?:[ \t]*\r?\n)+/, '')
  return body ? { ...data, body } : { ...data }
}

/**
 * The file for `data`, with fields in the order of `fields` (the editor's
 * fields of the collection; nested ones order nested objects). Fields the
 * editor does not know are kept, after the known ones.
 * @param {Record<string, unknown>} data
 * @param {readonly Field[]} fields
 * @returns {string}
 */
export function toFrontmatterFile(data, fields) {
  const { body, ...meta } = data
  const lines = mappingLines(meta, fields, '')
  const text = typeof body === 'string' ? body.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '') : ''
  return `---\n${lines.map((l) => `${l}\n`).join('')}---\n${text ? `\n${text}\n` : ''}`
}

/** @typedef {{ name: string, fields?: readonly Field[], field?: Field }} Field */

/**
 * @param {Record<string, unknown>} object
 * @param {readonly Field[]} fields
 * @param {string} indent
 * @returns {string[]}
 */
function mappingLines(object, fields, indent) {
  const known = fields.map((f) => f.name)
  const keys = [...known.filter((k) => k in object), ...Object.keys(object).filter((k) => !known.includes(k))]
  const lines = []
  for (const key of keys) {
    const value = prune(object[key])
    if (value === undefined) continue
    const field = fields.find((f) => f.name === key)
    lines.push(...entryLines(key, value, field?.fields ?? [], indent))
  }
  return lines
}

/**
 * @param {string} key
 * @param {unknown} value
 * @param {readonly Field[]} fields
 * @param {string} indent
 * @returns {string[]}
 */
function entryLines(key, value, fields, indent) {
  const head = `${indent}${plainKey(key)}:`
  if (Array.isArray(value)) {
    if (value.every(isScalar)) {
      const inline = `${head} [${value.map(flowScalar).join(', ')}]`
      if (inline.length <= FLOW_WIDTH) return [inline]
      return [head, ...value.map((v) => `${indent}  - ${scalar(v)}`)]
    }
    return [head, ...value.flatMap((item) => itemLines(item, fields, `${indent}  `))]
  }
  if (isScalar(value)) return [`${head} ${scalar(value)}`]
  return [head, ...mappingLines(/** @type {Record<string, unknown>} */ (value), fields, `${indent}  `)]
}

/** One item of a block list: `- ` before its first line. */
function itemLines(/** @type {unknown} */ item, /** @type {readonly Field[]} */ fields, /** @type {string} */ indent) {
  if (isScalar(item)) return [`${indent}- ${scalar(item)}`]
  const lines = mappingLines(/** @type {Record<string, unknown>} */ (item), fields, `${indent}  `)
  return lines.map((line, i) => (i === 0 ? `${indent}- ${line.slice(indent.length + 2)}` : line))
}

/**
 * The value without its empty parts (empty strings, lists and objects, null):
 * an optional field left empty in the form is left out of the file.
 * @param {unknown} value
 * @returns {unknown}
 */
function prune(value) {
  if (value === null || value === undefined || value === '') return undefined
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString()
  if (Array.isArray(value)) {
    const items = value.map(prune).filter((v) => v !== undefined)
    return items.length ? items : undefined
  }
  if (typeof value === 'object') {
    /** @type {Record<string, unknown>} */
    const out = {}
    for (const [k, v] of Object.entries(value)) {
      const kept = prune(v)
      if (kept !== undefined) out[k] = kept
    }
    return Object.keys(out).length ? out : undefined
  }
  return value
}

/** @returns {value is string | number | boolean} */
function isScalar(/** @type {unknown} */ value) {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

/** A scalar as YAML: plain when YAML reads it back as the same string, else a JSON string. */
function scalar(/** @type {string | number | boolean} */ value) {
  if (typeof value !== 'string') return String(value)
  return isPlain(value) ? value : JSON.stringify(value)
}

/** The same inside `[…]`, where commas and brackets end a plain scalar. */
function flowScalar(/** @type {string | number | boolean} */ value) {
  if (typeof value !== 'string') return String(value)
  return isPlain(value) && !/[,[\]{}]/.test(value) ? value : JSON.stringify(value)
}

/** @param {string} key */
function plainKey(key) {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key)
}

/** @param {string} text */
function isPlain(text) {
  if (DATE_LIKE.test(text)) return true
  if (NUMERIC_LIKE.test(text) || text !== text.trim() || /[\n\r\t]/.test(text)) return false
  try {
    const read = parse(`k: ${text}`)
    return read !== null && typeof read === 'object' && read.k === text
  } catch {
    return false
  }
}
