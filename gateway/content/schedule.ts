/**
 * What a `when=upcoming|past` answer depends on besides the build: the
 * request's clock. Its items change only when an item starts, so an answer
 * is rendered once per window between two starts (the window's index goes
 * in its cache key), kept by caches no longer than its window lasts
 * (Cache-Control capped at the next start), and repeated by the fast path
 * only over the part of its window where its headers stay the same.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import { CACHE, CONTENT_LIFETIME_SECONDS, contentCacheUntil } from '../../contract/headers.ts'
import { scheduleWindow, startTimes } from '../../contract/list-query.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'

/** One memo key per set of collections (a list's one, or search's two). */
const STARTS = new Map<string, MemoKey<number[]>>()

function startsOf(snapshot: Snapshot, collections: readonly CollectionName[]): number[] {
  const name = collections.join(',')
  let key = STARTS.get(name)
  if (!key) STARTS.set(name, (key = new MemoKey<number[]>(`starts of ${name}`)))
  return snapshot.memo(key, () => startTimes(collections.flatMap((c) => snapshot.summaries(c))))
}

export interface Timed {
  /** Added to the answer's cache key: the same within a window, another after the next start. */
  key: string
  /** CACHE.content, capped at the next start. */
  cacheControl: string
  /**
   * While the next start is further away than any cache keeps an answer,
   * every request of the window gets the same bytes and headers: the fast
   * path may repeat the answer over that stretch (epoch ms, `until` excluded).
   */
  repeatable?: { from: number; until: number }
}

/** The window `now` (epoch ms) is in, among the starts of `collections` in this build. */
export function timed(snapshot: Snapshot, collections: readonly CollectionName[], now: number): Timed {
  const { index, since, changesAt } = scheduleWindow(startsOf(snapshot, collections), now)
  const cacheControl = contentCacheUntil(now, changesAt)
  const timed: Timed = { key: `\0when@${index}`, cacheControl }
  if (cacheControl === CACHE.content)
    timed.repeatable = {
      from: since ?? -Infinity,
      until: changesAt === undefined ? Infinity : changesAt - CONTENT_LIFETIME_SECONDS * 1000,
    }
  return timed
}
