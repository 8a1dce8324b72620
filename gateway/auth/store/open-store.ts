/**
 * Which state store the embedded authorization server uses, from the
 * settings (OAUTH_STORE, OAUTH_STORE_DIR, and NETLIFY_SITE_ID with
 * NETLIFY_AUTH_TOKEN outside Netlify): the gateway and the keys CLI read the
 * same ones.
 */
import { resolve } from 'node:path'
import type { Settings } from '../../../contract/settings.ts'
import { openBlobsStore } from './blobs-store.ts'
import { openFileStore } from './file-store.ts'
import type { Logger } from '../../log.ts'
import type { StateStore } from './state-store.ts'

/** The Blobs store's name within the site. */
export const BLOBS_STORE_NAME = 'oauth-state'

export type StoreSettings =
  | { kind: 'files'; dir: string }
  | { kind: 'netlify-blobs'; name: string; siteID?: string | undefined; token?: string | undefined }

export function storeSettingsFrom(settings: Settings, root = process.cwd()): StoreSettings {
  if (settings.OAUTH_STORE === 'files') return { kind: 'files', dir: resolve(root, settings.OAUTH_STORE_DIR) }
  return {
    kind: 'netlify-blobs',
    name: BLOBS_STORE_NAME,
    siteID: settings.NETLIFY_SITE_ID,
    token: settings.NETLIFY_AUTH_TOKEN,
  }
}

export function openStateStore(settings: StoreSettings): StateStore {
  return settings.kind === 'files' ? openFileStore(settings.dir) : openBlobsStore(settings)
}

const SWEEP_EVERY_MS = 60 * 60 * 1000

/** Expired codes, sessions and grants are deleted when read; a store that can also sweep does so hourly (never holding the process open). */
export function sweepRegularly(store: StateStore, log: Logger): void {
  const { sweep } = store
  if (!sweep) return
  const run = () => {
    sweep.call(store).then(
      (removed) => removed && log('debug', 'expired authorization state removed', { removed }),
      (error: Error) => log('warn', 'could not sweep the authorization state', { error: error.message }),
    )
  }
  setTimeout(run, 10_000).unref()
  setInterval(run, SWEEP_EVERY_MS).unref()
}
