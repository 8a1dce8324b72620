/**
 * The people of the published content, worked out one way for the gateway
 * (GET /api/people, /api/people/{slug}) and the MCP tools: everyone an item
 * names in a field of type `person` (one person, or a list of them: each
 * collection's `people` in the content model, such as blog posts' authors or
 * a webinar's speakers), by their slug (contract/people.ts), with a profile
 * from their mentions and their items.
 */
import type { CollectionName, ContentModel } from './model/model.ts'
import { filterHref, type RecordFilter } from './filters.ts'
import { recordMatcher } from './list-query.ts'
import type { ImageObject } from './media.ts'
import { PEOPLE_PATH } from './public-paths.ts'
import type { ContentRecord } from './records.ts'
import type { ListLinks, ListMeta } from './render.ts'

/** The fields of `collection` that name people (`{name, slug, …}`, or a list of them): its fields of type person. */
export function personFields(model: ContentModel, collection: CollectionName): readonly string[] {
  return model.collections[collection]?.people ?? []
}

/** The people a record's `field` names: a list of them, or one person. */
function mentionsIn(value: unknown): Mention[] {
  if (Array.isArray(value)) return value as Mention[]
  return value && typeof value === 'object' ? [value as Mention] : []
}

/** A person as items name them: the newest mention that says each thing wins. */
export interface PersonEntry {
  slug: string
  name: string
  title: string | null
  company: string | null
  /** Their portrait, processed like the items' images; null when no mention has one. */
  avatar: ImageObject | null
  /** From their profile; null without one (items carry none today). */
  bio: string | null
  /** Items naming them, in the collections counted. */
  count: number
  /** Per collection counted, in the collections' order. */
  counts: Partial<Record<CollectionName, number>>
  href: string
}

export interface PeopleEnvelope {
  data: PersonEntry[]
  meta: { count: number }
}

/** A person's profile, then a page of their items (summaries with their `type`), newest first. */
export interface PersonItemsEnvelope {
  person: PersonEntry
  data: ContentRecord[]
  meta: ListMeta
  links: ListLinks
}

export interface PersonQuery extends Pick<RecordFilter, 'updatedSince' | 'publishedAfter' | 'publishedBefore'> {
  limit: number
  page: number
  locale?: string
}

type Mention = { name?: unknown; slug?: unknown; title?: unknown; company?: unknown; avatar?: unknown; bio?: unknown }

interface PersonItems {
  /** Newest first, by `published_at`. */
  items: { record: ContentRecord; collection: CollectionName }[]
  entry: Omit<PersonEntry, 'count' | 'counts' | 'href'>
}

/** A locale's people, by slug. */
export type PeopleIndex = ReadonlyMap<string, PersonItems>

export function peopleIndex(
  model: ContentModel,
  summariesOf: (collection: CollectionName) => readonly ContentRecord[],
): PeopleIndex {
  const all: { record: ContentRecord; collection: CollectionName; rank: number }[] = []
  for (const [rank, collection] of model.names.entries())
    for (const record of summariesOf(collection)) all.push({ record, collection, rank })
  all.sort((a, b) => Date.parse(b.record.published_at) - Date.parse(a.record.published_at) || a.rank - b.rank)
  const index = new Map<string, PersonItems>()
  for (const { record, collection } of all) {
    const named = new Set<string>()
    for (const field of personFields(model, collection))
      for (const mention of mentionsIn(record[field])) {
        if (typeof mention.slug !== 'string' || typeof mention.name !== 'string') continue
        let person = index.get(mention.slug)
        if (!person) {
          const entry = { slug: mention.slug, name: mention.name, title: null, company: null, avatar: null, bio: null }
          index.set(mention.slug, (person = { items: [], entry }))
        }
        const { entry } = person
        // Newest first: fill what the newer mentions left unsaid.
        entry.title ??= typeof mention.title === 'string' ? mention.title : null
        entry.company ??= typeof mention.company === 'string' ? mention.company : null
        entry.avatar ??= mention.avatar && typeof mention.avatar === 'object' ? (mention.avatar as ImageObject) : null
        entry.bio ??= typeof mention.bio === 'string' ? mention.bio : null
        if (!named.has(mention.slug)) person.items.push({ record, collection })
        named.add(mention.slug)
      }
  }
  return index
}

const localeQuery = (locale: string | undefined) => (locale === undefined ? '' : `?locale=${locale}`)

/** The entry of `person`, counting `collections` only (every one of the model's, or the one `collection=` names). */
export function personEntry(person: PersonItems, collections: readonly CollectionName[], locale?: string): PersonEntry {
  const counts: Partial<Record<CollectionName, number>> = {}
  for (const c of collections) counts[c] = 0
  for (const { collection } of person.items) if (collection in counts) counts[collection]! += 1
  const count = Object.values(counts).reduce<number>((n, k) => n + (k ?? 0), 0)
  return { ...person.entry, count, counts, href: `${PEOPLE_PATH}/${person.entry.slug}${localeQuery(locale)}` }
}

const NAMES = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

/** `GET /api/people[?collection=…]`: everyone named in the collections counted, by name. */
export function peopleEnvelope(
  model: ContentModel,
  index: PeopleIndex,
  collection?: CollectionName,
  locale?: string,
): PeopleEnvelope {
  const collections = collection ? [collection] : model.names
  const data = [...index.values()]
    .map((person) => personEntry(person, collections, locale))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => NAMES.compare(a.name, b.name) || (a.slug < b.slug ? -1 : 1))
  return { data, meta: { count: data.length } }
}

export function personHref(slug: string, query: PersonQuery): string {
  let href = `${PEOPLE_PATH}/${slug}?limit=${query.limit}`
  if (query.page !== 1) href += `&page=${query.page}`
  href += filterHref(query)
  if (query.locale !== undefined) href += `&locale=${query.locale}`
  return href
}

/** `GET /api/people/{slug}`: the profile and a page of the items naming them. */
export function personItemsEnvelope(model: ContentModel, person: PersonItems, query: PersonQuery): PersonItemsEnvelope {
  // Only the date filters: no `author` (the person is the filter) and no `when`, so no clock.
  const matches = recordMatcher(query, 0, [])
  const records = person.items.map((i) => i.record)
  const kept = matches ? records.filter(matches) : records
  const pages = Math.ceil(kept.length / query.limit)
  const start = (query.page - 1) * query.limit
  const data = kept.slice(start, start + query.limit)
  const prevPage = Math.min(query.page - 1, pages)
  const slug = person.entry.slug
  return {
    person: personEntry(person, model.names, query.locale),
    data,
    meta: { limit: query.limit, page: query.page, count: data.length, total: kept.length, pages },
    links: {
      self: personHref(slug, query),
      next: query.page < pages ? personHref(slug, { ...query, page: query.page + 1 }) : null,
      prev: prevPage >= 1 ? personHref(slug, { ...query, page: prevPage }) : null,
    },
  }
}
