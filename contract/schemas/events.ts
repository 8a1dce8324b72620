import type { SchemaObject } from 'ajv'
import { commonProperties, commonRequired, commonTrailing, dateTime, httpUrl, speaker, timezone } from './common.ts'

const text = (max: number): SchemaObject => ({ type: 'string', minLength: 1, maxLength: max })

/** Frontmatter of an event (schema.org Event). */
export const eventSchema: SchemaObject = {
  $id: 'event.frontmatter',
  title: 'Event frontmatter',
  type: 'object',
  additionalProperties: false,
  required: [...commonRequired, 'starts_at', 'ends_at', 'timezone', 'attendance_mode'],
  properties: {
    ...commonProperties,
    starts_at: { ...dateTime, description: 'Start instant, RFC 3339 with offset.' },
    ends_at: { ...dateTime, description: 'End instant, RFC 3339 with offset; not before starts_at.' },
    timezone: { ...timezone, description: 'IANA time zone of the venue (or of the organiser when online).' },
    attendance_mode: { enum: ['in_person', 'online', 'hybrid'] },
    event_status: {
      enum: ['scheduled', 'cancelled', 'postponed', 'rescheduled'],
      description: 'Defaults to scheduled.',
    },
    location: {
      type: 'object',
      additionalProperties: false,
      required: ['venue', 'city', 'country'],
      description: 'Required unless attendance_mode is online.',
      properties: {
        venue: text(160),
        city: text(80),
        country: { ...text(80), description: 'Country name or ISO 3166 code.' },
        region: { ...text(80), description: 'Sales region, e.g. "EMEA", "North America".' },
      },
    },
    online_url: httpUrl,
    registration_url: httpUrl,
    speakers: {
      type: 'array',
      maxItems: 40,
      description: 'Who speaks or hosts, where the event names them.',
      items: speaker,
    },
    ...commonTrailing,
  },
  // An event people travel to must say where it is.
  if: { properties: { attendance_mode: { enum: ['in_person', 'hybrid'] } }, required: ['attendance_mode'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
  then: {
    required: ['location'],
    errorMessage: { required: { location: 'is required unless attendance_mode is online' } },
  },
}
