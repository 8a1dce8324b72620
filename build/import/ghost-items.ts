/**
 * A Ghost export's posts and pages as SourceItems: authors and tags through
 * the join tables, the SEO fields of posts_meta (or of the post, in older
 * exports), and a body from the rendered `html`, or from the Lexical or
 * Mobiledoc document when the export has no html (ghost-cards.ts).
 */
import { ghostRows, ghostTables, type GhostRow, text } from './ghost-reader.ts'
import { lexicalToHtml, mobiledocToHtml } from './ghost-cards.ts'
import type { SourceAuthor, SourceItem } from './source-item.ts'

export interface GhostIndex {
  authors: Map<string, SourceAuthor>
  tags: Map<string, { name: string; internal: boolean }>
  postTags: Map<string, string[]>
  postAuthors: Map<string, string[]>
  meta: Map<string, GhostRow>
}

/** The small tables: users, tags, the joins and posts_meta, in one pass over the file. */
export async function indexGhost(file: string): Promise<GhostIndex> {
  const tables = await ghostTables(file, ['users', 'tags', 'posts_tags', 'posts_authors', 'posts_meta'])
  const authors = new Map<string, SourceAuthor>()
  for (const user of tables.users)
    authors.set(text(user, 'id'), {
      key: text(user, 'id'),
      name: text(user, 'name') || text(user, 'slug'),
      avatar: text(user, 'profile_image') || undefined,
    })
  const tags = new Map<string, { name: string; internal: boolean }>()
  for (const tag of tables.tags)
    tags.set(text(tag, 'id'), {
      name: text(tag, 'slug') || text(tag, 'name'),
      // `#hashtag` tags are Ghost's internal ones (theme switches), not topics.
      internal: text(tag, 'visibility') === 'internal' || text(tag, 'name').startsWith('#'),
    })
  return {
    authors,
    tags,
    postTags: joined(tables.posts_tags, 'tag_id'),
    postAuthors: joined(tables.posts_authors, 'author_id'),
    meta: new Map(tables.posts_meta.map((row) => [text(row, 'post_id'), row])),
  }
}

function joined(rows: GhostRow[], key: string): Map<string, string[]> {
  rows.sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0))
  const out = new Map<string, string[]>()
  for (const row of rows) out.set(text(row, 'post_id'), [...(out.get(text(row, 'post_id')) ?? []), text(row, key)])
  return out
}

/** The posts and pages, one row at a time. */
export async function* ghostItems(file: string, index: GhostIndex): AsyncGenerator<SourceItem> {
  for await (const post of ghostRows(file, 'posts')) yield sourceItem(post, index)
}

function sourceItem(post: GhostRow, index: GhostIndex): SourceItem {
  const id = text(post, 'id')
  const meta = index.meta.get(id) ?? {}
  const either = (key: string) => text(meta, key) || text(post, key)
  const authors = index.postAuthors.get(id) ?? (text(post, 'author_id') ? [text(post, 'author_id')] : [])
  const image = text(post, 'feature_image')
  return {
    id,
    type: text(post, 'type') || 'post',
    title: text(post, 'title'),
    slug: text(post, 'slug'),
    status: text(post, 'status') || 'draft',
    restricted: (text(post, 'visibility') || 'public') !== 'public',
    published: instant(text(post, 'published_at')) ?? instant(text(post, 'created_at')),
    updated: instant(text(post, 'updated_at')),
    // Ghost's default permalinks are /{slug}/ (routes.yaml may have said otherwise: --map cannot know).
    link: text(post, 'slug') ? `__GHOST_URL__/${text(post, 'slug')}/` : undefined,
    html: bodyOf(post),
    excerpt: text(post, 'custom_excerpt'),
    tags: (index.postTags.get(id) ?? []).flatMap((tagId) => {
      const tag = index.tags.get(tagId)
      return tag && !tag.internal ? [tag.name] : []
    }),
    authors,
    featured: image
      ? {
          url: image,
          alt: either('feature_image_alt') || undefined,
          caption: either('feature_image_caption') || undefined,
        }
      : undefined,
    seoDescription: either('meta_description') || undefined,
    canonical: either('canonical_url') || undefined,
  }
}

function bodyOf(post: GhostRow): string {
  const html = text(post, 'html')
  if (html) return html
  if (text(post, 'lexical')) return lexicalToHtml(text(post, 'lexical'))
  if (text(post, 'mobiledoc')) return mobiledocToHtml(text(post, 'mobiledoc'))
  return ''
}

/** Ghost's `2024-01-15T10:00:00.000Z` (or `2024-01-15 10:00:00`) as an RFC 3339 instant. */
function instant(value: string): string | undefined {
  if (!value) return undefined
  const time = Date.parse(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`)
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().replace('.000Z', 'Z')
}
