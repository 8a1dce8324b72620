/** list_tags: every tag with its label and counts, as GET /api/tags answers (contract/tags.ts). */
import { z } from 'zod'
import { tagsEnvelope } from '../../../contract/tags.ts'
import { toolLocale } from '../../content/locales.ts'
import { tagIndexOf, tagLabels } from '../../content/tags.ts'
import type { McpContext } from '../context.ts'
import type { ContentModel } from '../../../contract/model/model.ts'
import { collectionArg, localeArg, perModel, READ_ONLY, toolError, toolResult } from '../schemas.ts'

const tag = z.object({
  tag: z.string().describe('Pass to list_content or search_content as `tag`.'),
  label: z.string(),
  description: z.string().nullable(),
  count: z.number().int().describe('Items with the tag, in the collections counted.'),
  counts: z.record(z.string(), z.number().int()).describe('Items with the tag per collection counted.'),
  href: z.string().describe("The tag's items in the REST API."),
})

/** The tool's description and schemas, made once per build: each server (one per request in flight) registers it. */
const listTagsTool = perModel((model: ContentModel) => ({
  title: 'List the tags',
  description:
    'List every tag of the published content, with its label and description where the site declares one, and how many ' +
    'items carry it per collection and in total, most used first. Use it to see what topics the content covers, or to ' +
    'find the tag to pass to list_content or search_content. `collection` counts one collection only.',
  inputSchema: z.object({
    collection: collectionArg(model.names).optional().describe("Count this collection's items only."),
    locale: localeArg,
  }),
  outputSchema: z.object({ tags: z.array(tag) }),
  annotations: { title: 'List the tags', ...READ_ONLY },
}))

export function registerListTags({ server, snapshot }: McpContext): void {
  server.registerTool('list_tags', listTagsTool(snapshot.model), async ({ collection, locale: given }) => {
    const chosen = toolLocale(snapshot, given)
    if (!chosen.ok) return toolError(chosen.message)
    const labels = await tagLabels(snapshot)
    const { data } = tagsEnvelope(
      snapshot.model,
      tagIndexOf(snapshot, chosen.locale),
      labels,
      collection,
      chosen.locale,
    )
    const lines = data.map((t) => `- ${t.tag}${t.label === t.tag ? '' : ` (${t.label})`}: ${t.count}`)
    const heading = data.length ? `${data.length} tag(s), most used first:` : 'No tags.'
    return toolResult({ tags: data }, [heading, ...lines].join('\n'))
  })
}
