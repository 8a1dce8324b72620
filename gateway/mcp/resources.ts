/**
 * Resources: every published item as `content://{collection}/{slug}`
 * (Markdown with its metadata as YAML frontmatter), listable and with
 * completion of both variables; a multilingual site's translations as
 * `content://{collection}/{slug}?locale=de` (as REST asks for them), and the
 * item in any locale by that query. And the agent reference, llms-full.txt,
 * with each other locale's as `reference://llms-full.<locale>.txt`.
 */
import { ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server'
import { stringify } from 'yaml'
import { isCollectionName, listed, type CollectionName } from '../../contract/model/model.ts'
import { LLMS_FULL_PATH, localeLlmsFullPath } from '../../contract/public-paths.ts'
import { isMultilingual, localesOf, summariesIn, toolLocale } from '../content/locales.ts'
import { completeFrom, metadataOf, readItemIn, recordUri, slugsOf, unknownSlugMessage } from './content.ts'
import type { Snapshot } from '../snapshot.ts'
import type { McpContext } from './context.ts'
import { readableMarkdown } from '../../contract/readable-markdown.ts'

export const LLMS_FULL_URI = 'reference://llms-full.txt'
const MARKDOWN = 'text/markdown'

/** The locales whose own records are resources beside the default's (a multilingual site's others). */
function otherLocales(snapshot: Snapshot): string[] {
  if (!isMultilingual(snapshot)) return []
  const { available, default: first } = localesOf(snapshot)
  return available.filter((l) => l !== first)
}

export function registerResources(context: McpContext): void {
  const { server, snapshot } = context
  const { model } = snapshot
  const others = otherLocales(snapshot)
  const resourcesOf = (collection: CollectionName, locale: string | undefined) =>
    summariesIn(snapshot, collection, locale)
      // A locale's list holds the default's records where it falls back: those are the default's resources.
      .filter((r) => locale === undefined || r.locale === locale)
      .map((r) => ({
        uri: recordUri(snapshot, collection, r),
        name: `${collection}/${r.slug}${locale === undefined ? '' : ` (${locale})`}`,
        title: r.title,
        description: String(r.summary ?? ''),
        mimeType: MARKDOWN,
      }))
  const template = new ResourceTemplate('content://{collection}/{slug}', {
    list: () => ({
      resources: [undefined, ...others].flatMap((locale) =>
        model.names.flatMap((collection) => resourcesOf(collection, locale)),
      ),
    }),
    complete: {
      collection: (value) => completeFrom(model.names, value),
      slug: (value, ctx) => {
        const chosen = ctx?.arguments?.collection
        const collections = chosen && isCollectionName(model, chosen) ? [chosen] : model.names
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
      description: `One ${listed(
        model.names.map((c) => model.collections[c]!.label),
        'or',
      )}: its metadata as YAML frontmatter, then its body as Markdown. On a multilingual site, \`?locale=de\` reads the item in that locale (found by any of its slugs, as REST does).`,
      mimeType: MARKDOWN,
    },
    async (uri, variables) => {
      const collection = String(variables.collection)
      // The template's last variable runs to the end of the URI: a locale query is read from the URI itself.
      const slug = String(variables.slug).split('?')[0]!
      if (!isCollectionName(model, collection)) {
        throw new ResourceNotFoundError(
          uri.href,
          `There is no collection "${collection.slice(0, 60)}"; use one of ${model.names.join(', ')}.`,
        )
      }
      const given = uri.searchParams.get('locale')
      const chosen = given === null ? undefined : toolLocale(snapshot, given)
      if (chosen && !chosen.ok) throw new ResourceNotFoundError(uri.href, chosen.message)
      const locale = chosen?.ok ? chosen.locale : undefined
      const record = await readItemIn(snapshot, { collection, slug, ...(locale !== undefined && { locale }) })
      // Resource not found: -32602 with the URI in data (SEP-2164), and a hint in the message.
      if (!record)
        throw new ResourceNotFoundError(
          uri.href,
          `${unknownSlugMessage(collection, slug)}${locale ? ` (in ${locale})` : ''}`,
        )
      const text = `---\n${stringify(metadataOf(record), { lineWidth: 0 })}---\n\n${readableMarkdown(record.body.markdown)}\n`
      return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text }] }
    },
  )

  // Only when the build has them: the references are another emitter's output.
  for (const locale of [undefined, ...others]) {
    const file = (locale === undefined ? LLMS_FULL_PATH : localeLlmsFullPath(locale)).slice(1)
    if (!snapshot.has(file)) continue
    const uri = locale === undefined ? LLMS_FULL_URI : `reference://${file}`
    const labels = model.names.map((c) => model.collections[c]!.label).join(', ')
    server.registerResource(
      locale === undefined ? 'llms-full' : `llms-full-${locale}`,
      uri,
      {
        title: `Agent reference (${file})`,
        description: `How to use this API and MCP server, with all published content (${labels})${locale === undefined ? '' : ` in ${locale}`}.`,
        mimeType: MARKDOWN,
      },
      async (asked) => ({
        contents: [{ uri: asked.href, mimeType: MARKDOWN, text: (await snapshot.file(file)!).body.toString('utf8') }],
      }),
    )
  }
}
