/**
 * Zod shapes shared by the MCP tools. The SDK turns them into the JSON
 * Schemas that tools/list publishes and validates every result against them.
 * The arguments that are REST's query parameters: arguments.ts.
 */
import { z } from 'zod'
import type { ContentModel } from '../../contract/model/model.ts'
import { LOCALE } from '../../contract/routes/parameters.ts'
import type { FullRecord } from '../../contract/records.ts'
import { sectionOf, unknownSectionMessage, type Section } from '../../contract/sections.ts'
import { textArgument } from './arguments.ts'

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
export const localeArg = textArgument(LOCALE, "Without it, the site's default locale.").optional()

/** One section of a body, by its heading's id (contract/sections.ts): get_content and fetch. */
export const sectionArg = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^#\s]/, 'a heading id, without the #')
  .optional()
  .describe(
    'Only this section: a heading id from the item\'s toc, or the part after # of a search hit\'s url (e.g. "pricing"). ' +
      'The heading and everything up to the next heading of the same or a higher level.',
  )

/** The section an answer holds. */
export const sectionOutput = z.object({
  id: z.string(),
  text: z.string().describe("The section's heading."),
  depth: z.number().int().describe("The heading's level (1 for #)."),
})

/** The section of an item a search hit's best match is in (gateway/search/hit-section.ts). */
export const hitSection = z
  .object({
    id: z.string().describe('Pass as `section` to get_content or fetch for only this part.'),
    text: z.string().describe("The section's heading."),
    url: z.string().describe("The canonical page with the section's anchor (`url#id`): cite this."),
  })
  .nullable()
  .describe('The section the best match is in; null when it is before the first heading or not in the body.')

/** Tool result for a failure the model can fix (wrong slug, bad option): `isError`, not a protocol error. */
export function toolError(message: string) {
  return { isError: true, content: [{ type: 'text' as const, text: message }] }
}

/**
 * The section a tool's `section` argument asks for of `record`: none when none is asked,
 * else the section, else the error naming the record's heading ids.
 */
export function askedSection(
  record: FullRecord,
  id: string | undefined,
): { section: Section | undefined; error?: undefined } | { error: ReturnType<typeof toolError> } {
  if (id === undefined) return { section: undefined }
  const section = sectionOf(record.body.markdown, record.toc, id)
  return section ? { section } : { error: toolError(unknownSectionMessage(id, record.toc)) }
}

/** A section as the tools' output names it (`sectionOutput`). */
export const sectionField = (section: Section | undefined) =>
  section && { section: { id: section.id, text: section.text, depth: section.depth } }

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
