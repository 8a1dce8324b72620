/** The syntax of slugs and tags: the schemas validate content with it, the gateway checks paths and queries with it. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
export const TAG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
/** A reference to an item: `collection/slug`, e.g. `blog-posts/my-first-post`. */
export const REFERENCE_PATTERN = '^(?:blog-posts|case-studies|webinars|events)/[a-z0-9]+(?:-[a-z0-9]+)*$'
