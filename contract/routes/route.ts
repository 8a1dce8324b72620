/**
 * What one public route declares, once: its path and methods, its
 * parameters and their schemas, its body and body limit, the budgets it
 * draws from, which requests a pre-rendered file answers, and its operations
 * as the OpenAPI document describes them. Everything else follows from it:
 * the gateway mounts it (gateway/routes/mount.ts, a handler per route id), the
 * build writes the OpenAPI paths (build/openapi/paths.ts) and the Netlify rules
 * (build/emit/netlify.ts) from it. In the spirit of `createRoute` of
 * @hono/zod-openapi: the document is a by-product of the route.
 *
 * The operations are written in OpenAPI's own vocabulary (an Operation
 * Object, less what the route already says), so the table reads like the
 * document it makes.
 */
import type { BudgetName } from '../budgets.ts'
import type { CACHE } from '../headers.ts'
import type { ContentModel } from '../model/model.ts'
import type { SettingName } from '../settings.ts'
import type { Json, SchemaObject } from './schema.ts'

export type Method = 'GET' | 'HEAD' | 'POST'

/** The read methods: GET, and HEAD answering the same without a body. */
export const READ: readonly Method[] = ['GET', 'HEAD']

/**
 * A route, parameter or field on its way out: when it was deprecated, when it
 * goes, what to use. The document marks it `deprecated` and says so in its
 * description; every answer that uses it carries the Deprecation, Sunset and
 * Link headers made from the same fields (deprecation.ts).
 */
export interface Deprecation {
  /** An RFC 3339 date. */
  since: string
  /** An RFC 3339 date, at least MIN_DEPRECATION_DAYS (contract/lifecycle.ts) after `since`. */
  sunset?: string
  /** What to use instead, as the document names it. */
  replacement?: string
}

export interface Parameter {
  name: string
  in: 'query' | 'path' | 'header'
  required: boolean
  description?: string
  schema: SchemaObject
  /** The document writes it once, under components/parameters with this name, and refers to it. */
  component?: string
  deprecated?: Deprecation
  /** An array given as one comma-separated value (`tag=a,b`): OpenAPI's `style: form` with `explode: false`. */
  commaSeparated?: true
  /** What only HTTP callers are told (how a query string writes it, what is a 400): the document adds it to `description`; a tool's argument has `description` alone. */
  http?: string
  /** Why the route refuses it (`author` on case studies, which list no people): the document leaves it out, a request giving it is a 400 saying so. */
  refused?: string
}

/** What was wrong with a query parameter's value: the keyword of its schema it broke (or `repeated`, `required`, `rule`), the value as sent, and the item of a list at fault. */
export interface Failure {
  keyword: string
  raw: string
  item?: string
}

/**
 * A query parameter, declared once. Its schema is what the document states,
 * what the MCP tools' argument states and what the gateway's reader enforces
 * (query-reader.ts compiles it); the hooks say what the parsed query keeps and
 * what a 400 says where the schema's defaults do not. Only `name`,
 * `description` and `schema` are needed, so a parameter may be made from data
 * (a collection's sort keys and fields) as well as written here.
 */
export interface QueryParameter extends Parameter {
  in: 'query'
  /** The parsed query's property of its value (`updatedSince`); its name by default. */
  key?: string
  /** The value the parsed query keeps of a valid string (a person's slug of `author=José Núñez`); the string by default. */
  read?: (value: string) => unknown
  /** The value kept of a valid comma-separated list (tags lowercase, each once); the items by default. */
  readItems?: (items: readonly string[]) => unknown
  /** A rule of a list the schema cannot state (each sort field once, ascending or descending): the item breaking it. */
  rule?: (items: readonly string[]) => string | undefined
  /** The message of a bad value (after the parameter's name: `must be …`); one made from the schema by default. */
  invalid?: (failure: Failure) => string
  /** Read by other code than the reader, and why (`locale`: one of the site's locales, else negotiated). */
  readElsewhere?: string
}

/** An OpenAPI Responses Object: by status, a response or a reference to a shared one. */
export type Responses = Record<string, Json>

export type SecurityRequirement = Readonly<Record<string, readonly string[]>>

