/** GET /api/health: the build being served, never cached; 503 when no build can be served. */
import { defineHandler } from 'h3'
import { FastResponse } from 'srvx'
import type { ArtifactStore } from '../artifacts.ts'
import { baseHeaderRecord, CACHE, JSON_TYPE } from '../../build/contract/headers.ts'
import { assertMethod, READ_METHODS } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'

export function healthRoute(store: ArtifactStore, version: string) {
  return defineHandler((event) => {
    assertMethod(event, READ_METHODS)
    const snapshot = store.current()
    const failure = store.lastError()
    if (!snapshot || failure) {
      throw problem('unavailable', {
        detail: failure?.message ?? 'No content build is loaded.',
        headers: { 'cache-control': CACHE.none, 'retry-after': '5' },
      })
    }
    const { id, built_at, counts } = snapshot.manifest.build
    const body = JSON.stringify({ status: 'ok', version, build: { id, built_at, counts } })
    const headers = baseHeaderRecord(requestIdOf(event), JSON_TYPE, CACHE.none)
    headers['content-length'] = String(Buffer.byteLength(body))
    // Written straight to the socket, like every read answer (see http/respond.ts).
    return new FastResponse(event.req.method === 'HEAD' ? null : body, { headers })
  })
}
