/**
 * Stage 4, derive: turn validated frontmatter and the rendered body into the
 * published record: id, type, url, normalised dates, defaults, summary,
 * reading time, people's slugs. Fields in the API's order (contract/records.ts).
 */
import { createHash } from 'node:crypto'
import { BODY_TREE_VERSION, BodyTreeJson } from '../../contract/body-tree.ts'
import { namesPeople, type Field } from '../../contract/model/fields.ts'
import type { CollectionModel, CollectionName } from '../../contract/model/model.ts'
import { personSlug, type Person } from '../../contract/people.ts'
import { isMultilingual, type SiteConfig } from '../core/site.ts'
import { renderBody, type RenderedBody } from './markdown.ts'
import type { Frontmatter } from './validate.ts'
import {
  COMMON_FIELDS,
  ownFields,
  WORDS_PER_MINUTE,
  type ContentRecord,
  type FullRecord,
} from '../../contract/records.ts'
import type { ImageObject } from '../../contract/media.ts'

const SUMMARY_LENGTH = 240

/** Publication dates become UTC date-times (`2026-03-14` → `2026-03-14T00:00:00Z`), so they sort as strings. */
export function normaliseDate(value: string): string {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value).toISOString().replace('.000Z', 'Z')
}

/** Stable id: the same collection and slug always give the same id. */
export function recordId(collection: CollectionName, slug: string): string {
  return createHash('sha256').update(`${collection}/${slug}`).digest('hex').slice(0, 20)
}

export function deriveRecord(
  collection: CollectionName,
  slug: string,
  data: Frontmatter,
  markdown: string,
  rendered: RenderedBody,
  site: SiteConfig,
  locale: string = site.language,
): FullRecord {
  const published = normaliseDate(data.published_at)
  const translated = locale !== site.language
  const def = site.collections[collection]!
  const record: FullRecord = {
    // A translation's id and page are its locale's: `/de/blog/<its slug>` on the marketing site.
    id: recordId(collection, translated ? `${locale}/${slug}` : slug),
    type: def.type,
    slug,
    title: data.title,
    summary: (data.summary as string | undefined) ?? truncate(rendered.first_paragraph, SUMMARY_LENGTH),
    url: `${site.url}${translated ? `/${locale.toLowerCase()}` : ''}${def.path}/${slug}`,
    tags: (data.tags as string[] | undefined) ?? [],
    published_at: published,
    updated_at: typeof data.updated_at === 'string' ? normaliseDate(data.updated_at) : published,
    expires_at: typeof data.expires_at === 'string' ? normaliseDate(data.expires_at) : null,
    image: externalImage(data.image as { url: string; alt: string } | undefined),
    social_image: data.image ? { url: (data.image as { url: string }).url, width: null, height: null } : null,
    related: [],
    reading_time_minutes: 0,
    word_count: 0,
    body: { html: '', markdown: '', text: '', tree: { version: BODY_TREE_VERSION, children: [] } },
    toc: [],
  }
  // Rebuild in output order: common fields, collection fields, then body metrics.
  const ordered: Record<string, unknown> = {}
  for (const key of COMMON_FIELDS) ordered[key] = record[key]
  // A multilingual site's records say their locale and name their translations (build/compiler/locales.ts fills them).
  if (isMultilingual(site)) {
    ordered.locale = locale
    ordered.translations = []
  }
  for (const [field, fallback] of ownFields(def))
    ordered[field] = recordValue(def.fields[field]!, data[field], fallback)
  // Resolved by the compiler once every item is known (build/compiler/link.ts).
  ordered.related = []
  ordered.reading_time_minutes = Math.max(1, Math.ceil(rendered.word_count / WORDS_PER_MINUTE))
  ordered.word_count = rendered.word_count
  ordered.body = {
    html: rendered.html,
    markdown: markdown.trim(),
    text: rendered.text,
    tree: new BodyTreeJson(rendered.tree_json),
  }
  ordered.toc = rendered.toc
  return ordered as FullRecord
}

type PersonEntry = { name: string; slug?: string } & Record<string, unknown>

/**
 * A field's value in the record: as written, or its fallback; people with
 * their slugs, Markdown rendered like the body, an image as an image object
 * (media-record.ts processes a local one), and a reference left for the
 * link stage to resolve (build/compiler/link.ts).
 */
function recordValue(field: Field, value: unknown, fallback: unknown): unknown {
  if (namesPeople(field))
    return field.type === 'list'
      ? withSlugs(value as PersonEntry[] | undefined)
      : value
        ? withSlugs([value as PersonEntry])[0]
        : null
  if (field.type === 'list' && field.of && Array.isArray(value))
    return field.of.type === 'reference' ? [] : value.map((item) => recordValue(field.of!, item, null))
  if (value === undefined || value === null) return fallback
  switch (field.type) {
    case 'markdown': {
      const rendered = renderBody(String(value)).rendered
      return { html: rendered?.html ?? '', markdown: String(value).trim(), text: rendered?.text ?? '' }
    }
    case 'image':
      return externalImage(value as { url: string; alt: string })
    case 'reference':
      return null
    default:
      return value
  }
}

/** People as the records carry them: each with a slug (the file's, else one made from the name) after the name. */
function withSlugs(people: readonly PersonEntry[] | undefined): Person[] {
  return (people ?? []).map(({ name, slug, ...rest }) => ({ name, slug: slug ?? personSlug(name), ...rest }))
}

/**
 * The image object as written: an external URL is used as is (never
 * downloaded, so no size, placeholder or sources); a local file's object is
 * made once it is processed (media-record.ts), and so is every social image.
 */
function externalImage(image: { url: string; alt: string } | undefined): ImageObject | null {
  if (!image) return null
  return { url: image.url, alt: image.alt, width: null, height: null, placeholder: null, sources: [] }
}

const summaries = new WeakMap<FullRecord, ContentRecord>()

/** The list form of a record: everything but the body, its toc, its metrics and the related items (one object per record). */
export function toSummary(record: FullRecord): ContentRecord {
  let summary = summaries.get(record)
  if (!summary) {
    const { body: _body, related: _related, reading_time_minutes: _rt, word_count: _wc, toc: _toc, ...rest } = record
    summaries.set(record, (summary = rest as ContentRecord))
  }
  return summary
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`
}

/**
 * Where `record` goes in `records` (sorted by sortRecords): the index of the
 * first record it sorts before; undefined when its date does not parse.
 */
export function sortedIndex(
  collection: CollectionModel,
  records: readonly ContentRecord[],
  record: ContentRecord,
): number | undefined {
  const field = collection.sortField
  const time = Date.parse(record[field] as string)
  if (Number.isNaN(time)) return undefined
  let low = 0
  let high = records.length
  while (low < high) {
    const mid = (low + high) >>> 1
    const other = records[mid]!
    const otherTime = Date.parse(other[field] as string)
    const before = otherTime > time || (otherTime === time && other.slug < record.slug)
    if (before) low = mid + 1
    else high = mid
  }
  return low
}

/** Sort newest first by the collection's sort field; ties broken by slug so order is total. */
export function sortRecords<T extends ContentRecord>(collection: CollectionModel, records: T[]): T[] {
  const field = collection.sortField
  // Each date parsed once, not on every comparison.
  const keyed = records.map((record) => ({ record, time: Date.parse(record[field] as string) }))
  keyed.sort((a, b) => b.time - a.time || (a.record.slug < b.record.slug ? -1 : a.record.slug > b.record.slug ? 1 : 0))
  return keyed.map((k) => k.record)
}
