/**
 * The MCP tools' arguments that are query parameters of the REST API, made
 * from the same declarations (contract/routes/parameters.ts): a tool's input
 * schema states each one's type, bounds, values, pattern, default, examples
 * and description as the OpenAPI document does, and its value goes to REST's
 * own reader (queryOf), so a tool call accepts exactly what a request does
 * and a bad value is a tool error worded as the 400 is.
 *
 * The zod schema checks only the JSON type (the SDK's check, before the
 * tool runs); the bounds are the declaration's schema, published as it is
 * (zod's metadata) and enforced by the reader compiled from it. A list is an
 * array or, as a query string writes it, one string separated by commas.
 */
import { z } from 'zod'
import { deprecationSentence } from '../../contract/routes/deprecation.ts'
import type { QueryParameter } from '../../contract/routes/route.ts'
import type { SchemaObject } from '../../contract/routes/schema.ts'

/** The description a tool's argument has: the declaration's, and a note of the tool's own; never what only HTTP callers are told. */
function describe(p: QueryParameter, note?: string): string {
  return [p.description, p.deprecated && deprecationSentence(p.deprecated), note].filter(Boolean).join(' ')
}

/** The argument's JSON Schema as tools/list publishes it: the declaration's, the list form widened to a string too. */
export function argumentSchema(p: QueryParameter, note?: string): SchemaObject {
  const { default: fallback, examples, ...schema } = p.schema
  const about = {
    ...(fallback !== undefined && { default: fallback }),
    ...(examples !== undefined && { examples }),
    description: describe(p, note),
    ...(p.deprecated && { deprecated: true }),
  }
  if (schema.type !== 'array') return { ...schema, ...about }
  return { anyOf: [commaSeparated(schema), schema], ...about }
}

/** A list as one string: its items joined by commas, no longer than the most of the longest. */
function commaSeparated(list: SchemaObject): SchemaObject {
  const items = (list.items ?? {}) as SchemaObject
  const longest =
    (items.maxLength as number | undefined) ?? Math.max(...((items.enum ?? []) as string[]).map((v) => v.length))
  const most = list.maxItems as number
  const item = typeof items.pattern === 'string' ? items.pattern.replace(/^\^|\$$/g, '') : undefined
  return {
    type: 'string',
    minLength: 1,
    maxLength: most * (longest + 1) - 1,
    ...(item && { pattern: `^(?:${item})(?:,(?:${item})){0,${most - 1}}$` }),
  }
}

/** The tool argument of a query parameter (optional unless the declaration requires it; a default is REST's to fill). */
export function toolArgument(p: QueryParameter, note?: string): z.ZodType {
  const json = argumentSchema(p, note)
  // A schema without a type (a set of values alone) is published without one: the reader checks the value.
  const typed =
    p.schema.type === 'integer'
      ? z.number()
      : p.schema.type === 'array'
        ? z.union([z.string(), z.array(z.string())])
        : p.schema.type === undefined
          ? z.unknown()
          : z.string()
  const argument = typed.meta(json)
  return p.required ? argument : argument.optional()
}

/** A query parameter whose value is one string, as a tool argument of that type (for `.optional()` where the declaration has it). */
export function textArgument(p: QueryParameter, note?: string): z.ZodString {
  if (p.schema.type === 'integer' || p.schema.type === 'array') throw new Error(`${p.name} is not one string`)
  return z.string().meta(argumentSchema(p, note))
}

/** Tool arguments as the query string REST would get: lists comma-separated. */
export function queryOf(args: Record<string, unknown>, parameters: readonly QueryParameter[]): URLSearchParams {
  const params = new URLSearchParams()
  for (const { name } of parameters) {
    const value = args[name]
    if (value === undefined) continue
    params.set(name, Array.isArray(value) ? value.join(',') : String(value))
  }
  return params
}

/** The tool arguments of query parameters, by their names. */
export function toolArguments(parameters: readonly QueryParameter[]): Record<string, z.ZodType> {
  return Object.fromEntries(parameters.map((p) => [p.name, toolArgument(p)]))
}
