/**
 * Tags across collections, worked out one way for the build (which writes
 * the pre-rendered answers) and the gateway (the long tail): every tag of
 * the published items of one locale, with its count per collection and in
 * total, and a tag's items across collections, newest first by
 * `published_at`. A tag's label and description are the site's (site.yaml's
 * `tags:`); an undeclared tag is its own label.
 */
import type { CollectionName, ContentModel } from './model/model.ts'
import { filterHref, type RecordFilter } from './filters.ts'
import { recordMatcher } from './list-query.ts'
import { TAGS_PATH } from './public-paths.ts'
import type { ContentRecord } from './records.ts'
import type { ListLinks, ListMeta } from './render.ts'

/** What the site says of a tag: its label, and a description where it gives one. */
export interface TagLabel {
  label: string
  description: string | null
}

/** The declared labels the gateway reads for the answers it renders (`/api/tags/{tag}` past its first page). */
export const TAG_LABELS_FILE = '_build/tags.json'
export const TAG_LABELS_FORMAT = 1

export interface TagLabelsFile {
  format: typeof TAG_LABELS_FORMAT
  tags: Record<string, TagLabel>
}

/** One tag of the published content: what it is called, how many items carry it, where its items are. */
export interface TagEntry {
  tag: string
  label: string
  description: string | null
  /** Items with the tag in the collections counted. */
  count: number
  /** Per collection counted (every one, or the one `collection` names), in the collections' order. */
  counts: Partial<Record<CollectionName, number>>
  /** Its items: `/api/tags/{tag}` (with the locale asked for). */
  href: string
}

export interface TagsEnvelope {
  data: TagEntry[]
  meta: { count: number }
}

/** A tag's items: the tag, then a page of their summaries (each with its `type`), the list envelope's meta and links. */
export interface TagItemsEnvelope {
  tag: TagEntry
  data: ContentRecord[]
  meta: ListMeta
  links: ListLinks
}

/** `/api/tags/{tag}`'s query: the page and the filters that apply to every collection. */
export interface TagQuery
  extends Pick<RecordFilter, 'updatedSince' | 'publishedAfter' | 'publishedBefore' | 'exclude'> {
  limit: number
  page: number
  /** A multilingual site's locale other than the default (the links keep it). */
  locale?: string
}

/** Where the pre-rendered answers live: `api/_tags/` (slugs and tags never start with `_`), a locale's under `api/_locales/<tag>/`. */
const folder = (locale?: string) => (locale === undefined ? 'api/_tags' : `api/_locales/${locale}/_tags`)

/** `GET /api/tags` (`collection` undefined) and `?collection=<c>`. */
export function tagsFile(collection: string | undefined, locale?: string): string {
  return `${folder(locale)}/_index/${collection ?? 'all'}.json`
}

/** Page 1 of a tag's items at `limit`. */
export function tagItemsFile(tag: string, limit: number, locale?: string): string {
  return `${folder(locale)}/${tag}/limit-${limit}.json`
}

/** The summaries of one locale, per collection. */
export type SummariesOf = (collection: CollectionName) => readonly ContentRecord[]

/** A locale's tags: per tag, its items per collection (each in its collection's order). */
export type TagIndex = ReadonlyMap<string, ReadonlyMap<CollectionName, readonly ContentRecord[]>>

export function tagIndex(model: ContentModel, summariesOf: SummariesOf): TagIndex {
  const index = new Map<string, Map<CollectionName, ContentRecord[]>>()
  for (const collection of model.names)
    for (const record of summariesOf(collection))
      for (const tag of new Set(record.tags)) {
        let byCollection = index.get(tag)
        if (!byCollection) index.set(tag, (byCollection = new Map()))
        const list = byCollection.get(collection)
        if (list) list.push(record)
        else byCollection.set(collection, [record])
      }
  return index
}

const localeQuery = (locale: string | undefined) => (locale === undefined ? '' : `?locale=${locale}`)

