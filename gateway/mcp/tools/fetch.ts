/**
 * fetch: the connector contract's second tool. One string `id` in (what
 * search returned: "collection/slug", a translation's with `?locale=`; also
 * the content:// URI or the REST record id of any locale); `{id, title, text,
 * url, metadata}` out, as structured content and as JSON text. `text` is the
 * item's full body as Markdown. An id that names no published item is a tool
 * error the model can recover from. The contract's one argument stays the
 * only one: the locale travels in the id.
 */
import { z } from 'zod'
import { metadataOf, readItemIn, recordUri } from '../content.ts'
import { followMoved, goneMessage, parseConnectorId, recordConnectorId, unknownIdMessage } from '../connector.ts'
import type { McpContext } from '../context.ts'
import type { ContentModel } from '../../../contract/model/model.ts'
import {
  askedSection,
  collectionArg,
  jsonResult,
  perModel,
  READ_ONLY,
  sectionArg,
  sectionField,
  sectionOutput,
  toolError,
} from '../schemas.ts'
import { readableMarkdown } from '../../../contract/readable-markdown.ts'

const metadataSchema = (model: ContentModel) =>
  z.looseObject({
    collection: collectionArg(model.names),
    record_id: z.string().describe('The id of the same record in the REST API.'),
    resource_uri: z.string(),
    type: z.string(),
    slug: z.string(),
    summary: z.string(),
    tags: z.array(z.string()),
    published_at: z.string(),
    updated_at: z.string(),
    image: z
      .looseObject({ url: z.string(), alt: z.string(), width: z.number().nullable(), height: z.number().nullable() })
      .nullable()
      .describe(
        'The lead image: url (its largest JPEG or PNG), alt text, size, placeholder and every processed file (sources); null when it has none.',
      ),
    social_image: z
      .object({ url: z.string(), width: z.number().nullable(), height: z.number().nullable() })
      .nullable()
      .describe('What a link to the item shows when shared: its image, or a generated card with its title.'),
    moved_from: z
      .string()
      .optional()
      .describe('The id asked for, when it is an old one of the item (it moved): use `id` from now on.'),
  })

/** The tool's description and schemas, made once per build: each server (one per request in flight) registers it. */
const fetchTool = perModel((model: ContentModel) => ({
  title: 'Fetch one item (connector)',
  description:
    'Read one published item in full by the id search returned ("collection/slug", e.g. ' +
    '"case-studies/meridian-mutual-ledger-reconciliation"). Returns its title, canonical url, the full text as ' +
    "Markdown and its metadata (collection, summary, tags, dates, its image and the collection's own fields such as the " +
    'customer and results of a case study or the start, time zone and place of an event; on a multilingual site its ' +
    'locale and translations). A translation\'s id names its locale ("blog-posts/tidewater-cloud-eu-region-frankfurt?locale=de"). ' +
    "With `section` (a heading id, the `#…` of a search hit's url) only that section of the text. " +
    'An old id of an item (its file renamed, its slug changed) finds it, and `metadata.moved_from` says it moved. ' +
    'A deleted item, and an unknown id, are reported as errors that say so.',
  inputSchema: z.object({
    id: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe('The item\'s id from search: "collection/slug" (a translation\'s with "?locale=…").'),
    section: sectionArg,
  }),
  outputSchema: z.object({
    id: z.string(),
    title: z.string(),
    text: z.string().describe('The full text of the item as Markdown (GFM); only the section asked for, if any.'),
    url: z.string().describe('The canonical page; with a section, its anchor (`#id`).'),
    metadata: metadataSchema(model),
    section: sectionOutput.optional(),
  }),
  annotations: { title: 'Fetch one item (connector)', ...READ_ONLY },
}))

export function registerFetch({ server, snapshot }: McpContext): void {
  server.registerTool('fetch', fetchTool(snapshot.model), async ({ id, section: sectionId }) => {
    let ref = parseConnectorId(snapshot, id)
    let record = ref && (await readItemIn(snapshot, ref))
    let movedFrom: string | undefined
    if (ref && !record) {
      // An old id of an item: the item where it is now, or that it was deleted.
      const followed = await followMoved(snapshot, ref)
      if (followed && 'gone' in followed) return toolError(goneMessage(followed.gone))
      if (followed) {
        ref = followed.moved
        record = await readItemIn(snapshot, ref)
        movedFrom = id.trim()
      }
    }
    if (!ref || !record) return toolError(unknownIdMessage(snapshot, id))
    const found = askedSection(record, sectionId)
    if (found.error) return found.error
    const { section } = found
    const { id: recordId, title, url, ...rest } = metadataOf(record)
    return jsonResult({
      id: recordConnectorId(snapshot, ref.collection, record),
      title,
      text: readableMarkdown(section?.markdown ?? record.body.markdown),
      url: `${String(url ?? '')}${section ? `#${encodeURIComponent(section.id)}` : ''}`,
      ...sectionField(section),
      metadata: {
        collection: ref.collection,
        record_id: recordId,
        resource_uri: recordUri(snapshot, ref.collection, record),
        ...rest,
        ...(movedFrom && { moved_from: movedFrom }),
      },
    })
  })
}
