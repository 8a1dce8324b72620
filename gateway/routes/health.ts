/** GET /api/health: the build being served and its next scheduled release or expiry, never cached (its body made once per build); 503 when no build can be served. */
import { defineHandler } from 'h3'
import { FastResponse } from 'srvx'
import type { ArtifactStore, StoredFile } from '../artifacts.ts'
import { MemoKey } from '../snapshot.ts'
import { remember } from '../http/respond.ts'
import { baseHeaderRecord, CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { unavailable } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'
import { API_VERSION } from '../../contract/lifecycle.ts'

export function healthRoute(store: ArtifactStore) {
  // The body of each build, made once.
  const body = new MemoKey<StoredFile>('health')
  return defineHandler((event) => {
    const snapshot = store.current()
    const failure = store.lastError()
    if (!snapshot || failure)
      throw unavailable(failure ? withoutServerPaths(failure.message, store.distDir) : undefined)
    const file = snapshot.memo(body, () => {
      const { id, content_updated_at, counts, next_release_at = null } = snapshot.manifest.build
      const build = { id, content_updated_at, counts, next_release_at }
      const health = { status: 'ok', version: API_VERSION, build }
      return { body: Buffer.from(JSON.stringify(health)), etag: '' }
    })
    const headers = baseHeaderRecord(requestIdOf(event), JSON_TYPE, CACHE.none)
    headers['content-length'] = String(file.body.byteLength)
    // The same request is answered from here on by the fast path, while no reload fails (http/fast-reads.ts).
    remember(event, file, headers, { snapshot }, undefined, false)
    // Written straight to the socket, like every read answer (see http/respond.ts).
    return new FastResponse(event.req.method === 'HEAD' ? null : (file.body as Uint8Array<ArrayBuffer>), { headers })
  })
}

/** A load failure as the public may read it: the build folder named `dist`, never the server's path to it. */
function withoutServerPaths(message: string, distDir: string): string {
  return message.split(distDir).join('dist')
}
