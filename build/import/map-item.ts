/**
 * One exported item as a file of ours: its collection and slug, its
 * frontmatter (dates, status, summary, tags, authors, image, aliases,
 * canonical URL) and its Markdown body. What it cannot map it says, for
 * the report: an item it skips has a reason, an item it maps may have notes.
 */
import type { CollectionModel } from '../../contract/model/model.ts'
import { slugify } from '../core/slug.ts'
import { plainText } from './plain-text.ts'
import type { SourceAuthor, SourceItem } from './source-item.ts'

/** What becomes of an item: a file to write, or the reason it is skipped. */
export type Mapped = { skip: string } | { frontmatter: Record<string, unknown>; notes: string[] }

export interface MapContext {
  collection: CollectionModel
  slug: string
  author(key: string): SourceAuthor
  /** A portrait's path or URL as the file names it; undefined when there is none to name. */
  avatar(author: SourceAuthor): string | undefined
  /** The featured image's address as the file names it; undefined when it has none the API can use. */
  image(src: string): string | undefined
  /** The item's old address as a path on the old site (`/2019/05/my-post/`), when it has one. */
  oldPath?: string
  fallbackAlt(src: string): string
}

const PUBLISHED = new Set(['publish', 'published'])
const SCHEDULED = new Set(['future', 'scheduled'])
const DRAFT = new Set(['draft', 'pending', 'private', 'sent'])

/** At most `max` characters, cut at a word with an ellipsis. */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`
}

export function mapItem(item: SourceItem, context: MapContext): Mapped {
  const notes: string[] = []
  const status = item.status.toLowerCase()
  if (!PUBLISHED.has(status) && !SCHEDULED.has(status) && !DRAFT.has(status))
    return { skip: `its status is ${item.status || 'empty'}` }
  const title = bounded(plainText(item.title) || item.slug || `Untitled ${item.type} ${item.id}`, 200)
  const published = item.published ?? item.updated
  if (!published) return { skip: 'it has no date' }
  const frontmatter: Record<string, unknown> = { title, published_at: published }
  if (item.updated && item.updated > published) frontmatter.updated_at = item.updated
  const summary = plainText(item.seoDescription ?? '') || plainText(item.excerpt)
  if (summary) frontmatter.summary = bounded(summary, 400)
  const tags = [...new Set(item.tags.map((t) => slugify(t).slice(0, 50).replace(/-+$/, '')).filter(Boolean))]
  if (tags.length > 20) notes.push(`${tags.length} tags, of which the first 20 are kept`)
  if (tags.length) frontmatter.tags = tags.slice(0, 20)
  const people = context.collection.people[0]
  if (people) {
    const field = context.collection.fields[people]
    const authors = item.authors.map((key) => {
      const author = context.author(key)
      const avatar = context.avatar(author)
      return { name: bounded(author.name, 120), ...(avatar && { avatar_url: avatar }) }
    })
    if (!authors.length && field?.required) return { skip: `it names no author, and ${people} is required` }
    if (authors.length) frontmatter[people] = field?.type === 'list' ? authors.slice(0, field.max ?? 10) : authors[0]
  }
  const image = item.featured && context.image(item.featured.url)
  if (item.featured && image) {
    const alt =
      plainText(item.featured.alt ?? '') ||
      plainText(item.featured.caption ?? '') ||
      context.fallbackAlt(item.featured.url)
    frontmatter.image = { url: image, alt: bounded(alt, 300) }
  }
  if (item.restricted) {
    frontmatter.draft = true
    notes.push('password-protected or for members only: imported as a draft, since the API is public')
  } else if (DRAFT.has(status)) frontmatter.draft = true
  const aliases = []
  const newPath = `${context.collection.path}/${context.slug}`
  if (context.oldPath && context.oldPath !== newPath && context.oldPath !== `${newPath}/`) aliases.push(context.oldPath)
  const oldSlug = slugify(item.slug)
  if (oldSlug && oldSlug !== context.slug) aliases.push(oldSlug)
  if (aliases.length) frontmatter.aliases = aliases
  if (item.canonical && context.collection.fields.canonical_url && !sameAddress(item.canonical, item.link))
    frontmatter.canonical_url = item.canonical
  return { frontmatter, notes }
}

/** Whether two URLs name the same page (a canonical URL that is the item's own says nothing). */
export function sameAddress(a: string, b: string | undefined): boolean {
  const norm = (url: string) => url.replace(/^https?:\/\/(www\.)?/, '').replace(/\/+$/, '')
  return b !== undefined && norm(a) === norm(b)
}

/** The slug a new file gets: the export's, else one made from the title, else the type and id. */
export function slugOf(item: SourceItem): string {
  return slugify(item.slug) || slugify(plainText(item.title)) || `${slugify(item.type) || 'item'}-${item.id}`
}

/** Whether the item will be public once imported (what a published item may link to). */
export function isPublic(item: SourceItem): boolean {
  return PUBLISHED.has(item.status.toLowerCase()) && !item.restricted
}
