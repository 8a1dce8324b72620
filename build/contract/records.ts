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
