/**
 * Zod shapes shared by the MCP tools. The SDK turns them into the JSON
 * Schemas that tools/list publishes and validates every result against them.
 */
import { z } from 'zod'
import type { ContentModel } from '../../contract/model/model.ts'
import { MAX_AUTHOR_LENGTH, MAX_QUERY_TAGS, QUERY_TAG_PATTERN, WHEN_VALUES } from '../../contract/filters.ts'
import { MAX_DATE_TIME_LENGTH, MAX_SLUG_LENGTH } from '../../contract/patterns.ts'
import { MAX_LIMIT, MAX_PAGE } from '../../contract/query.ts'

/** One of `names` (the build's collections, or some of them). */
export function collectionArg(names: readonly string[]) {
  return z.enum(names as [string, ...string[]])
}

/**
 * A tool's description and schemas for a content model, made once per build: every request makes a new
 * server that registers the tools, and the collections they name are the build's.
 */
export function perModel<T>(make: (model: ContentModel) => T): (model: ContentModel) => T {
  const made = new WeakMap<ContentModel, T>()
  return (model) => {
    let value = made.get(model)
    if (value === undefined) made.set(model, (value = make(model)))
    return value
  }
}
export const tagArg = z
  .string()
  .min(1)
  .max(50)
  .regex(new RegExp(QUERY_TAG_PATTERN), 'a tag: letters, digits and single hyphens (matched without regard to case)')
export const limitArg = z.number().int().min(1).max(MAX_LIMIT)
export const pageArg = z.number().int().min(1).max(MAX_PAGE)

/** A list of names, as an array or (as REST writes it) one string separated by commas. */
export const fieldList = z.union([z.string().min(1).max(1000), z.array(z.string().min(1).max(40)).min(1).max(40)])

const instantArg = z.string().min(1).max(MAX_DATE_TIME_LENGTH)

/**
 * The filters of the REST lists, as tool arguments (the tools hand them to
 * REST's own parser, contract/filters.ts, so they accept exactly the same).
 */
export const filterArgs = {
  tag: z
    .union([tagArg, z.array(tagArg).min(1).max(MAX_QUERY_TAGS)])
    .optional()
    .describe('Only items with this tag, or with any of these tags, e.g. "data-contracts" or ["fintech", "banking"].'),
  author: z
    .string()
    .min(1)
    .max(MAX_AUTHOR_LENGTH)
    .optional()
    .describe(
      'Only items by this person (blog post authors, webinar and event speakers): a slug like "jose-nunez" or a name like "José Núñez".',
    ),
  published_after: instantArg
    .optional()
    .describe(
      'Only items published after this: a date like "2026-03-31" (after that day, UTC) or an RFC 3339 date-time.',
    ),
  published_before: instantArg
    .optional()
    .describe('Only items published before this: a date like "2026-04-01" (before that day) or an RFC 3339 date-time.'),
  updated_since: instantArg.optional().describe('Only items updated after this RFC 3339 date-time.'),
  when: z
    .enum(WHEN_VALUES)
    .optional()
    .describe('Events and webinars only: "upcoming" (not started at the time of the call) or "past" (started).'),
  exclude: z.string().min(1).max(MAX_SLUG_LENGTH).optional().describe('Leave out the item with this slug.'),
}

type FilterArgs = { [K in keyof typeof filterArgs]?: z.infer<(typeof filterArgs)[K]> }

/** Tool arguments as the query string REST would get: lists comma-separated. */
export function queryOf(args: FilterArgs & Record<string, unknown>, names: readonly string[]): URLSearchParams {
  const params = new URLSearchParams()
  for (const name of names) {
    const value = args[name]
    if (value === undefined) continue
    params.set(name, Array.isArray(value) ? value.join(',') : String(value))
  }
  return params
}

/** Every filter's argument name. */
export const FILTER_NAMES = Object.keys(filterArgs)

/** The fields every record has; collection-specific fields pass through. */
export const recordSummary = z.looseObject({
  id: z.string(),
  type: z.string(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  url: z.string(),
  tags: z.array(z.string()),
  published_at: z.string(),
  updated_at: z.string(),
})

/** The locale argument of the content tools: a multilingual site answers in it (gateway/content/locales.ts). */
export const localeArg = z
  .string()
  .min(2)
  .max(35)
  .describe(
    "The locale to answer in, one of the site's (a BCP 47 tag like \"de\" or \"fr\", as the records' `locale` and `translations` name them); default: the site's default locale. Lists and search then hold that locale's items (and where the site falls back, the default's it lacks); an item is found by its slug in any locale. A single-language site ignores it.",
  )

/** Tool result for a failure the model can fix (wrong slug, bad option): `isError`, not a protocol error. */
export function toolError(message: string) {
  return { isError: true, content: [{ type: 'text' as const, text: message }] }
}

/** Tool result with structured content and the same information as readable text. */
export function toolResult<T extends Record<string, unknown>>(structured: T, text: string) {
  return { structuredContent: structured, content: [{ type: 'text' as const, text }] }
}

/**
 * Tool result whose text is the structured content as JSON: what hosts that call `search` and `fetch` by name
 * (ChatGPT connectors, deep research) parse, as one text item.
 */
export function jsonResult<T extends Record<string, unknown>>(structured: T) {
  return { structuredContent: structured, content: [{ type: 'text' as const, text: JSON.stringify(structured) }] }
}

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const
