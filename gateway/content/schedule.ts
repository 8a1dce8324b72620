/**
 * What a `when=upcoming|past` answer depends on besides the build: the
 * request's clock. Its items change only when an item starts, so an answer
 * is rendered once per window between two starts (the window's index goes
 * in its cache key), kept by caches no longer than its window lasts
 * (Cache-Control capped at the next start), and never remembered by the fast
 * path, which knows nothing of time.
 */
import type { CollectionName } from '../../contract/collections.ts'
import { contentCacheUntil } from '../../contract/headers.ts'
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
}

/** The window `now` (epoch ms) is in, among the starts of `collections` in this build. */
export function timed(snapshot: Snapshot, collections: readonly CollectionName[], now: number): Timed {
  const { index, changesAt } = scheduleWindow(startsOf(snapshot, collections), now)
  return { key: `\0when@${index}`, cacheControl: contentCacheUntil(now, changesAt) }
}
