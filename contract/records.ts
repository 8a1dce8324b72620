/**
 * The published record: what the API answers for an item (`FullRecord`) and
 * in lists (`ContentRecord`, no body). Field order is set by
 * build/pipeline/derive.ts, which makes them.
 */
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
  body: { html: string; markdown: string; text: string }
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
