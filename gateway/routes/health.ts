/** GET /api/health: the build being served, never cached (its body made once per build); 503 when no build can be served. */
import { defineHandler } from 'h3'
import { FastResponse } from 'srvx'
import type { ArtifactStore, Snapshot, StoredFile } from '../artifacts.ts'
import { remember } from '../http/respond.ts'
import { baseHeaderRecord, CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { assertMethod, READ_METHODS } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'

/** The health body of each build, made once. */
const bodies = new WeakMap<Snapshot, StoredFile>()

function healthOf(snapshot: Snapshot, version: string): StoredFile {
  let file = bodies.get(snapshot)
  if (!file) {
    const { id, content_updated_at, counts, next_release_at = null } = snapshot.manifest.build
    const body = { status: 'ok', version, build: { id, content_updated_at, counts, next_release_at } }
    file = { body: Buffer.from(JSON.stringify(body)), etag: '' }
    bodies.set(snapshot, file)
  }
  return file
}

export function healthRoute(store: ArtifactStore, version: string) {
  return defineHandler((event) => {
    assertMethod(event, READ_METHODS)
    const snapshot = store.current()
    const failure = store.lastError()
    if (!snapshot || failure) {
      throw problem('unavailable', {
        detail: failure ? withoutServerPaths(failure.message, store.distDir) : 'No content build is loaded.',
        headers: { 'cache-control': CACHE.none, 'retry-after': '5' },
      })
    }
    const file = healthOf(snapshot, version)
    const headers = baseHeaderRecord(requestIdOf(event), JSON_TYPE, CACHE.none)
    headers['content-length'] = String(file.body.byteLength)
    // The same request is answered from here on by the fast path, while no reload fails (http/fast-reads.ts).
    remember(event, file, headers, { snapshot }, false)
    // Written straight to the socket, like every read answer (see http/respond.ts).
    return new FastResponse(event.req.method === 'HEAD' ? null : (file.body as Uint8Array<ArrayBuffer>), { headers })
  })
}

/** A load failure as the public may read it: the build folder named `dist`, never the server's path to it. */
function withoutServerPaths(message: string, distDir: string): string {
  return message.split(distDir).join('dist')
}
