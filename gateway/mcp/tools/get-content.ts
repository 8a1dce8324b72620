/** get_content: one item in full: its markdown body and all its metadata. */
import { z } from 'zod'
import { COLLECTIONS } from '../../../contract/collections.ts'
import { metadataOf, readItem, recordUri, unknownSlugMessage } from '../content.ts'
import type { McpContext } from '../context.ts'
import { collectionArg, localeArg, READ_ONLY, recordSummary, toolError, toolResult } from '../schemas.ts'
import { findItem, isMultilingual, localesOf, toolLocale } from '../../content/locales.ts'
import { readRecord } from '../../content/items.ts'
import { readableMarkdown } from '../../../contract/readable-markdown.ts'

/** The tool's description and schemas, made once: every request builds a new server that registers it. */
const GET_CONTENT_TOOL = {
  title: 'Read one item',
  description:
    'Read one published item in full by collection and slug (slugs come from search_content or list_content). ' +
    'Use it before quoting, summarising or writing about an item. Returns metadata (title, summary, canonical url, ' +
    "tags, dates, reading time and the collection's own fields: customer, results and quote for case studies; " +
    'starts_at, timezone, speakers or location for webinars and events; authors for blog posts) and the body as ' +
    'Markdown. An unknown slug is reported as an error that says how to find valid slugs.',
  inputSchema: z.object({
    collection: collectionArg.describe("The item's collection."),
    slug: z.string().min(1).max(200).describe('The item\'s slug, e.g. "meridian-mutual-ledger-reconciliation".'),
    locale: localeArg,
  }),
  outputSchema: z.object({
    collection: collectionArg,
    slug: z.string(),
    resource_uri: z.string(),
    metadata: recordSummary.extend({ reading_time_minutes: z.number().int(), word_count: z.number().int() }),
    markdown: z.string().describe('The body as Markdown (GFM), without frontmatter.'),
  }),
  annotations: { title: 'Read one item', ...READ_ONLY },
}

export function registerGetContent({ server, snapshot }: McpContext): void {
  server.registerTool('get_content', GET_CONTENT_TOOL, async ({ collection, slug, locale: given }) => {
    const chosen = toolLocale(snapshot, given)
    if (!chosen.ok) return toolError(chosen.message)
    // A multilingual site: the item in the locale asked for (the default's), found by its slug in any locale.
    const found = isMultilingual(snapshot)
      ? findItem(snapshot, collection, slug, {
          locale: chosen.locale ?? localesOf(snapshot).default,
          negotiated: false,
        })
      : undefined
    const record = found
      ? await readRecord(snapshot, collection, found.record)
      : isMultilingual(snapshot)
        ? undefined
        : await readItem(snapshot, collection, slug)
    if (!record)
      return toolError(
        `${unknownSlugMessage(collection, slug)}${chosen.locale ? ` (in ${chosen.locale}: pass that locale to list_content for its slugs)` : ''}`,
      )
    const metadata = metadataOf(record)
    const header = [
      `# ${record.title}`,
      '',
      `${COLLECTIONS[collection].label} · ${String(record.starts_at ?? record.published_at)} · ${String(record.url)}`,
      `Tags: ${record.tags.join(', ') || 'none'}`,
      '',
    ]
    return toolResult(
      {
        collection,
        slug: record.slug,
        resource_uri: recordUri(snapshot, collection, record),
        metadata,
        markdown: readableMarkdown(record.body.markdown),
      },
      [...header, readableMarkdown(record.body.markdown)].join('\n'),
    )
  })
}
