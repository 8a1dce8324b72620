import type { SchemaObject } from 'ajv'
import {
  avatarUrl,
  commonProperties,
  commonRequired,
  commonTrailing,
  dateTime,
  httpUrl,
  person,
  timezone,
} from './common.ts'

/** Frontmatter of a webinar (schema.org Event with online attendance). */
export const webinarSchema: SchemaObject = {
  $id: 'webinar.frontmatter',
  title: 'Webinar frontmatter',
  type: 'object',
  additionalProperties: false,
  required: [...commonRequired, 'starts_at', 'duration_minutes', 'timezone', 'speakers'],
  properties: {
    ...commonProperties,
    starts_at: { ...dateTime, description: 'Start instant, RFC 3339 with offset.' },
    duration_minutes: { type: 'integer', format: 'int32', minimum: 5, maximum: 1440 },
    timezone: { ...timezone, description: 'IANA time zone the webinar is announced in.' },
    speakers: {
      type: 'array',
      minItems: 1,
      maxItems: 12,
      items: {
        ...person,
        properties: {
          ...person.properties,
          company: { type: 'string', minLength: 1, maxLength: 120 },
          avatar_url: avatarUrl,
        },
      },
    },
    registration_url: httpUrl,
    recording_url: httpUrl,
    ...commonTrailing,
  },
}
