/**
 * Building blocks shared by the four collection schemas.
 *
 * These JSON Schemas are the single source of truth for frontmatter: the build
 * validates content with them (ajv) and the OpenAPI document is generated from
 * them, so the two cannot drift.
 */
import type { SchemaObject } from 'ajv'

import {
  MAX_DATE_TIME_LENGTH,
  MAX_SLUG_LENGTH,
  MAX_TAG_LENGTH,
  MAX_TIMEZONE_LENGTH,
  MAX_URL_LENGTH,
  REFERENCE_PATTERN,
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

export const httpUrl: SchemaObject = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: MAX_URL_LENGTH }

export const image: SchemaObject = {
  type: 'object',
  required: ['url', 'alt'],
  additionalProperties: false,
  properties: {
    url: { ...httpUrl, description: 'Absolute URL of the image.' },
    alt: { type: 'string', minLength: 1, maxLength: 300, description: 'Alternative text; required for accessibility.' },
  },
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

/** Frontmatter fields every collection shares. */
export const commonProperties: Record<string, SchemaObject> = {
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
  published_at: { ...dateOrDateTime, description: 'When the item was (or will be) published.' },
  updated_at: { ...dateOrDateTime, description: 'Last substantive update; defaults to published_at.' },
  image,
  related: {
    type: 'array',
    maxItems: 20,
    uniqueItems: true,
    description: 'Items this one points readers to, as collection/slug; each must be published.',
    items: {
      type: 'string',
      pattern: REFERENCE_PATTERN,
      maxLength: 140,
      errorMessage: { pattern: 'must name an item as collection/slug, like blog-posts/my-first-post' },
    },
  },
  draft: { type: 'boolean', description: 'Drafts are validated but never published.' },
}

export const commonRequired = ['title', 'published_at']
