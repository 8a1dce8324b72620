/**
 * GET /api/changes: the change feed. The first page is the build's
 * pre-rendered file; `?since=<cursor>` and `?limit=` are rendered here from
 * the build's change log with the same renderer, and cached per build.
 */
import { defineHandler } from 'h3'
import {
  CHANGE_LOG_FILE, CHANGE_LOG_FORMAT, CHANGES_FILE, changesHref, isFirstChangesPage, parseChangesQuery, renderChanges, type ChangeLog,
} from '../../build/contract/changes.ts'
import { CACHE, JSON_TYPE } from '../../build/contract/headers.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { invalidParameters, readSnapshot, rendered } from './read.ts'

const logs = new WeakMap<Snapshot, ChangeLog>()

export function changesRoute(store: ArtifactStore) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const parsed = parseChangesQuery(event.url.searchParams)
    if (!parsed.ok) throw invalidParameters(parsed.errors)
    const { query } = parsed
    const first = isFirstChangesPage(query) ? snapshot.files.get(CHANGES_FILE) : undefined
    const file = first ?? rendered(snapshot, changesHref(query), () => renderChanges(changeLog(snapshot), (c, slug) => snapshot.bySlug[c].get(slug), query))
    return respondWithFile(event, file, { contentType: JSON_TYPE, cacheControl: CACHE.content })
  })
}

/** The build's change log, read once per snapshot; 503 for a build without one. */
function changeLog(snapshot: Snapshot): ChangeLog {
  let log = logs.get(snapshot)
  if (log) return log
  const file = snapshot.files.get(CHANGE_LOG_FILE)
  log = file ? (JSON.parse(file.body.toString('utf8')) as ChangeLog) : undefined
  if (log?.format !== CHANGE_LOG_FORMAT || !Array.isArray(log.changes)) {
    throw problem('unavailable', { detail: `This build has no change log (${CHANGE_LOG_FILE}); rebuild with \`npm run build\`.`, headers: { 'retry-after': '5' } })
  }
  logs.set(snapshot, log)
  return log
}