/** The entry of `tag`, counting `collections` only (every one of the model's, or the one `collection=` names). */
export function tagEntry(
  index: TagIndex,
  labels: Readonly<Record<string, TagLabel>>,
  tag: string,
  collections: readonly CollectionName[],
  locale?: string,
): TagEntry {
  const counts: Partial<Record<CollectionName, number>> = {}
  let count = 0
  for (const collection of collections) {
    const n = index.get(tag)?.get(collection)?.length ?? 0
    counts[collection] = n
    count += n
  }
  const declared = labels[tag]
  return {
    tag,
    label: declared?.label ?? tag,
    description: declared?.description ?? null,
    count,
    counts,
    href: `${TAGS_PATH}/${tag}${localeQuery(locale)}`,
  }
}

/** `GET /api/tags[?collection=…]`: every tag with an item in the collections counted, by count (highest first), then name. */
export function tagsEnvelope(
  model: ContentModel,
  index: TagIndex,
  labels: Readonly<Record<string, TagLabel>>,
  collection: CollectionName | undefined,
  locale?: string,
): TagsEnvelope {
  const collections = collection ? [collection] : model.names
  const data = [...index.keys()]
    .map((tag) => tagEntry(index, labels, tag, collections, locale))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))
  return { data, meta: { count: data.length } }
}

/** A tag's items across collections, newest first by `published_at` (ties in the collections' order, then by slug). */
export function tagItems(model: ContentModel, index: TagIndex, tag: string): ContentRecord[] {
  const byCollection = index.get(tag)
  if (!byCollection) return []
  const keyed: { record: ContentRecord; time: number; rank: number }[] = []
  for (const [rank, collection] of model.names.entries())
    for (const record of byCollection.get(collection) ?? [])
      keyed.push({ record, time: Date.parse(record.published_at), rank })
  keyed.sort(
    (a, b) =>
      b.time - a.time ||
      a.rank - b.rank ||
      (a.record.slug < b.record.slug ? -1 : a.record.slug > b.record.slug ? 1 : 0),
  )
  return keyed.map((k) => k.record)
}

/** Canonical href of a tag's page: limit always, page when not 1, then each filter. */
export function tagHref(tag: string, query: TagQuery): string {
  let href = `${TAGS_PATH}/${tag}?limit=${query.limit}`
  if (query.page !== 1) href += `&page=${query.page}`
  href += filterHref(query)
  if (query.locale !== undefined) href += `&locale=${query.locale}`
  return href
}

/** Whether a file answers the query: page 1, no filter, at a pre-rendered limit. */
export function isPrerenderedTagPage(query: TagQuery, limits: readonly number[]): boolean {
  return (
    query.page === 1 &&
    query.updatedSince === undefined &&
    query.publishedAfter === undefined &&
    query.publishedBefore === undefined &&
    query.exclude === undefined &&
    limits.includes(query.limit)
  )
}

/** The answer of `/api/tags/{tag}` (the tag must have items: else there is no such page). */
export function tagItemsEnvelope(entry: TagEntry, items: readonly ContentRecord[], query: TagQuery): TagItemsEnvelope {
  // The filters of every collection: no `author` or `when`, so no people fields and no clock.
  const matches = recordMatcher(query, 0, [])
  const kept = matches ? items.filter(matches) : items
  const pages = Math.ceil(kept.length / query.limit)
  const start = (query.page - 1) * query.limit
  const data = kept.slice(start, start + query.limit)
  const prevPage = Math.min(query.page - 1, pages)
  return {
    tag: entry,
    data,
    meta: { limit: query.limit, page: query.page, count: data.length, total: kept.length, pages },
    links: {
      self: tagHref(entry.tag, query),
      next: query.page < pages ? tagHref(entry.tag, { ...query, page: query.page + 1 }) : null,
      prev: prevPage >= 1 ? tagHref(entry.tag, { ...query, page: prevPage }) : null,
    },
  }
}
