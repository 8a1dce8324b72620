import type { SchemaObject } from 'ajv'
import { commonProperties, commonRequired, commonTrailing, dateTime, httpUrl, speaker, timezone } from './common.ts'

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
      items: speaker,
    },
    registration_url: httpUrl,
    recording_url: httpUrl,
    ...commonTrailing,
  },
}
