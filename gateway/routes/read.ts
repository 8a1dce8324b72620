/**
 * What every read route of the API does first (method, Accept, the snapshot
 * to answer from), and the headers of a page.
 */
import type { H3Event } from 'h3'
import { linkHeader } from '../../contract/render.ts'
import type { ParameterError } from '../../contract/query.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { assertAccepts, assertMethod, READ_METHODS } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'

/** The media type the read routes require Accept to admit. */
export const JSON_TYPE_NAME = 'application/json'

/** GET or HEAD accepting JSON, and the snapshot to answer from (503 when none is loaded). */
export function readSnapshot(event: H3Event, store: ArtifactStore): Snapshot {
  assertMethod(event, READ_METHODS)
  assertAccepts(event, JSON_TYPE_NAME)
  const snapshot = store.current()
  if (!snapshot)
    throw problem('unavailable', { detail: 'No content build is loaded.', headers: { 'retry-after': '5' } })
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
