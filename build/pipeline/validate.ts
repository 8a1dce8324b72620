/**
 * Stage 2, validate: frontmatter against the collection's JSON Schema, then the
 * rules a schema cannot express (date order, duplicate slugs). Every problem
 * becomes a ContentError pointing at the field's line and column.
 */
import type { ErrorObject } from 'ajv'
import type { SchemaObject } from 'ajv'
import { frontmatterSchema, type ContentModel } from '../../contract/model/model.ts'
import { ContentError } from '../core/errors.ts'
import { frontmatterValidators } from '../core/ajv.ts'
import { lazyPosition, type LoadedFile } from './load.ts'
import { locate, pathToField, pointerToPath } from '../core/locate.ts'
import { closest } from '../../contract/did-you-mean.ts'
import { slugify } from '../core/slug.ts'
import { dateProblem, schemaMessage } from '../core/schema-messages.ts'

export type Frontmatter = Record<string, unknown> & {
  title: string
  published_at: string
  slug?: string
  draft?: boolean
}

/** Validate one file against its collection of `model`; returns the frontmatter when it is valid. */
export function validateFile(file: LoadedFile, errors: ContentError[], model: ContentModel): Frontmatter | undefined {
  if (file.data === undefined) return undefined
  const validate = frontmatterValidators(model)[file.source.collection]!
  const before = errors.length
  if (!validate(file.data)) {
    const collection = model.collections[file.source.collection]!
    const schema = frontmatterSchema(collection, model)
    // An `if` failure only says "then did not match"; the `then` errors say what is wrong.
    for (const error of validate.errors ?? [])
      if (error.keyword !== 'if') errors.push(toContentError(file, error, schema, collection.label))
  }
  const data = file.data as Frontmatter
  if (errors.length === before) checkDateOrder(file, data, errors)
  return errors.length === before ? data : undefined
}

