/** get_content: one item in full: its markdown body and all its metadata. */
import { z } from 'zod'
import type { CollectionName, ContentModel } from '../../../contract/model/model.ts'
import { metadataOf, readItem, recordUri, unknownSlugMessage } from '../content.ts'
import type { McpContext } from '../context.ts'
import { ownFieldsShape } from '../record-fields.ts'
import {
  collectionArg,
  localeArg,
  perModel,
  READ_ONLY,
  recordSummary,
  askedSection,
  sectionArg,
  sectionField,
  sectionOutput,
  toolError,
  toolResult,
} from '../schemas.ts'
import { readableMarkdown } from '../../../contract/readable-markdown.ts'
import { findItem, isMultilingual, localesOf, toolLocale } from '../../content/locales.ts'
import { readRecord } from '../../content/items.ts'
import { fateOf } from '../../content/redirects.ts'
import type { FullRecord } from '../../../contract/records.ts'
import type { Snapshot } from '../../snapshot.ts'
import { goneMessage } from '../connector.ts'
import { includeDraftsArg, isRefusal, previewFor } from '../drafts.ts'
import { PREVIEW_STATES } from '../../../contract/preview.ts'
import { stateOf } from '../../preview/artifact.ts'

/** The tool's description and schemas, made once per build: each server (one per request in flight) registers it. */
const getContentTool = perModel((model: ContentModel) => ({
  title: 'Read one item',
  description:
    'Read one published item in full by collection and slug (slugs come from search_content or list_content). ' +
    'Use it before quoting, summarising or writing about an item. Returns metadata (title, summary, canonical url, ' +
    "tags, dates, reading time and the collection's own fields: customer, results and quote for case studies; " +
    'starts_at, timezone, speakers or location for webinars and events; authors for blog posts) and the body as ' +
    "Markdown; with `section` (a heading id from the toc, or the `#…` of a search hit's anchor) only that section. An old slug of an item (its file renamed, its slug changed) finds it, and the answer says it moved; " +
    'a deleted item and an unknown slug are reported as errors that say so.',
  inputSchema: z.object({
    collection: collectionArg(model.names).describe("The item's collection."),
    slug: z.string().min(1).max(200).describe('The item\'s slug, e.g. "meridian-mutual-ledger-reconciliation".'),
    locale: localeArg,
    section: sectionArg,
    include_drafts: includeDraftsArg,
  }),
  outputSchema: z.object({
    collection: collectionArg(model.names),
    slug: z.string(),
    resource_uri: z.string(),
    metadata: recordSummary.extend({
      ...ownFieldsShape(model),
      reading_time_minutes: z.number().int(),
      word_count: z.number().int(),
    }),
    markdown: z
      .string()
      .describe('The body as Markdown (GFM), without frontmatter; only the section asked for, if any.'),
    section: sectionOutput.optional(),
    moved_from: z
      .string()
      .optional()
      .describe('Where the item was asked for, when that is an old address of it ("collection/slug"): it moved.'),
    state: z
      .enum(PREVIEW_STATES)
      .optional()
      .describe('With include_drafts: draft, scheduled (published at release_at), published or expired.'),
    release_at: z.string().nullable().optional().describe('With include_drafts: when a scheduled item is published.'),
  }),
  annotations: { title: 'Read one item', ...READ_ONLY },
}))

export function registerGetContent({ server, snapshot, drafts }: McpContext): void {
  server.registerTool(
    'get_content',
    getContentTool(snapshot.model),
    async ({ collection: asked, slug: wanted, locale: given, section: sectionId, include_drafts }) => {
      const chosen = toolLocale(snapshot, given)
      if (!chosen.ok) return toolError(chosen.message)
      if (include_drafts) {
        const preview = await previewFor(drafts())
        if (isRefusal(preview)) return preview
        const entry = preview.find(asked, wanted, chosen.locale)
        if (!entry)
          return toolError(`${unknownSlugMessage(asked, wanted)} (in any state: drafts and scheduled items included)`)
        const { record } = entry
        const found = askedSection(record, sectionId)
        if (found.error) return found.error
        const part = found.section
        const text = readableMarkdown(part?.markdown ?? record.body.markdown)
        const when = entry.state === 'scheduled' ? ` (publishes ${entry.release_at})` : ''
        return toolResult(
          {
            collection: asked,
            slug: record.slug,
            resource_uri: recordUri(snapshot, asked, record),
            metadata: metadataOf(record),
            markdown: text,
            ...sectionField(part),
            ...stateOf(entry),
          },
          [
            `# ${record.title}`,
            '',
            `State: ${entry.state}${when}`,
            `Tags: ${record.tags.join(', ') || 'none'}`,
            ...(part ? [`Section: ${part.text}`] : []),
            '',
            text,
          ].join('\n'),
        )
      }
      const read = (c: CollectionName, slug: string) => readIn(snapshot, c, slug, chosen.locale)
      let collection = asked
      let record = await read(collection, wanted)
      let movedFrom: string | undefined
      if (!record) {
        // An old address of an item: where it is now (content/'s history), or that it was deleted.
        const found = await fateOf(snapshot, asked, wanted, chosen.locale)
        if (found && 'gone' in found.fate) return toolError(goneMessage(found.fate.gone))
        if (found && 'to' in found.fate) {
          collection = found.fate.collection ?? asked
          record = await read(collection, found.fate.to)
          movedFrom = `${asked}/${wanted}`
        }
      }
      if (!record)
        return toolError(
          `${unknownSlugMessage(asked, wanted)}${chosen.locale ? ` (in ${chosen.locale}: pass that locale to list_content for its slugs)` : ''}`,
        )
      const metadata = metadataOf(record)
      const found = askedSection(record, sectionId)
      if (found.error) return found.error
      const { section } = found
      const markdown = readableMarkdown(section?.markdown ?? record.body.markdown)
      const header = [
        ...(movedFrom ? [`Moved: ${movedFrom} is now ${collection}/${record.slug}; use the new slug.`, ''] : []),
        `# ${record.title}`,
        '',
        `${snapshot.model.collections[collection]!.label} · ${String(record.starts_at ?? record.published_at)} · ${String(record.url)}`,
        `Tags: ${record.tags.join(', ') || 'none'}`,
        ...(section ? [`Section: ${section.text} (${String(record.url)}#${encodeURIComponent(section.id)})`] : []),
        '',
      ]
      return toolResult(
        {
          collection,
          slug: record.slug,
          resource_uri: recordUri(snapshot, collection, record),
          metadata,
          markdown,
          ...sectionField(section),
          ...(movedFrom && { moved_from: movedFrom }),
        },
        [...header, markdown].join('\n'),
      )
    },
  )
}

/** The full record answering `slug` in `locale` (a multilingual site's: found by its slug in any locale). */
async function readIn(
  snapshot: Snapshot,
  collection: CollectionName,
  slug: string,
  locale: string | undefined,
): Promise<FullRecord | undefined> {
  if (!isMultilingual(snapshot)) return readItem(snapshot, collection, slug)
  const found = findItem(snapshot, collection, slug, {
    locale: locale ?? localesOf(snapshot).default,
    negotiated: false,
  })
  return found && readRecord(snapshot, collection, found.record)
}
