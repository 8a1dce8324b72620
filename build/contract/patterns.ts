/** The syntax of slugs and tags: the schemas validate content with it, the gateway checks paths and queries with it. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
export const TAG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
