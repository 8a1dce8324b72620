/** get_person: one author or speaker and their items, as GET /api/people/{slug} answers (contract/people-index.ts). */
import { z } from 'zod'
import { MAX_LIMIT } from '../../../contract/routes/parameters.ts'
import { personItemsEnvelope } from '../../../contract/people-index.ts'
import { peopleIndexOf } from '../../content/people.ts'
import { toolLocale } from '../../content/locales.ts'
import type { McpContext } from '../context.ts'
import { localeArg, READ_ONLY, recordSummary, toolError, toolResult } from '../schemas.ts'

const nullableString = z.string().nullable()

const person = z.object({
  slug: z.string().describe('Pass to list_content or search_content as `author`.'),
  name: z.string(),
  title: nullableString,
  company: nullableString,
  avatar: z.looseObject({ url: z.string() }).nullable().describe('Their portrait, or null.'),
  bio: nullableString,
  count: z.number().int().describe('Items naming them.'),
  counts: z.record(z.string(), z.number().int()).describe('Items naming them per collection.'),
  href: z.string().describe('Their profile and items in the REST API.'),
})

/** The tool's description and schemas, made once: each server (one per request in flight) registers it. */
const GET_PERSON_TOOL = {
  title: 'Read a person',
  description:
    'Read one author or speaker by slug (an item\'s authors or speakers give it, like "jose-nunez"): their name, title, ' +
    'company, portrait and bio where known, how many items name them, and those items newest first (every item naming ' +
    'them in a field of people: the posts they wrote, the events they spoke at), as summaries. An unknown slug is reported as an error.',
  inputSchema: z.object({
    slug: z.string().min(1).max(200).describe('The person\'s slug, like "jose-nunez".'),
    limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe('Items to return, newest first (default 20).'),
    locale: localeArg,
  }),
  outputSchema: z.object({ person, items: z.array(recordSummary), total: z.number().int() }),
  annotations: { title: 'Read a person', ...READ_ONLY },
}

export function registerGetPerson({ server, snapshot }: McpContext): void {
  server.registerTool('get_person', GET_PERSON_TOOL, ({ slug, limit = 20, locale: given }) => {
    const chosen = toolLocale(snapshot, given)
    if (!chosen.ok) return toolError(chosen.message)
    const found = peopleIndexOf(snapshot, chosen.locale).get(slug.trim())
    if (!found)
      return toolError(
        `No published item names a person with the slug "${slug.slice(0, 120)}". Slugs are the names' (José Núñez → jose-nunez); the authors and speakers of items from get_content or list_content carry them.`,
      )
    const envelope = personItemsEnvelope(snapshot.model, found, { limit, page: 1 })
    const p = envelope.person
    const { model } = snapshot
    const lines = envelope.data.map((r) => {
      const label = model.names.map((c) => model.collections[c]!).find((c) => c.type === r.type)?.label ?? r.type
      return `- ${r.title} (${label}, ${r.published_at}): ${String(r.url)}`
    })
    const heading = [p.name, p.title, p.company].filter(Boolean).join(', ')
    return toolResult(
      { person: p, items: envelope.data, total: envelope.meta.total },
      [`# ${heading}`, '', `${p.count} item(s):`, ...lines].join('\n'),
    )
  })
}
