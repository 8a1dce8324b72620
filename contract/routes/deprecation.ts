/**
 * Deprecations, from their one declaration to the answer: a route or a
 * parameter is marked in the route table (`deprecated`), a field in its
 * schema (`deprecatedField`); the OpenAPI document marks them
 * (`deprecated: true`, `x-deprecation`, a sentence in the description), and
 * every answer that uses one carries `Deprecation` (RFC 9745), `Sunset`
 * (RFC 8594) and `Link: <notice>; rel="deprecation"`, from the gateway and
 * from the CDN alike.
 *
 * @example
 * summary: deprecatedField(text(400), { since: '2027-01-04', sunset: '2027-07-05', replacement: '`excerpt`' })
 */
import { DEPRECATIONS_NOTICE, MIN_DEPRECATION_DAYS } from '../lifecycle.ts'
import type { ContentModel } from '../model/model.ts'
import type { Deprecation, Parameter, Route } from './route.ts'
import type { SchemaObject } from './schema.ts'

export type { Deprecation }

/** The extension that carries a deprecation's dates in the document (beside OpenAPI's `deprecated: true`). */
export const DEPRECATION_EXTENSION = 'x-deprecation'

/** A deprecated thing and what names it in the document: `GET /api/search`, `parameter tag`, `BlogPost.summary`. */
export interface DeprecationNotice extends Deprecation {
  subject: string
}

const DAY_MS = 86_400_000

/** Checks a mark where the document is written: real dates, and a sunset no sooner than the policy allows. */
export function checkDeprecation(subject: string, deprecation: Deprecation): void {
  const since = Date.parse(deprecation.since)
  if (Number.isNaN(since)) throw new Error(`${subject}: deprecated.since is not a date: ${deprecation.since}`)
  if (deprecation.sunset === undefined) return
  const sunset = Date.parse(deprecation.sunset)
  if (Number.isNaN(sunset)) throw new Error(`${subject}: deprecated.sunset is not a date: ${deprecation.sunset}`)
  if (sunset - since < MIN_DEPRECATION_DAYS * DAY_MS)
    throw new Error(
      `${subject}: the sunset ${deprecation.sunset} is less than ${MIN_DEPRECATION_DAYS} days after the deprecation (${deprecation.since})`,
    )
}

/** The sentence the document adds to a deprecated thing's description. */
export function deprecationSentence(deprecation: Deprecation): string {
  const { since, sunset, replacement } = deprecation
  return `Deprecated since ${since}${replacement ? `; use ${replacement} instead` : ''}${sunset ? `; it may be removed after ${sunset}` : ''}.`
}

/**
 * A schema's field marked deprecated: `deprecated: true`, the dates under
 * `x-deprecation`, and the sentence appended to its description. Record
 * fields are marked in the collection schemas (contract/schemas/), the
 * others where the document declares them (build/openapi/).
 */
export function deprecatedField(schema: SchemaObject, deprecation: Deprecation): SchemaObject {
  const description = [schema.description, deprecationSentence(deprecation)].filter(Boolean).join(' ')
  return { ...schema, description, deprecated: true, [DEPRECATION_EXTENSION]: { ...deprecation } }
}

/** The field's deprecation, when its schema is marked. */
export function fieldDeprecation(schema: unknown): Deprecation | undefined {
  if (schema === null || typeof schema !== 'object') return undefined
  return (schema as Record<string, unknown>)[DEPRECATION_EXTENSION] as Deprecation | undefined
}

/**
 * The route's deprecated parameters in `model` (query and header ones: a
 * request may leave them out), for the path of `value` of its `each`
 * parameter where its parameters differ by it (without `value`, any path's;
 * for a value it does not know, none).
 */
export function deprecatedParameters(route: Route, model: ContentModel, value?: string): Parameter[] {
  const { parameters } = route
  let all: readonly Parameter[]
  if (typeof parameters !== 'function') all = parameters ?? []
  else if (!route.each) all = (parameters as (model: ContentModel) => readonly Parameter[])(model)
  else {
    const each = parameters as (value: string, model: ContentModel) => readonly Parameter[]
    const values = route.each.values(model)
    // A value the route does not know (an unknown collection) has no parameters: the route answers 404.
    all = value === undefined ? values.flatMap((v) => each(v, model)) : values.includes(value) ? each(value, model) : []
  }
  return all.filter((p) => p.deprecated && p.in !== 'path')
}

/**
 * What a request uses of the deprecated things of its route: the route
 * itself, and each deprecated parameter it gives (`value`: the request's
 * value of the route's `each` parameter).
 */
export function requestDeprecations(
  route: Route,
  model: ContentModel,
  query: URLSearchParams,
  headers: Headers,
  value?: string,
): Deprecation[] {
  const used: Deprecation[] = route.deprecated ? [route.deprecated] : []
  for (const p of deprecatedParameters(route, model, value))
    if (p.in === 'query' ? query.has(p.name) : headers.has(p.name)) used.push(p.deprecated!)
  return used
}

/**
 * The fields of an answer that uses deprecated things: `Deprecation` as an
 * RFC 9745 date (`@<epoch seconds>`, the earliest), `Sunset` as an HTTP-date
 * (the earliest, when any has one), and a `Link` to the notices.
 */
export function deprecationFields(used: readonly Deprecation[]): Record<string, string> {
  const since = Math.min(...used.map((d) => Date.parse(d.since)))
  const sunsets = used.flatMap((d) => (d.sunset ? [Date.parse(d.sunset)] : []))
  return {
    deprecation: `@${Math.floor(since / 1000)}`,
    ...(sunsets.length > 0 && { sunset: new Date(Math.min(...sunsets)).toUTCString() }),
    link: `<${DEPRECATIONS_NOTICE}>; rel="deprecation"; type="text/html"`,
  }
}
