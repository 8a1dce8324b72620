/**
 * The Blobs store's sweep. A listing says nothing of a record's expiry, so a
 * sweep reads each one; given a time budget, it stops and the next sweep
 * resumes after the last key it read.
 */
import type { Store } from '@netlify/blobs'
import { fromRecord, isExpired, toRecord } from './state-store.ts'

/** Where a sweep that ran out of time stopped (an escaped key). */
export const SWEEP_CURSOR = 'sweep/cursor'
/** Records read at once by a sweep. */
const SWEEP_CONCURRENCY = 8
const DAY_SECONDS = 24 * 60 * 60

export async function sweepBlobs(store: Store, now: () => number, budgetMs: number): Promise<number> {
  const started = performance.now()
  const keys: string[] = []
  for await (const page of store.list({ paginate: true }))
    keys.push(...page.blobs.map((b) => b.key).filter((k) => k !== SWEEP_CURSOR))
  keys.sort()
  // From the key after the last one read, to the end; the sweep after that starts again at the beginning.
  const cursor = fromRecord<string>(await readJson(store, SWEEP_CURSOR), now())
  const order = cursor === undefined ? keys : keys.filter((k) => k > cursor)
  let removed = 0
  for (let i = 0; i < order.length; i += SWEEP_CONCURRENCY) {
    if (i > 0 && performance.now() - started >= budgetMs) {
      await store.setJSON(SWEEP_CURSOR, toRecord(order[i - 1], DAY_SECONDS, now()))
      return removed
    }
    const batch = order.slice(i, i + SWEEP_CONCURRENCY)
    const expired = await Promise.all(batch.map(async (k) => isExpired(await readJson(store, k), now())))
    // A record written again between the read and the delete goes too: the provider never reuses an id, and
    // a failed-authentication window at worst starts over.
    await Promise.all(batch.filter((_, n) => expired[n]).map((k) => store.delete(k)))
    removed += expired.filter(Boolean).length
  }
  if (cursor !== undefined) await store.delete(SWEEP_CURSOR)
  return removed
}

/** A record as JSON, or undefined when it is missing or not JSON (not ours to judge). */
export async function readJson(store: Store, key: string): Promise<unknown> {
  try {
    return ((await store.get(key, { type: 'json' })) as unknown) ?? undefined
  } catch (error) {
    if (error instanceof SyntaxError) return undefined
    throw error
  }
}
