/**
 * What an export says of an item, one shape for WordPress and Ghost: the
 * readers (wxr-reader.ts, ghost-reader.ts) make it, the mapping
 * (map-item.ts) turns it into a file of ours.
 */

/** Where an item comes from: the export's kind and its own id, recorded in the file written. */
export type ExportKind = 'wordpress' | 'ghost'

export interface SourceAuthor {
  /** The export's key for them: a WordPress login, a Ghost user id. */
  key: string
  name: string
  /** Their portrait, as the export names it (a URL). */
  avatar?: string
}

export interface SourceImage {
  url: string
  alt?: string
  caption?: string
}

export interface SourceItem {
  id: string
  /** `post`, `page` or a custom post type. */
  type: string
  title: string
  /** The export's slug; may be empty (a draft WordPress never named). */
  slug: string
  /** publish, future, draft, pending, private (Ghost: published, scheduled, draft). */
  status: string
  /** Password-protected (WordPress) or for members only (Ghost): not for a public API. */
  restricted: boolean
  /** Instants, ISO 8601 in UTC; undefined when the export has none (a draft's zero date). */
  published?: string
  updated?: string
  /** The item's address on the old site (absolute), when the export gives one. */
  link?: string
  /** The body: HTML (WordPress, with shortcodes and block comments; Ghost's rendered html). */
  html: string
  excerpt: string
  tags: string[]
  authors: string[]
  featured?: SourceImage
  /** SEO plugin fields (Yoast, Rank Math) or Ghost's meta. */
  seoDescription?: string
  canonical?: string
}

/** An attachment or image the export knows by id (WordPress galleries and featured images name them so). */
export interface SourceAttachment {
  url: string
  /** The item it was uploaded to (a `[gallery]` without ids shows its item's). */
  parent?: string
  alt?: string
  caption?: string
}
