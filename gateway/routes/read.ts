/**
 * What every read route of the API does first (method, Accept, the snapshot
 * to answer from), and the bounded per-snapshot cache of answers the gateway
 * renders itself.
 */
import type { H3Event } from 'h3'
import { etagOf } from '../../build/contract/etag.ts'
import { linkHeader } from '../../build/contract/render.ts'
import type { ParameterError } from '../../build/contract/query.ts'
import type { ArtifactStore, Snapshot, StoredFile } from '../artifacts.ts'
import { assertAccepts, assertMethod, READ_METHODS } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'

const RENDERED_CACHE_SIZE = 2000

/** GET or HEAD accepting JSON, and the snapshot to answer from (503 when none is loaded). */
export function readSnapshot(event: H3Event, store: ArtifactStore): Snapshot {
  assertMethod(event, READ_METHODS)
  assertAccepts(event, 'application/json')
  const snapshot = store.current()
  if (!snapshot) throw problem('unavailable', { detail: 'No content build is loaded.', headers: { 'retry-after': '5' } })
  return snapshot
}

/** 400 naming every invalid parameter. */
export function invalidParameters(errors: readonly ParameterError[]): Error {
  return problem('invalid-parameter', { detail: errors.map((e) => `${e.parameter} ${e.message}`).join('; '), errors: [...errors] })
}

/** The answer rendered for `key` (a canonical href) in this snapshot, rendered once. */
export function rendered(snapshot: Snapshot, key: string, render: () => string): StoredFile {
  const cached = snapshot.rendered.get(key)
  if (cached) return cached
  const body = Buffer.from(render())
  const file = { body, etag: etagOf(body) }
  if (snapshot.rendered.size >= RENDERED_CACHE_SIZE) snapshot.rendered.delete(snapshot.rendered.keys().next().value!)
  snapshot.rendered.set(key, file)
  return file
}

/** X-Total-Count and Link (next/prev) of a page. */
export function pageHeaders(total: number, links: { next: string | null; prev: string | null }): Record<string, string> {
  const headers: Record<string, string> = { 'x-total-count': String(total) }
  const link = linkHeader(links)
  if (link) headers.link = link
  return headers
}
