/**
 * A WordPress export's items as SourceItems: its dates in GMT, its
 * categories and tags, its author by login, its featured image and SEO
 * plugins' fields (Yoast, Rank Math) from the post meta. Attachments are
 * what galleries and featured images name by id: collected on a first pass.
 */
import type { SourceAttachment, SourceAuthor, SourceItem } from './source-item.ts'
import { readWxr, type WxrItem } from './wxr-reader.ts'

export interface WordPressIndex {
  site: string
  authors: Map<string, SourceAuthor>
  attachments: Map<string, SourceAttachment>
}

/** The first pass: the site's address, the authors and the attachments. */
export async function indexWordPress(file: string): Promise<WordPressIndex> {
  const index: WordPressIndex = { site: '', authors: new Map(), attachments: new Map() }
  for await (const event of readWxr(file)) {
    if (event.kind === 'site') index.site ||= event.link
    else if (event.kind === 'author')
      index.authors.set(event.author.login, {
        key: event.author.login,
        name: event.author.displayName || event.author.login,
      })
    else if (event.item.fields['wp:post_type'] === 'attachment') {
      const { fields, meta } = event.item
      const url = fields['wp:attachment_url'] || fields.guid || ''
      if (url)
        index.attachments.set(fields['wp:post_id'] ?? '', {
          url,
          parent: fields['wp:post_parent'] || undefined,
          alt: meta._wp_attachment_image_alt?.trim() || undefined,
          caption: fields['excerpt:encoded']?.trim() || undefined,
        })
    }
  }
  return index
}

/** The second pass: every item but attachments, as SourceItems. */
export async function* wordPressItems(file: string, index: WordPressIndex): AsyncGenerator<SourceItem> {
  for await (const event of readWxr(file))
    if (event.kind === 'item' && event.item.fields['wp:post_type'] !== 'attachment') yield sourceItem(event.item, index)
}

function sourceItem({ fields, categories, meta }: WxrItem, index: WordPressIndex): SourceItem {
  const field = (name: string) => fields[name]?.trim() ?? ''
  const thumbnail = index.attachments.get(meta._thumbnail_id ?? '')
  const creator = field('dc:creator')
  return {
    id: field('wp:post_id'),
    type: field('wp:post_type') || 'post',
    title: field('title'),
    slug: decodeSlug(field('wp:post_name')),
    status: field('wp:status') || 'draft',
    restricted: field('wp:post_password') !== '',
    published: gmt(field('wp:post_date_gmt')) ?? gmt(field('wp:post_date')),
    updated: gmt(field('wp:post_modified_gmt')) ?? gmt(field('wp:post_modified')),
    link: field('link') || undefined,
    html: (fields['content:encoded'] ?? '') + footnotesOf(meta.footnotes),
    excerpt: fields['excerpt:encoded'] ?? '',
    // Categories and tags alike become tags; WordPress's default category names nothing.
    tags: categories
      .filter((c) => (c.domain === 'category' || c.domain === 'post_tag') && c.nicename !== 'uncategorized')
      .map((c) => c.name || c.nicename),
    authors: creator ? [creator] : [],
    featured: thumbnail,
    seoDescription: meta._yoast_wpseo_metadesc?.trim() || meta.rank_math_description?.trim() || undefined,
    canonical: meta._yoast_wpseo_canonical?.trim() || meta.rank_math_canonical_url?.trim() || undefined,
  }
}

/**
 * WordPress 6.3+ keeps a post's footnotes in its meta (`[{id, content}]`, JSON), the body
 * only their references: as the list the block would show, for the footnote rules.
 */
function footnotesOf(json: string | undefined): string {
  if (!json) return ''
  let notes: unknown
  try {
    notes = JSON.parse(json)
  } catch {
    return ''
  }
  if (!Array.isArray(notes) || !notes.length) return ''
  const items = notes.map(
    (n: { id?: unknown; content?: unknown }) => `<li id="${String(n.id ?? '')}">${String(n.content ?? '')}</li>`,
  )
  return `\n<ol class="wp-block-footnotes">${items.join('')}</ol>`
}

/** `2019-05-01 10:00:00` (GMT) as an RFC 3339 instant; undefined for WordPress's zero date. */
function gmt(value: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value)
  if (!match || match[1]!.startsWith('0000')) return undefined
  return `${match[1]}T${match[2]}Z`
}

/** post_name is URL-encoded for non-ASCII slugs (`caf%c3%a9`). */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug)
  } catch {
    return slug
  }
}

/** The authors of the export that items name, for the report (those it lists without an item are left out). */
export function authorOf(index: WordPressIndex, key: string): SourceAuthor {
  return index.authors.get(key) ?? { key, name: key }
}
