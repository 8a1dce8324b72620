/**
 * GET /api/health, readiness: the build being served, its next scheduled release or expiry, and
 * which state store the gateway uses; never cached (its body made once per build). 503 when no build
 * can be served, or when the state store cannot be reached (Redis down): a load balancer sends the
 * gateway no traffic until it is back. GET /api/health/live, liveness: 200 while the process
 * answers, whatever the build or the store, so a container is never restarted for a Redis outage.
 */
import { defineHandler } from 'h3'
import { FastResponse } from 'srvx'
import type { ArtifactStore, StoredFile } from '../artifacts.ts'
import type { StoreHealth } from '../auth/store/open-store.ts'
import { MemoKey } from '../snapshot.ts'
import { remember } from '../http/respond.ts'
import { baseHeaderRecord, CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { unavailable } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'
import { API_VERSION } from '../../contract/lifecycle.ts'

/** How long a load balancer waits before asking again while the store is down. */
const STORE_DOWN_RETRY_SECONDS = 5

export function healthRoute(store: ArtifactStore, state: StoreHealth = { kind: 'files' }) {
  // The body of each build, made once.
  const body = new MemoKey<StoredFile>('health')
  return defineHandler((event) => {
    const snapshot = store.current()
    const failure = store.lastError()
    if (!snapshot || failure)
      throw unavailable(failure ? withoutServerPaths(failure.message, store.distDir) : undefined)
    if (state.reachable && !state.reachable())
      throw unavailable(
        `The state store (${state.kind}) cannot be reached: what needs it (credentials, authorizations, webhooks) is refused until it is back; pre-rendered answers are served meanwhile.`,
        STORE_DOWN_RETRY_SECONDS,
      )
    const file = snapshot.memo(body, () => {
      const { id, content_updated_at, counts, next_release_at = null } = snapshot.manifest.build
      const build = { id, content_updated_at, counts, next_release_at }
      const health = { status: 'ok', version: API_VERSION, store: state.kind, build }
      return { body: Buffer.from(JSON.stringify(health)), etag: '' }
    })
    const headers = baseHeaderRecord(requestIdOf(event), JSON_TYPE, CACHE.none)
    headers['content-length'] = String(file.body.byteLength)
    // The same request is answered from here on by the fast path, while no reload fails (http/fast-reads.ts),
    // unless the store's reachability must be asked each time.
    if (!state.reachable) remember(event, file, headers, { snapshot }, undefined, false)
    // Written straight to the socket, like every read answer (see http/respond.ts).
    return new FastResponse(event.req.method === 'HEAD' ? null : (file.body as Uint8Array<ArrayBuffer>), { headers })
  })
}

const LIVE = Buffer.from(JSON.stringify({ status: 'live' }))

export function livenessRoute() {
  return defineHandler((event) => {
    const headers = baseHeaderRecord(requestIdOf(event), JSON_TYPE, CACHE.none)
    headers['content-length'] = String(LIVE.byteLength)
    return new FastResponse(event.req.method === 'HEAD' ? null : (LIVE as Uint8Array<ArrayBuffer>), { headers })
  })
}

/** A load failure as the public may read it: the build folder named `dist`, never the server's path to it. */
function withoutServerPaths(message: string, distDir: string): string {
  return message.split(distDir).join('dist')
}
