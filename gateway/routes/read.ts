/**
 * What every read route of the API does first (Accept, the snapshot to
 * answer from; the method is the route table's, checked where it is
 * mounted), and the headers of a page.
 */
import type { H3Event } from 'h3'
import { linkHeader } from '../../contract/render.ts'
import type { ParameterError } from '../../contract/query-values.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { assertAccepts } from '../http/negotiate.ts'
import { problem, unavailable } from '../http/problem.ts'

/** The media type the read routes require Accept to admit. */
export const JSON_TYPE_NAME = 'application/json'

/** The snapshot to answer a read accepting JSON from (503 when none is loaded). */
export function readSnapshot(event: H3Event, store: ArtifactStore): Snapshot {
  assertAccepts(event, JSON_TYPE_NAME)
  return currentSnapshot(store)
}

/** The snapshot to answer from, or the 503 of a gateway without a build. */
export function currentSnapshot(store: ArtifactStore): Snapshot {
  const snapshot = store.current()
  if (!snapshot) throw unavailable()
  return snapshot
}

/** 400 naming every invalid parameter. */
export function invalidParameters(errors: readonly ParameterError[]): Error {
  return problem('invalid-parameter', {
    detail: errors.map((e) => `${e.parameter} ${e.message}`).join('; '),
    errors: [...errors],
  })
}

/** X-Total-Count and Link (next/prev) of a page. */
export function pageHeaders(
  total: number,
  links: { next: string | null; prev: string | null },
): Record<string, string> {
  const headers: Record<string, string> = { 'x-total-count': String(total) }
  const link = linkHeader(links)
  if (link) headers.link = link
  return headers
}
