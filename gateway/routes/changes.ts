/**
 * GET /api/changes: the change feed. The first page is the build's
 * pre-rendered file; `?since=<cursor>` and `?limit=` are rendered here from
 * the build's change log with the same renderer, and cached per build.
 */
import { defineHandler } from 'h3'
import {
  CHANGE_LOG_FILE,
  CHANGE_LOG_FORMAT,
  CHANGES_FILE,
  changesHref,
  isFirstChangesPage,
  parseChangesQuery,
  renderChanges,
  type ChangeLog,
} from '../../contract/changes.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { MemoKey } from '../snapshot.ts'
import { unavailable } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { invalidParameters, JSON_TYPE_NAME, readSnapshot } from './read.ts'

/** `now`: the gateway's clock, which caps Cache-Control at the build's next release or expiry. */
export function changesRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const build = { snapshot, now: now().getTime() }
    const parsed = parseChangesQuery(event.url.searchParams)
    if (!parsed.ok) throw invalidParameters(parsed.errors)
    const { query } = parsed
    const first = isFirstChangesPage(query) ? snapshot.file(CHANGES_FILE) : undefined
    if (first)
      return respondWithFile(event, first, {
        contentType: JSON_TYPE,
        cacheControl: CACHE.content,
        build,
        memo: { accept: JSON_TYPE_NAME },
      })
    return changeLog(snapshot).then((log) => {
      const file = snapshot.rendered(changesHref(query), () => ({
        body: renderChanges(log, (c, slug) => snapshot.bySlug[c].get(slug), query),
      }))
      return respondWithFile(event, file, {
        contentType: JSON_TYPE,
        cacheControl: CACHE.content,
        build,
        memo: { accept: JSON_TYPE_NAME },
      })
    })
  })
}

const CHANGE_LOG = new MemoKey<Promise<ChangeLog>>('change log')

/** The build's change log, read and parsed once per snapshot; 503 for a build without one (or whose file is gone). */
// A failed read may succeed later (a transient error): it is not remembered.
const changeLog = (snapshot: Snapshot) => snapshot.load(CHANGE_LOG, () => parseChangeLog(snapshot))

async function parseChangeLog(snapshot: Snapshot): Promise<ChangeLog> {
  const found = snapshot.file(CHANGE_LOG_FILE)
  const file = found && (await Promise.resolve(found).catch(() => undefined))
  const log = file ? (JSON.parse(file.body.toString('utf8')) as ChangeLog) : undefined
  if (log?.format !== CHANGE_LOG_FORMAT || !Array.isArray(log.changes))
    throw unavailable(`This build has no change log (${CHANGE_LOG_FILE}); rebuild with \`npm run build\`.`)
  return log
}
