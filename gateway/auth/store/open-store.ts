/**
 * Which state store the embedded authorization server uses, from the
 * environment (the gateway and the keys CLI read the same settings):
 *
 * OAUTH_STORE       `files` (default) or `netlify-blobs` (the Netlify Function's default)
 * OAUTH_STORE_DIR   the folder for `files` (default gateway/.data/oauth, git-ignored)
 * NETLIFY_SITE_ID, NETLIFY_AUTH_TOKEN   for `netlify-blobs` outside Netlify (the CLI)
 */
import { resolve } from 'node:path'
import { AuthConfigError } from '../errors.ts'
import { openBlobsStore } from './blobs-store.ts'
import { openFileStore } from './file-store.ts'
import type { StateStore } from './state-store.ts'

export const DEFAULT_STORE_DIR = 'gateway/.data/oauth'
/** The Blobs store's name within the site. */
export const BLOBS_STORE_NAME = 'oauth-state'

export type StoreSettings =
  | { kind: 'files'; dir: string }
  | { kind: 'netlify-blobs'; name: string; siteID?: string | undefined; token?: string | undefined }

export function readStoreSettings(env: NodeJS.ProcessEnv, root = process.cwd()): StoreSettings {
  const kind = env.OAUTH_STORE || 'files'
  if (kind === 'files') return { kind, dir: resolve(root, env.OAUTH_STORE_DIR || DEFAULT_STORE_DIR) }
  if (kind === 'netlify-blobs') return { kind, name: BLOBS_STORE_NAME, siteID: env.NETLIFY_SITE_ID || undefined, token: env.NETLIFY_AUTH_TOKEN || undefined }
  throw new AuthConfigError(`OAUTH_STORE must be files or netlify-blobs, got "${kind.slice(0, 100)}"`)
}

export function openStateStore(settings: StoreSettings): StateStore {
  return settings.kind === 'files' ? openFileStore(settings.dir) : openBlobsStore(settings)
}
