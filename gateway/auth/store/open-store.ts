/**
 * Which state store the embedded authorization server uses, from the
 * settings (STATE_STORE, OAUTH_STORE_DIR, NETLIFY_SITE_ID with
 * NETLIFY_AUTH_TOKEN outside Netlify, REDIS_URL and REDIS_KEY_PREFIX): the
 * gateway and the keys CLI read the same ones.
 */
import { resolve } from 'node:path'
import type { Settings } from '../../../contract/settings.ts'
import { openBlobsStore } from './blobs-store.ts'
import { openFileStore } from './file-store.ts'
import { redisConnection } from './redis-connection.ts'
import { openRedisStore } from './redis-store.ts'
import type { Logger } from '../../log.ts'
import type { StateStore } from './state-store.ts'

/** The Blobs store's name within the site. */
export const BLOBS_STORE_NAME = 'oauth-state'

export type StoreSettings =
  | { kind: 'files'; dir: string }
  | { kind: 'netlify-blobs'; name: string; siteID?: string | undefined; token?: string | undefined }
  | { kind: 'redis'; url: string; prefix: string }

export function storeSettingsFrom(settings: Settings, root = process.cwd()): StoreSettings {
  if (settings.STATE_STORE === 'files') return { kind: 'files', dir: resolve(root, settings.OAUTH_STORE_DIR) }
  // readSettings has refused STATE_STORE=redis without REDIS_URL.
  if (settings.STATE_STORE === 'redis')
    return { kind: 'redis', url: settings.REDIS_URL!, prefix: settings.REDIS_KEY_PREFIX }
  return {
    kind: 'netlify-blobs',
    name: BLOBS_STORE_NAME,
    siteID: settings.NETLIFY_SITE_ID,
    token: settings.NETLIFY_AUTH_TOKEN,
  }
}

/** `now`: the store's clock in milliseconds (the platform's, so tests can move it). */
export function openStateStore(settings: StoreSettings, now?: () => number): StateStore {
  if (settings.kind === 'files') return openFileStore(settings.dir, { now })
  if (settings.kind === 'redis') return openRedisStore({ ...settings, ...(now ? { now } : {}) })
  return openBlobsStore({ ...settings, ...(now ? { now } : {}) })
}

/** Which store, and whether it can be reached now (the readiness /api/health reports). */
export interface StoreHealth {
  kind: StoreSettings['kind']
  /** Undefined where the store has no connection to lose (files, Netlify Blobs): each request finds out. */
  reachable?: () => boolean
}

export function storeHealth(settings: StoreSettings): StoreHealth {
  if (settings.kind !== 'redis') return { kind: settings.kind }
  const connection = redisConnection(settings.url)
  return { kind: 'redis', reachable: connection.reachable }
}

const SWEEP_EVERY_MS = 60 * 60 * 1000

/**
 * Expired records (interactions, codes, sessions, grants, unused clients,
 * failed-authentication windows) are deleted when read; a long-running
 * gateway also sweeps its store hourly, one sweep at a time, never holding
 * the process open. On Netlify the scheduled function does it instead.
 */
export function sweepRegularly(store: StateStore, log: Logger): void {
  let running = false
  const run = () => {
    if (running) return
    running = true
    store
      .sweep()
      .then(
        (removed) => removed && log('info', 'expired authorization state removed', { removed, store: store.location }),
        (error: Error) => log('warn', 'could not sweep the authorization state', { error: error.message }),
      )
      .finally(() => (running = false))
  }
  setTimeout(run, 10_000).unref()
  setInterval(run, SWEEP_EVERY_MS).unref()
}
