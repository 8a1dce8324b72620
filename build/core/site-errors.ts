/**
 * content/site.yaml's schema errors in the author's terms, each at the line
 * and column of the setting it is about, as frontmatter errors are
 * (build/pipeline/validate.ts): an unknown setting names the settings there
 * are (and the closest one), an unknown field type the closest type.
 */
import type { ErrorObject } from 'ajv'
import { isMap, isScalar, type Document, type LineCounter } from 'yaml'
import { FIELD_TYPES } from '../../contract/model/fields.ts'
import { schemaMessage } from './schema-messages.ts'
import { closest } from '../../contract/did-you-mean.ts'
import { ContentError } from './errors.ts'
import { locate, pathToField, pointerToPath } from './locate.ts'
import { SITE_PATH } from './sources.ts'
import { COLLECTION_SETTINGS, FIELD_SETTINGS, SITE_SETTINGS, TAG_SETTINGS, THEME_COLOURS } from './site-schema.ts'

/** Where in site.yaml, by path (`['collections', 'blog-posts', 'fields']`), and a ContentError there. */
export interface SiteFile {
  doc: Document
  lineCounter: LineCounter
}

export function siteError(
  file: SiteFile,
  path: readonly (string | number)[],
  message: string,
  options: { key?: boolean; field?: string } = {},
): ContentError {
  const { line, col } = file.lineCounter.linePos(locate(file.doc, [...path], options.key).offset)
  return new ContentError('SCHEMA', SITE_PATH, line, col, options.field ?? (pathToField([...path]) || 'site'), message)
}

/** What a map at `path` may hold, for an unknown key's message: its kind and its keys. */
function settingsAt(path: readonly (string | number)[]): { kind: string; names: readonly string[] } {
  if (path.length === 0) return { kind: 'a site setting', names: SITE_SETTINGS }
  if (path.length === 1 && path[0] === 'theme') return { kind: 'a theme colour', names: THEME_COLOURS }
  if (path.length === 2 && path[0] === 'tags') return { kind: 'a tag setting', names: TAG_SETTINGS }
  if (path.length === 2 && path[0] === 'collections')
    return { kind: 'a collection setting', names: COLLECTION_SETTINGS }
  return { kind: 'a field setting', names: FIELD_SETTINGS }
}

/** One ajv error of site.yaml as a ContentError; undefined for the ones another error says better. */
export function schemaError(file: SiteFile, data: unknown, error: ErrorObject): ContentError | undefined {
  // An `if` failure only says "then did not match"; the `then` errors say what is wrong.
  if (error.keyword === 'if') return undefined
  // A key that is not a tag (`tags: { Data Lineage: … }`): said once, at the key, by its errorMessage.
  if ((error as { propertyName?: string }).propertyName !== undefined) return undefined
  const original =
    (error.keyword === 'errorMessage' ? (error.params as { errors: ErrorObject[] }).errors[0] : error) ?? error
  const params = original.params as Record<string, unknown>
  const path = pointerToPath(error.instancePath)
  const value = valueAt(data, path)
  if (original.keyword === 'additionalProperties') {
    const name = String(params.additionalProperty)
    const { kind, names } = settingsAt(path)
    const close = closest(name, names, 2)
    const hint = close ? `did you mean ${close}? ` : ''
    const label = kind === 'a theme colour' ? 'colours' : 'settings'
    return siteError(
      file,
      [...path, name],
      `is not ${kind} (${hint}${label}: ${names.join(', ')})${splitByComma(file, path, name) ? COMMA_HINT : ''}`,
      { key: true },
    )
  }
  if (original.keyword === 'propertyNames') {
    const name = String(params.propertyName)
    return siteError(file, [...path, name], error.message ?? 'is not a valid name', { key: true })
  }
  if (original.keyword === 'required') {
    const missing = String(params.missingProperty)
    const message = error.keyword === 'errorMessage' ? (error.message ?? 'is required') : 'is required'
    return siteError(file, path, message, { field: pathToField([...path, missing]) })
  }
  // A field's type: the shorthand (`name: strin`) or the setting (`type: strin`).
  if (original.keyword === 'enum' && isFieldPath(path)) {
    const close = typeof value === 'string' ? closest(value, FIELD_TYPES, 3) : undefined
    return siteError(
      file,
      path,
      `${JSON.stringify(value)} is not a field type (${close ? `did you mean ${close}? ` : ''}types: ${FIELD_TYPES.join(', ')})`,
    )
  }
  if (error.keyword === 'errorMessage') return siteError(file, path, error.message ?? 'is invalid')
  return siteError(file, path, schemaMessage(original, value) ?? error.message ?? 'is invalid')
}

const COMMA_HINT =
  "; a comma inside { … } ends a value there: quote text that has one, like description: 'Hello, world'"

/** Whether `name` is a key without a value in a flow map (`{ description: Hello, world }` makes `world` one). */
function splitByComma(file: SiteFile, path: readonly (string | number)[], name: string): boolean {
  const map = file.doc.getIn(path, true)
  if (!isMap(map) || !map.flow) return false
  const pair = map.items.find((item) => isScalar(item.key) && item.key.value === name)
  return pair !== undefined && (pair.value === null || (isScalar(pair.value) && pair.value.value === null))
}

/** Whether `path` is a field's declaration or its `type` (`collections.x.fields.y`, `….of`, `….type`). */
function isFieldPath(path: readonly (string | number)[]): boolean {
  const last = path.at(-1)
  const parent = path.at(-2)
  return path[0] === 'collections' && (last === 'type' || last === 'of' || parent === 'fields')
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let value = data
  for (const segment of path) value = (value as Record<string | number, unknown> | undefined)?.[segment]
  return value
}
