/** The webhook settings of the settings (contract/settings.ts), the same for the gateway, the functions and the CLI. */
import { resolve } from 'node:path'
import type { Settings } from '../../contract/settings.ts'
import { storeSettingsFrom, type StoreSettings } from '../auth/store/open-store.ts'
import { DEFAULT_SECRETS_KEY_FILE, type SecretsKeySource } from './secrets.ts'
import { urlPolicyFrom, type UrlPolicy } from './url-policy.ts'

export interface WebhookSettings {
  store: StoreSettings
  policy: UrlPolicy
  /** WEBHOOK_SECRETS_KEY, else a generated key file (local files only: Blobs are shared by instances that share no disk). */
  secretsKey: SecretsKeySource
  /** WEBHOOK_RETRY_HOURS in milliseconds. */
  retryMs: number
}

export function webhookSettingsFrom(settings: Settings, root = process.cwd()): WebhookSettings {
  const store = storeSettingsFrom(settings, root)
  return {
    store,
    policy: urlPolicyFrom(settings),
    secretsKey: {
      value: settings.WEBHOOK_SECRETS_KEY,
      file: store.kind === 'files' ? resolve(root, DEFAULT_SECRETS_KEY_FILE) : undefined,
    },
    retryMs: settings.WEBHOOK_RETRY_HOURS * 3_600_000,
  }
}
