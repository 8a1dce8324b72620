/** The syntax of slugs and tags: the schemas validate content with it, the gateway checks paths and queries with it. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
export const TAG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
/** A reference to an item: `collection/slug`, e.g. `blog-posts/my-first-post`. */
export const REFERENCE_PATTERN = '^(?:blog-posts|case-studies|webinars|events)/[a-z0-9]+(?:-[a-z0-9]+)*$'

export const MAX_SLUG_LENGTH = 120
export const MAX_TAG_LENGTH = 50
/** Longest URL anywhere in content, records and answers (links, images, canonical pages). */
export const MAX_URL_LENGTH = 2000
/** Longest RFC 3339 date-time: `2026-03-14T09:00:00.123456789+01:00` (nine digits of a second, an offset). */
export const MAX_DATE_TIME_LENGTH = 35
/** Longer than any IANA time zone name (the longest, America/Argentina/ComodRivadavia, has 32 characters). */
export const MAX_TIMEZONE_LENGTH = 64

/** An item's alias (`aliases:`): an old slug, or an old page path of the marketing site (no query, fragment or space). */
export const ALIAS_PATTERN = '^(?:[a-z0-9]+(?:-[a-z0-9]+)*|/[^\\s?#]*)$'
export const MAX_ALIAS_LENGTH = 300
