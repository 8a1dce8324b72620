/** A minimal published record for tests of code that sorts, filters and picks records. */
import type { ContentRecord } from '../../contract/records.ts'

/**
 * An event record named `slug`, published 2026-01-01, with `extra` fields over it.
 *
 * @example eventRecord('launch', { starts_at: '2027-01-01T10:00:00Z' })
 */
export const eventRecord = (slug: string, extra: Record<string, unknown> = {}): ContentRecord => ({
  id: slug,
  type: 'event',
  slug,
  title: slug,
  tags: [],
  published_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...extra,
})
