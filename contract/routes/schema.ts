/**
 * The vocabulary the route table (and the OpenAPI document made from it) is
 * written in: schema builders that always carry bounds — every string a
 * length (or a fixed set of values), every integer a format and a range,
 * every array a largest size — and references to the document's shared
 * parts. The bounds are the product's own (content schemas, query rules,
 * header and body caps), so the document states what is enforced.
 */
import type { SchemaObject } from 'ajv'
import { MAX_HEADER_BYTES } from '../headers.ts'
import { MAX_DATE_TIME_LENGTH, MAX_URL_LENGTH } from '../patterns.ts'

export type { SchemaObject }
export type Json = Record<string, unknown>

/** The largest integer a JSON number carries exactly: counts and epoch seconds are below it. */
export const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER
/** Request headers and the request line together (MAX_HEADER_BYTES): no header value is longer. */
export const MAX_HEADER_LENGTH = MAX_HEADER_BYTES

export const text = (maxLength: number, extra: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  maxLength,
  ...extra,
})

export const int32 = (minimum: number, maximum: number, extra: SchemaObject = {}): SchemaObject => ({
  type: 'integer',
  format: 'int32',
  minimum,
  maximum,
  ...extra,
})

/** A count or an epoch time: non-negative, up to the largest exact JSON integer. */
export const count = (extra: SchemaObject = {}): SchemaObject => ({
  type: 'integer',
  format: 'int64',
  minimum: 0,
  maximum: MAX_SAFE_INTEGER,
  ...extra,
})

export const arrayOf = (items: SchemaObject, maxItems: number, extra: SchemaObject = {}): SchemaObject => ({
  type: 'array',
  maxItems,
  items,
  ...extra,
})

export const uri = (extra: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  format: 'uri',
  maxLength: MAX_URL_LENGTH,
  ...extra,
})

export const uriReference = (extra: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  format: 'uri-reference',
  maxLength: MAX_URL_LENGTH,
  ...extra,
})

/** An RFC 3339 date-time, as every instant of the API is written. */
export const instant = (extra: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  format: 'date-time',
  maxLength: MAX_DATE_TIME_LENGTH,
  ...extra,
})

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })
/** A header of the document's shared ones (build/openapi/components.ts), by its real name. */
export const headerRef = (name: string) => ref('headers', name)
/** A shared response: `NotModified`, or the problem answers `Problem<status>`. */
export const responseRef = (name: string) => ref('responses', name)
/** A schema of the document's components (records, envelopes, Problem). */
export const schemaRef = (name: string) => ref('schemas', name)
