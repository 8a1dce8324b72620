/**
 * What the API's lifecycle adds to the document once its paths are written:
 * the `API-Version` header on every response, and for every operation that
 * uses something deprecated — the route itself, a parameter, or a field its
 * answers carry (marked with `deprecatedField` in its schema) — the
 * Deprecation, Sunset and Link headers and a sentence naming the fields.
 * The fields each path's answers carry are also what the manifest tells the
 * gateway (deprecatedFieldsOf), so its headers follow the same marks.
 */
import { API_VERSION_HEADER, DEPRECATIONS_NOTICE, MIN_DEPRECATION_DAYS } from '../../contract/lifecycle.ts'
import { MAX_URL_LENGTH } from '../../contract/patterns.ts'
import {
  checkDeprecation,
  DEPRECATION_EXTENSION,
  type DeprecationNotice,
  fieldDeprecation,
  type Deprecation,
} from '../../contract/routes/deprecation.ts'
import { headerRef, text, type Json } from '../../contract/routes/schema.ts'

interface Document {
  paths: Record<string, Record<string, unknown>>
  components: Record<string, Record<string, unknown>>
}

const METHODS = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options'])

const LIFECYCLE_HEADERS: Record<string, Json> = {
  [API_VERSION_HEADER]: {
    description: 'The API version (semver) that answered; the same as `info.version` of this document.',
    required: true,
    schema: text(64, { pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$' }),
  },
  Deprecation: {
    description: `RFC 9745: the request used something deprecated since this date (\`@<epoch seconds>\`). See ${DEPRECATIONS_NOTICE}.`,
    required: false,
    schema: text(24, { pattern: '^@-?[0-9]+$' }),
  },
  Sunset: {
    description: `RFC 8594: after this HTTP-date what the request used may be gone (at least ${MIN_DEPRECATION_DAYS} days after its deprecation).`,
    required: false,
    schema: text(40),
  },
  DeprecationLink: {
    description: `RFC 8288 link to the deprecation notices: \`<${DEPRECATIONS_NOTICE}>; rel="deprecation"\`.`,
    required: false,
    schema: text(MAX_URL_LENGTH),
  },
}

/** Adds the lifecycle headers and notes to `document`, in place. */
export function addLifecycle(document: Document): void {
  const headers = (document.components.headers ??= {}) as Record<string, Json>
  headers[API_VERSION_HEADER] = LIFECYCLE_HEADERS[API_VERSION_HEADER]!
  for (const response of Object.values(document.components.responses ?? {})) withVersion(response as Json)
  for (const item of Object.values(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method)) continue
      const op = value as Json
      const responses = Object.values((op.responses ?? {}) as Record<string, Json>)
      for (const response of responses) withVersion(response)
      const fields = answerFields(document, responses)
      if (fields.length > 0) {
        op.description = `${String(op.description ?? '')} Its answers carry deprecated fields: ${fields.map((f) => `\`${f.subject}\` (since ${f.since}${f.replacement ? `; use ${f.replacement}` : ''})`).join(', ')}.`
      }
      const parameters = ((op.parameters ?? []) as Json[]).map((p) => resolve(document, p) as Json)
      const marked = parameters.some((p) => p.deprecated)
      if (!op.deprecated && !marked && fields.length === 0) continue
      for (const response of responses) withDeprecation(response, op.deprecated === true)
      // Only the headers some answer refers to: the linters flag unused components.
      for (const name of ['Deprecation', 'Sunset', 'DeprecationLink']) headers[name] = LIFECYCLE_HEADERS[name]!
    }
  }
}

/** The deprecated fields each path's answers carry, by the path as the document writes it. */
export function deprecatedFieldsByPath(document: Document): Record<string, DeprecationNotice[]> {
  const out: Record<string, DeprecationNotice[]> = {}
  for (const [path, item] of Object.entries(document.paths)) {
    const responses = Object.entries(item).flatMap(([method, op]) =>
      METHODS.has(method) ? Object.values(((op as Json).responses ?? {}) as Record<string, Json>) : [],
    )
    const fields = answerFields(document, responses)
    if (fields.length > 0) out[path] = fields
  }
  return out
}

function withVersion(response: Json): void {
  if ('$ref' in response) return
  response.headers = { ...(response.headers as Json | undefined), [API_VERSION_HEADER]: headerRef(API_VERSION_HEADER) }
}

/** Always on the answers of a deprecated operation; on those that use a deprecated parameter or field otherwise. */
function withDeprecation(response: Json, always: boolean): void {
  if ('$ref' in response) return
  const own = (response.headers ?? {}) as Json
  const field = (name: string) => (always ? headerRef(name) : { ...LIFECYCLE_HEADERS[name], required: false })
  response.headers = {
    ...own,
    Deprecation: field('Deprecation'),
    Sunset: headerRef('Sunset'),
    // A page's Link (next, prev) carries the deprecation link too.
    ...(!('Link' in own) && { Link: headerRef('DeprecationLink') }),
  }
}

/** The deprecated fields the answers' schemas reach, named by their place in the answer (`data[].summary`). */
function answerFields(document: Document, responses: Json[]): DeprecationNotice[] {
  const found: DeprecationNotice[] = []
  for (const response of responses) {
    const content = (resolve(document, response) as Json).content as Record<string, Json> | undefined
    for (const media of Object.values(content ?? {}))
      if (media.schema) found.push(...schemaFields(document, media.schema as Json))
  }
  return unique(found)
}

/** Walks of a schema reached by `$ref`, by document: most answers of the document share a few schemas. */
const walked = new WeakMap<Document, Map<string, DeprecationNotice[]>>()

/** The deprecated fields `schema` reaches, walked once per document when it is a `$ref`. */
function schemaFields(document: Document, schema: Json): DeprecationNotice[] {
  const ref = typeof schema.$ref === 'string' && Object.keys(schema).length === 1 ? schema.$ref : undefined
  let byRef = walked.get(document)
  const cached = ref === undefined ? undefined : byRef?.get(ref)
  if (cached) return cached
  const found: DeprecationNotice[] = []
  walk(document, schema, '', new Set(), found)
  if (ref !== undefined) {
    if (!byRef) walked.set(document, (byRef = new Map()))
    byRef.set(ref, found)
  }
  return found
}

function walk(document: Document, node: unknown, at: string, seen: Set<string>, found: DeprecationNotice[]): void {
  if (node === null || typeof node !== 'object') return
  const schema = node as Json
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return
    walk(document, resolve(document, schema), at, new Set([...seen, schema.$ref]), found)
    return
  }
  const deprecation = fieldDeprecation(schema)
  if (deprecation && at) {
    checkDeprecation(`field ${at}`, deprecation)
    found.push({ subject: at, ...deprecation })
  }
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Json))
    walk(document, property, at ? `${at}.${name}` : name, seen, found)
  if (schema.items) walk(document, schema.items, `${at}[]`, seen, found)
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    for (const part of (schema[key] ?? []) as unknown[]) walk(document, part, at, seen, found)
  if (typeof schema.additionalProperties === 'object')
    walk(document, schema.additionalProperties, `${at}.*`, seen, found)
}

/** A `$ref` to the document's components, followed (one level). */
function resolve(document: Document, value: Json): unknown {
  const ref = value.$ref
  if (typeof ref !== 'string' || !ref.startsWith('#/components/')) return value
  const [kind, name] = ref.slice('#/components/'.length).split('/') as [string, string]
  return document.components[kind]?.[name] ?? value
}

function unique(notices: DeprecationNotice[]): DeprecationNotice[] {
  const bySubject = new Map(notices.map((n) => [n.subject, n]))
  return [...bySubject.values()]
}

/** Everything the document marks deprecated: operations, parameters and answer fields, for the changelog page. */
export function documentDeprecations(document: Document): DeprecationNotice[] {
  const out: DeprecationNotice[] = []
  const add = (subject: string, value: Json) => {
    const mark = value[DEPRECATION_EXTENSION] as Deprecation | undefined
    if (value.deprecated && mark) out.push({ subject, ...mark })
  }
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method)) continue
      const op = value as Json
      add(`${method.toUpperCase()} ${path}`, op)
      for (const p of (op.parameters ?? []) as Json[]) {
        const parameter = resolve(document, p) as Json
        add(`${method.toUpperCase()} ${path} parameter \`${String(parameter.name)}\``, parameter)
      }
      for (const field of answerFields(document, Object.values((op.responses ?? {}) as Record<string, Json>)))
        out.push({ ...field, subject: `${method.toUpperCase()} ${path} field \`${field.subject}\`` })
    }
  return out
}
