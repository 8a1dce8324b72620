/**
 * Resources: every published item as `content://{collection}/{slug}`
 * (Markdown with its metadata as YAML frontmatter), listable and with
 * completion of both variables; and the agent reference, llms-full.txt.
 */
import { ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server'
import { stringify } from 'yaml'
import { COLLECTION_NAMES, COLLECTIONS, isCollectionName } from '../../contract/collections.ts'
import { completeFrom, metadataOf, readItem, resourceUri, slugsOf, unknownSlugMessage } from './content.ts'
import type { McpContext } from './context.ts'
import { LLMS_FULL_PATH } from '../../contract/public-paths.ts'

export const LLMS_FULL_URI = 'reference://llms-full.txt'
const MARKDOWN = 'text/markdown'

export function registerResources({ server, snapshot }: McpContext): void {
  const template = new ResourceTemplate('content://{collection}/{slug}', {
    list: () => ({
      resources: COLLECTION_NAMES.flatMap((collection) =>
        snapshot.summaries(collection).map((r) => ({
          uri: resourceUri(collection, r.slug),
          name: `${collection}/${r.slug}`,
          title: r.title,
          description: String(r.summary ?? ''),
          mimeType: MARKDOWN,
        })),
      ),
    }),
    complete: {
      collection: (value) => completeFrom(COLLECTION_NAMES, value),
      slug: (value, context) => {
        const chosen = context?.arguments?.collection
        const collections = chosen && isCollectionName(chosen) ? [chosen] : COLLECTION_NAMES
        return completeFrom(
          collections.flatMap((c) => slugsOf(snapshot, c)),
          value,
        )
      },
    },
  })

  server.registerResource(
    'content-item',
    template,
    {
      title: 'Published content item',
      description:
        'One blog post, case study, webinar or event: its metadata as YAML frontmatter, then its body as Markdown.',
      mimeType: MARKDOWN,
    },
    async (uri, variables) => {
      const collection = String(variables.collection)
      const slug = String(variables.slug)
      if (!isCollectionName(collection)) {
        throw new ResourceNotFoundError(
          uri.href,
          `There is no collection "${collection.slice(0, 60)}"; use one of ${COLLECTION_NAMES.join(', ')}.`,
        )
      }
      const record = await readItem(snapshot, collection, slug)
      // Resource not found: -32602 with the URI in data (SEP-2164), and a hint in the message.
      if (!record) throw new ResourceNotFoundError(uri.href, unknownSlugMessage(collection, slug))
      const text = `---\n${stringify(metadataOf(record), { lineWidth: 0 })}---\n\n${record.body.markdown}\n`
      return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text }] }
    },
  )

  // Only when the build has it: the reference is another emitter's output.
  const reference = LLMS_FULL_PATH.slice(1)
  if (snapshot.has(reference)) {
    server.registerResource(
      'llms-full',
      LLMS_FULL_URI,
      {
        title: 'Agent reference (llms-full.txt)',
        description: `How to use this API and MCP server, with all published content (${COLLECTION_NAMES.map((c) => COLLECTIONS[c].label).join(', ')}).`,
        mimeType: MARKDOWN,
      },
      async (uri) => ({
        contents: [
          { uri: uri.href, mimeType: MARKDOWN, text: (await snapshot.file(reference)!).body.toString('utf8') },
        ],
      }),
    )
  }
}
