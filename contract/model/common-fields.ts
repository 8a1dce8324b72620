/**
 * The fields every collection has (PRODUCT.md's list: title, slug, summary,
 * tags, the dates, draft, related, image) as JSON Schemas, and the building
 * blocks of the field vocabulary (fields.ts): images, people, instants.
 *
 * These schemas and the ones the vocabulary compiles are the single source of
 * truth for frontmatter: the build validates content with them (ajv) and the
 * OpenAPI document is generated from them, so the two cannot drift.
 */
import type { SchemaObject } from 'ajv'

import {
  ALIAS_PATTERN,
  MAX_ALIAS_LENGTH,
  MAX_DATE_TIME_LENGTH,
  MAX_SLUG_LENGTH,
  MAX_TAG_LENGTH,
  MAX_TIMEZONE_LENGTH,
  MAX_URL_LENGTH,
  SLUG_PATTERN,
  TAG_PATTERN,
} from '../patterns.ts'

const DATE_MESSAGE = 'must be a date like 2026-03-14 or an RFC 3339 date-time with offset like 2026-03-14T09:00:00Z'

/** A calendar date or an RFC 3339 date-time; normalised to a date-time on output. */
export const dateOrDateTime: SchemaObject = {
  type: 'string',
  maxLength: MAX_DATE_TIME_LENGTH,
  anyOf: [{ format: 'date' }, { format: 'date-time' }],
  errorMessage: DATE_MESSAGE,
}

/** An RFC 3339 date-time with an explicit offset (an instant, not a wall-clock time). */
export const dateTime: SchemaObject = {
  type: 'string',
  format: 'date-time',
  maxLength: MAX_DATE_TIME_LENGTH,
  errorMessage: 'must be an RFC 3339 date-time with offset, like 2027-03-04T16:00:00+01:00',
}

export const timezone: SchemaObject = {
  type: 'string',
  format: 'iana-timezone',
  maxLength: MAX_TIMEZONE_LENGTH,
  description: 'IANA time zone name, e.g. Europe/Berlin.',
  errorMessage: 'must be an IANA time zone name like Europe/Berlin',
}

/** An absolute http(s) URL. */
export const httpUrl: SchemaObject = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: MAX_URL_LENGTH }

/**
 * A path relative to the Markdown file (`cover.jpg`, `my-post/cover.jpg`,
 * `../shared/logo.png`): no scheme, not root-relative, no query or fragment.
 */
export const LOCAL_PATH_PATTERN = '^(?![A-Za-z][A-Za-z0-9+.-]*:)(?![/\\\\])[^?#\\\\]+$'

/**
 * The annotation that marks a string as naming an image (`'x-media': 'image'`):
 * the editor at /admin/ gives such a field its image widget, with uploads
 * saved beside the item (contract/admin-fields.ts). ajv knows it as a keyword
 * that validates nothing (build/core/ajv.ts).
 */
export const MEDIA_KEYWORD = 'x-media'

/**
 * The annotation that marks a string as naming an item (`'x-reference'`): the
 * collection of a `reference` field, or `*` for `related` (`collection/slug`).
 * The editor offers the published items there; ajv knows it as a keyword that
 * validates nothing (build/core/ajv.ts).
 */
export const REFERENCE_KEYWORD = 'x-reference'

/** An image: an absolute http(s) URL, or a file next to the Markdown that the build processes. */
export const imageUrl: SchemaObject = {
  type: 'string',
  [MEDIA_KEYWORD]: 'image',
  maxLength: MAX_URL_LENGTH,
  anyOf: [{ format: 'uri', pattern: '^https?://' }, { pattern: LOCAL_PATH_PATTERN }],
  errorMessage:
    'must be an absolute http(s) URL or the path of an image file relative to the Markdown file, like cover.jpg',
}

export const image: SchemaObject = {
  type: 'object',
  required: ['url', 'alt'],
  additionalProperties: false,
  properties: {
    url: {
      ...imageUrl,
      description:
        'An image file relative to the Markdown file (processed into several widths and formats), or an absolute URL used as is.',
    },
    alt: {
      type: 'string',
      minLength: 1,
      maxLength: 300,
      pattern: '\\S',
      description: 'Alternative text; required for accessibility.',
      errorMessage: { pattern: 'must describe the image (not only spaces)' },
    },
  },
}

