/**
 * GET /api/redirects (the build's file), and the answers of an item's old
 * address: 301 to where the item is now, the request's query kept, or 410
 * with the problem naming its tombstone. Both are cacheable like the item
 * was (the next build may change them), capped at the build's next release.
 */
import { defineHandler, type H3Event } from 'h3'
import { FastResponse } from 'srvx'
import type { CollectionName } from '../../contract/model/model.ts'
import { baseHeaderRecord, CACHE, JSON_TYPE, PROBLEM_TYPE } from '../../contract/headers.ts'
import { goneBody, movedTo, REDIRECTS_FILE, type Fate } from '../../contract/redirects.ts'
import { cacheControlAt } from '../../contract/schedule.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { unavailable } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'
import { respondWithFile } from '../http/respond.ts'
import { JSON_TYPE_NAME, readSnapshot } from './read.ts'

export function redirectsRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const file = snapshot.file(REDIRECTS_FILE)
    if (!file) throw unavailable('This build has no redirects; rebuild with `npm run build`.')
    return respondWithFile(event, file, {
      contentType: JSON_TYPE,
      cacheControl: CACHE.content,
      build: { snapshot, now: now().getTime() },
      memo: { accept: JSON_TYPE_NAME },
    })
  })
}

/** The answer of an old address of `collection` (`fate` from the redirects' index). */
export function answerFate(event: H3Event, snapshot: Snapshot, collection: CollectionName, fate: Fate, now: number) {
  const cacheControl = cacheControlAt(CACHE.content, snapshot.manifest.build, now)
  if ('to' in fate) {
    const headers = baseHeaderRecord(requestIdOf(event), JSON_TYPE, cacheControl)
    delete headers['content-type']
    headers.location = `${movedTo(collection, fate)}${event.url.search}`
    return new FastResponse(null, { status: 301, headers })
  }
  const body = goneBody(fate.gone)
  const headers = baseHeaderRecord(requestIdOf(event), PROBLEM_TYPE, cacheControl)
  headers['content-length'] = String(Buffer.byteLength(body))
  return new FastResponse(event.req.method === 'HEAD' ? null : body, { status: 410, headers })
}