function toContentError(file: LoadedFile, error: ErrorObject, schema: SchemaObject, label: string): ContentError {
  // ajv-errors wraps the original errors; their params say which field was meant.
  const original =
    (error.keyword === 'errorMessage' ? (error.params as { errors: ErrorObject[] }).errors[0] : error) ?? error
  const path = pointerToPath(error.instancePath)
  let fieldPath = path
  let offset = locate(file.doc, path).offset
  let message = error.message ?? 'is invalid'
  const params = original.params as Record<string, unknown>
  if (original.keyword === 'required') {
    fieldPath = [...path, String(params.missingProperty)]
    if (error.keyword !== 'errorMessage') message = 'is required'
    // A conditional requirement points at the field the condition is about.
    const condition = conditionField(schema, original.schemaPath)
    if (condition) offset = locate(file.doc, [...path, condition], true).offset
  } else if (original.keyword === 'additionalProperties') {
    const name = String(params.additionalProperty)
    fieldPath = [...path, name]
    offset = locate(file.doc, fieldPath, true).offset
    message = `is not a field of a ${label}${suggest(schema, path, name)}`
  } else if (original.keyword === 'uniqueItems') {
    // At the second of the two equal items, the one to remove.
    offset = locate(file.doc, [...path, Math.max(Number(params.i), Number(params.j))]).offset
    message = authorMessage(error, original, valueAt(file.data, path)) ?? message
  } else if (original.keyword === 'enum') {
    message = `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
  } else {
    message = authorMessage(error, original, valueAt(file.data, path)) ?? message
  }
  const { line, column } = file.position(offset)
  return new ContentError('SCHEMA', file.source.path, line, column, pathToField(fieldPath) || 'frontmatter', message)
}

/** What is wrong with `value` in the author's terms, or undefined to keep the schema's message. */
function authorMessage(error: ErrorObject, original: ErrorObject, value: unknown): string | undefined {
  const wrapped = error.keyword === 'errorMessage' ? (error.params as { errors: ErrorObject[] }).errors : [error]
  const formats = wrapped.flatMap((e) => (e.keyword === 'format' ? [String(e.params.format)] : []))
  if (formats.includes('date') || formats.includes('date-time')) {
    const problem = dateProblem(value, !formats.includes('date'))
    if (problem) return problem
  }
  if (original.keyword === 'pattern' && error.keyword === 'errorMessage' && typeof value === 'string') {
    // Slugs and tags: show the value as it would be valid.
    const fixed = slugify(value)
    return fixed && fixed !== value && /lowercase/.test(error.message ?? '')
      ? `${error.message}: write ${fixed}`
      : undefined
  }
  return error.keyword === 'errorMessage' ? undefined : schemaMessage(original, value)
}

function valueAt(data: unknown, path: (string | number)[]): unknown {
  let value = data
  for (const segment of path) value = (value as Record<string | number, unknown> | undefined)?.[segment]
  return value
}

/** For `#/then/required` (or `#/allOf/1/then/required`), the single property its `if` tests, e.g. attendance_mode. */
function conditionField(schema: SchemaObject, schemaPath: string): string | undefined {
  const rule = /^#\/(?:allOf\/(\d+)\/)?then\//.exec(schemaPath)
  if (!rule) return undefined
  const owner = (rule[1] === undefined ? schema : (schema.allOf as SchemaObject[] | undefined)?.[Number(rule[1])]) as
    | { if?: { properties?: object } }
    | undefined
  const keys = owner?.if?.properties ? Object.keys(owner.if.properties) : []
  return keys.length === 1 ? keys[0] : undefined
}

function suggest(root: SchemaObject, path: (string | number)[], name: string): string {
  let schema = root as { properties?: Record<string, { properties?: object }> }
  for (const seg of path) {
    if (typeof seg === 'string') schema = (schema.properties?.[seg] ?? {}) as typeof schema
  }
  const known = Object.keys(schema.properties ?? {})
  const close = closest(name, known, 2)
  return close ? ` (did you mean ${close}?)` : known.length ? ` (known fields: ${known.join(', ')})` : ''
}

/** `strict`: the two may not be equal either (an item that expires as it is published is never public). */
const DATE_ORDER: [later: string, earlier: string, strict?: 'strict'][] = [
  ['ends_at', 'starts_at'],
  ['updated_at', 'published_at'],
  ['expires_at', 'published_at', 'strict'],
]

function checkDateOrder(file: LoadedFile, data: Frontmatter, errors: ContentError[]): void {
  for (const [later, earlier, strict] of DATE_ORDER) {
    const a = data[later]
    const b = data[earlier]
    if (typeof a !== 'string' || typeof b !== 'string') continue
    const [at, bt] = [Date.parse(a), Date.parse(b)]
    if (at < bt || (strict && at === bt)) {
      const { line, column } = file.position(locate(file.doc, [later]).offset)
      const message = strict ? `must be after ${earlier} (${b})` : `must not be before ${earlier} (${b})`
      errors.push(new ContentError('DATE_ORDER', file.source.path, line, column, later, message))
    }
  }
}

/** Where a file's slug is written: its `slug` field, or the file's start when the slug is the file name. */
export function slugPosition(file: LoadedFile): { line: number; column: number } {
  const hasSlugField = typeof (file.data as Frontmatter | undefined)?.slug === 'string'
  return hasSlugField ? lazyPosition(file, ['slug']) : { line: 1, column: 1 }
}

/** Two files of one collection must not publish under the same slug. */
export function checkDuplicateSlugs(
  files: { path: string; slug: string; slugAt: { line: number; column: number } }[],
  errors: ContentError[],
): void {
  const seen = new Map<string, string>()
  for (const { path, slug, slugAt } of files) {
    const first = seen.get(slug)
    if (!first) {
      seen.set(slug, path)
      continue
    }
    errors.push(
      new ContentError(
        'DUPLICATE_SLUG',
        path,
        slugAt.line,
        slugAt.column,
        'slug',
        `"${slug}" is already used by ${first}`,
      ),
    )
  }
}