/** A person's portrait: a local image file or an absolute URL; the person's name is its alt text. */
export const avatarUrl: SchemaObject = {
  ...imageUrl,
  description: 'Portrait: an image file relative to the Markdown file (processed), or an absolute URL.',
}

export const person: SchemaObject = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 120 },
    slug: {
      type: 'string',
      pattern: SLUG_PATTERN,
      maxLength: MAX_SLUG_LENGTH,
      description:
        'Stable identifier of the person across items (`author=` finds them by it); made from the name when omitted (José Núñez → jose-nunez). Give one to keep it when the name changes.',
      errorMessage: { pattern: 'must be lowercase letters, digits and single hyphens, like jose-nunez' },
    },
    title: { type: 'string', minLength: 1, maxLength: 120 },
  },
}

/**
 * Frontmatter fields every collection shares, before its own (`commonTrailing`
 * after them): the order a file lists them in, as people write them, `npm run
 * new` starts them and the editor at /admin/ saves them.
 */
export function commonProperties(collections: readonly string[]): Record<string, SchemaObject> {
  return {
    title: { type: 'string', minLength: 1, maxLength: 200, description: 'Headline.' },
    slug: {
      type: 'string',
      pattern: SLUG_PATTERN,
      maxLength: MAX_SLUG_LENGTH,
      description: 'URL segment; defaults to the file name without .md.',
      errorMessage: { pattern: 'must be lowercase letters, digits and single hyphens, like my-first-post' },
    },
    summary: {
      type: 'string',
      minLength: 1,
      maxLength: 400,
      description: 'One or two sentences for lists and previews; derived from the first paragraph when omitted.',
    },
    tags: {
      type: 'array',
      maxItems: 20,
      uniqueItems: true,
      items: {
        type: 'string',
        pattern: TAG_PATTERN,
        maxLength: MAX_TAG_LENGTH,
        errorMessage: { pattern: 'must be lowercase letters, digits and single hyphens, like data-quality' },
      },
    },
    published_at: {
      ...dateOrDateTime,
      description:
        "When the item is published: one later than the build's clock is scheduled, and public from that instant on (a date means its midnight UTC).",
    },
    updated_at: { ...dateOrDateTime, description: 'Last substantive update; defaults to published_at.' },
    expires_at: {
      ...dateTime,
      description:
        'When the item comes down (a licence ends, an offer closes): from then on it is in no list, feed or search, and the change feed reports it deleted. After published_at; optional.',
    },
    draft: { type: 'boolean', description: 'Drafts are validated but never published.' },
    aliases: {
      type: 'array',
      maxItems: 20,
      uniqueItems: true,
      description:
        "Old addresses of the item that git history does not know: an old slug (answers 301 on the API, like a rename) or an old page path of the marketing site, such as a WordPress import's (/2019/05/my-post/). Each is listed in /api/redirects.",
      items: {
        type: 'string',
        pattern: ALIAS_PATTERN,
        maxLength: MAX_ALIAS_LENGTH,
        errorMessage: {
          pattern: 'must be an old slug (my-old-post) or an old page path starting with / (/2019/05/my-post/)',
        },
      },
    },
    related: {
      type: 'array',
      maxItems: 20,
      uniqueItems: true,
      description: 'Items this one points readers to, as collection/slug; each must be published.',
      items: {
        type: 'string',
        pattern: referencePattern(collections),
        maxLength: 140,
        [REFERENCE_KEYWORD]: '*',
        errorMessage: {
          pattern: `must name an item as collection/slug, like ${collections[0] ?? 'blog-posts'}/my-first-post`,
        },
      },
    },
  }
}

/** A reference to an item of one of `collections`: `collection/slug`, e.g. `blog-posts/my-first-post`. */
export function referencePattern(collections: readonly string[]): string {
  return `^(?:${collections.join('|')})/[a-z0-9]+(?:-[a-z0-9]+)*$`
}

/** Shared fields a file lists after the collection's own. */
export const commonTrailing: Record<string, SchemaObject> = { image }

export const commonRequired = ['title', 'published_at']
