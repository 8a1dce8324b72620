/**
 * The fan-out cursor of a change feed: the position up to which every change
 * has been queued for the subscriptions. It is kept as write-once records, one
 * per position reached, `webhooks/cursor/<position>` for the default locale's
 * feed and `webhooks/locale-cursor/<locale>/<position>` for each other
 * locale's of a multilingual site, and the cursor is the greatest of them. A write can only add a record, never replace one, so the
 * cursor only moves forward whoever writes late (a dispatcher whose lease ran
 * out, an instance that froze midway): no compare-and-set is needed, and the
 * files and Blobs stores both have the write-once `create`. Records below the
 * newest are deleted once it is written.
 *
 * A fan-out that stops before the end of its build (its deadline, a lost
 * lease) writes where it got to, with the position it started from: the one
 * that resumes classifies the rest against that same start, so the events are
 * those an uninterrupted fan-out would have queued, with the same ids.
 */
import { comparePositions, encodeCursor, type Position } from '../../contract/changes.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import { positionKey } from './queue.ts'

const PREFIX = 'webhooks/cursor/'
const LOCALE_PREFIX = 'webhooks/locale-cursor/'

export interface CursorRecord {
  /** Every change up to here is queued. */
  position: Position
  cursor: string
  /** Where the fan-out in progress began; equal to `position` once it is complete. */
  from: Position
  build_id: string
  at: string
}

/** `locale`: another locale's feed than the default one (its cursors name it), undefined for the default's. */
export function cursorRecord(
  position: Position,
  from: Position,
  buildId: string,
  at: number,
  locale?: string,
): CursorRecord {
  return { position, cursor: encodeCursor(position, locale), from, build_id: buildId, at: new Date(at).toISOString() }
}

/** Whether the record marks a fan-out stopped midway. */
export function inProgress(record: CursorRecord): boolean {
  return comparePositions(record.from, record.position) < 0
}

/** The cursor of the default locale's feed, or of `locale`'s (another locale of a multilingual site). */
export function openCursor(store: StateStore, locale?: string) {
  const prefix = locale === undefined ? PREFIX : `${LOCALE_PREFIX}${locale}/`
  const keyOf = (position: Position) => `${prefix}${positionKey(position.time, position.seq)}`
  const legacyKey = locale === undefined ? 'webhooks/cursor' : `${LOCALE_PREFIX}${locale}`
  return {
    /** The cursor, or undefined before the first build was seen. */
    async read(): Promise<CursorRecord | undefined> {
      for (const key of (await store.list(prefix)).reverse()) {
        const record = await store.get<CursorRecord>(key)
        if (record) return record
      }
      // A store written before the records (one record a feed, overwritten): where it left off.
      const legacy = await store.get<Omit<CursorRecord, 'from'>>(legacyKey)
      return legacy && { ...legacy, from: legacy.position }
    },
    /** Record that the fan-out reached `record.position`; the cursor moves only if that is past it. */
    async advance(record: CursorRecord): Promise<void> {
      const key = keyOf(record.position)
      await store.create(key, record)
      for (const older of await store.list(prefix)) if (older < key) await store.delete(older)
    },
  }
}