/** An OpenAPI Operation Object, less its parameters and body (the route's). */
export interface Operation {
  operationId: string
  tags: readonly string[]
  summary: string
  description: string
  security: readonly SecurityRequirement[]
  responses: Responses
}

export type Operations = Partial<Record<Lowercase<Method>, Operation>>

export interface RequestBody {
  /** Media types the body may have (parameters such as charset aside); another is a 415. */
  types: readonly string[]
  /** The setting with the most bytes it may have; more is a 413. */
  limit: Extract<SettingName, 'MCP_MAX_BODY_BYTES' | 'TOKEN_MAX_BODY_BYTES'>
  /** Its schema in the document (keyed by media type); left out where the document does not describe one. */
  content?: Record<string, SchemaObject>
}

/**
 * Which requests a file of dist/ answers, on the CDN and in the gateway
 * alike; any other request is computed by the gateway (and draws from the
 * route's budgets). Netlify's rules are written from it.
 */
export interface Prerendered {
  /** Query parameters of which no value has a file: given at all, the gateway computes the answer. */
  computedBy: readonly string[]
  /**
   * A query parameter some values of which have a file each, and the one a request without it gets;
   * the values a function of the content model where they are its collections (`/api/tags?collection=`).
   */
  fileParameter?: {
    name: string
    values: readonly string[] | ((model: ContentModel) => readonly string[])
    bare: string
  }
  /** The file answering a request: by the path's parameters and the file parameter's value. */
  file(path: Readonly<Record<string, string>>, value?: string): string
  /**
   * A multilingual site's locale parameter: each locale but the default (site.yaml's) has files of
   * its own, `localeFile(path, locale, value)`; Netlify's rules name them per locale, and send a value
   * no file has to the gateway. Where the files of a locale depend on the content (an item's slug
   * in each locale, fallbacks), the rules resolve them as the gateway does (contract/locales.ts).
   */
  locale?: {
    name: string
    localeFile(path: Readonly<Record<string, string>>, locale: string, value?: string): string
    /** False where Accept-Language never chooses the locale (the change feed): no Language rules for the bare path. */
    negotiated?: false
  }
}

interface RouteBase {
  /** The path as the document writes it, `{name}` for a parameter (a whole segment, where the gateway answers it). */
  path: string
  /** The methods it answers; any other is a 405 naming them (OPTIONS is always the CORS preflight). */
  methods: readonly Method[]
  /** `file`: a file of dist/ (the CDN, or the gateway's static route); `gateway`: a handler of the gateway. */
  served: 'gateway' | 'file'
  /** Its parameters; a function of the content model where they name collections (search's `collection`, a feed's name). */
  parameters?: readonly Parameter[] | ((model: ContentModel) => readonly Parameter[])
  body?: RequestBody
  budgets?: readonly BudgetName[]
  prerendered?: Prerendered
  /**
   * How long a file of the route may be kept, where it is not the default of
   * its kind (lists and items: `content`, the build's other files:
   * `document`): the Cache-Control the gateway sends and the Netlify rule
   * writes for the whole folder.
   */
  cache?: keyof typeof CACHE
  /** Why only these methods, added to the 405's detail. */
  methodNote?: string
  deprecated?: Deprecation
}

/** A route documented by one operation per method. */
interface DocumentedRoute extends RouteBase {
  each?: undefined
  operations: Operations
}

/**
 * A route documented once per value of a path parameter, the values the
 * content model's (each collection its own operations, schemas and scope,
 * and its own parameters where they differ: a collection's sort keys and
 * fields), and answered by one handler.
 */
interface RouteForEach extends Omit<RouteBase, 'parameters'> {
  each: { parameter: string; values: (model: ContentModel) => readonly string[] }
  parameters?: readonly Parameter[] | ((value: string, model: ContentModel) => readonly Parameter[])
  operations: (value: string, model: ContentModel) => Operations
}

/** A route the document leaves out, and why (the sign-in pages: a browser flow, not an API; the images and the editor). */
interface UndocumentedRoute extends RouteBase {
  each?: undefined
  undocumented: string
}

export type Route = DocumentedRoute | RouteForEach | UndocumentedRoute

/** Checks a route's shape where it is written. */
export function route<const R extends Route>(spec: R): R {
  return spec
}
