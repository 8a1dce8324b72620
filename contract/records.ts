/**
 * The published record: what the API answers for an item (`FullRecord`) and
 * in lists (`ContentRecord`, no body), and its fields in the order the API
 * writes them. build/pipeline/derive.ts makes records in that order; `fields=`
 * picks among them.
 */
import type { BodyTree, BodyTreeJson } from './body-tree.ts'
import { fallbackOf } from './model/fields.ts'
import type { CollectionModel } from './model/model.ts'

export type ContentRecord = Record<string, unknown> & {
  id: string
  type: string
  slug: string
  title: string
  tags: string[]
  published_at: string
  updated_at: string
  /** A multilingual site's records: the locale it is written in (BCP 47). */
  locale?: string
  /** A multilingual site's records: the item's other locales, for hreflang. */
  translations?: Translation[]
}

/** One other locale of an item: its locale, its slug there, its page on the marketing site. */
export interface Translation {
  locale: string
  slug: string
  url: string
}

/** An item another one points to (`related` in its frontmatter), resolved. */
export interface RelatedItem {
  collection: string
  slug: string
  title: string
  url: string
}

export interface FullRecord extends ContentRecord {
  related: RelatedItem[]
  reading_time_minutes: number
  word_count: number
  /** `tree` as its JSON text in the build's records (BodyTreeJson); the nodes in those read from dist/. */
  body: { html: string; markdown: string; text: string; tree: BodyTree | BodyTreeJson }
  /** The body's headings in order; each `id` is the heading's `id` in `body.html` (`url#id` links to it). */
  toc: TocEntry[]
}

/** A heading of a body: its level (1–6), its text and its anchor. */
export interface TocEntry {
  depth: number
  text: string
  id: string
}

/**
 * The most a body may hold, checked by the build (an author error naming the
 * file) and stated as bounds in the OpenAPI document.
 */
export const BODY_LIMITS = {
  /** Characters of Markdown source. */
  markdown: 200_000,
  /** Characters of the rendered, sanitised HTML. */
  html: 1_000_000,
  /** Characters of the plain text. */
  text: 200_000,
  words: 50_000,
} as const

export const WORDS_PER_MINUTE = 230
/** The longest reading time a body within BODY_LIMITS can have. */
export const MAX_READING_TIME_MINUTES = Math.ceil(BODY_LIMITS.words / WORDS_PER_MINUTE)

/** The fields every record starts with, in output order. */
export const COMMON_FIELDS = [
  'id',
  'type',
  'slug',
  'title',
  'summary',
  'url',
  'tags',
  'published_at',
  'updated_at',
  'expires_at',
  'image',
  'social_image',
] as const

/** A collection's own fields in output order, each with its value when the file has none. */
export function ownFields(collection: CollectionModel): readonly (readonly [field: string, fallback: unknown])[] {
  let own = OWN.get(collection)
  if (!own) {
    own = Object.entries(collection.fields).map(([name, field]) => [name, fallbackOf(field)] as const)
    OWN.set(collection, own)
  }
  return own
}

const OWN = new WeakMap<CollectionModel, readonly (readonly [string, unknown])[]>()

/** What the full record adds to the list form, in output order. */
export const FULL_ONLY_FIELDS = ['related', 'reading_time_minutes', 'word_count', 'body', 'toc'] as const

/** The fields of a collection's records in output order: the list form's (`summary`), or the item's (`full`). */
export function recordFields(collection: CollectionModel, form: 'summary' | 'full'): readonly string[] {
  const summary = [...COMMON_FIELDS, ...Object.keys(collection.fields)]
  return form === 'summary' ? summary : [...summary, ...FULL_ONLY_FIELDS]
}

/** What a multilingual site's records add (their locale, and their translations for hreflang). */
export const LOCALE_FIELDS = ['locale', 'translations'] as const

/**
 * The fields `fields=` may name: the records' own and a multilingual site's locale fields (a
 * single-language site's records have none, so naming them there selects nothing).
 */
export function selectableFields(collection: CollectionModel, form: 'summary' | 'full'): readonly string[] {
  return [...recordFields(collection, form), ...LOCALE_FIELDS]
}
