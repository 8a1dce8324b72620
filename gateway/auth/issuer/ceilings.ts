/**
 * The most the authorization server keeps of what anonymous callers start:
 * dynamically registered clients (OAUTH_MAX_REGISTERED_CLIENTS) and
 * authorization requests in progress (OAUTH_MAX_PENDING_AUTHORIZATIONS).
 * Past a ceiling a new one is refused with a 503 problem saying why, logged
 * once (again an hour later if it still holds, not at every refusal);
 * nothing kept is dropped to make room, so registered clients and sign-ins
 * under way carry on.
 *
 * A count is the store's listing of the records (expired ones not yet swept
 * included), at most a few seconds old, plus what this process admitted
 * since. Processes that share a store (Netlify's function instances) can
 * together pass a ceiling by what each admits between two listings, which
 * the per-address budgets keep small.
 */
import type { Logger } from '../../log.ts'
import { unavailable } from '../../http/problem.ts'
import type { StateStore } from '../store/state-store.ts'
import type { SettingName } from '../../../contract/settings.ts'

export type CeilingName = 'clients' | 'authorizations'

interface Ceiling {
  /** The records it counts. */
  prefix: string
  setting: Extract<SettingName, 'OAUTH_MAX_REGISTERED_CLIENTS' | 'OAUTH_MAX_PENDING_AUTHORIZATIONS'>
  /** For the log line. */
  what: string
  /** The 503's detail, and when to retry. */
  detail: string
  retryAfter: number
}

const CEILINGS: Record<CeilingName, Ceiling> = {
  clients: {
    prefix: 'oidc/Client/',
    setting: 'OAUTH_MAX_REGISTERED_CLIENTS',
    what: 'registered clients',
    detail:
      'This server keeps as many registered clients as it may; registration resumes as unused ones expire. A client_id you already have keeps working; a Client ID Metadata Document URL works as a client_id without registering.',
    retryAfter: 3600,
  },
  authorizations: {
    prefix: 'oidc/Interaction/',
    setting: 'OAUTH_MAX_PENDING_AUTHORIZATIONS',
    what: 'authorization requests in progress',
    detail:
      'This server has as many sign-ins in progress as it may keep; new ones can start as those finish or expire. Try again in a few minutes.',
    retryAfter: 300,
  },
}

/** How old a count may be before the store is listed again. */
const RECOUNT_MS = 5_000
/** A ceiling that still holds is logged again after this long. */
const LOG_AGAIN_MS = 60 * 60 * 1000

export interface Ceilings {
  /** Count one more under `name`, or throw the 503 problem when its ceiling is reached. */
  admit(name: CeilingName): Promise<void>
}

export function createCeilings(
  store: StateStore,
  limits: Readonly<Record<CeilingName, number>>,
  log: Logger,
): Ceilings {
  const counts = new Map<CeilingName, { count: number; at: number; listing?: Promise<void>; loggedAt: number }>()
  const countOf = async (name: CeilingName) => {
    let entry = counts.get(name)
    if (!entry)
      counts.set(name, (entry = { count: 0, at: Number.NEGATIVE_INFINITY, loggedAt: Number.NEGATIVE_INFINITY }))
    if (performance.now() - entry.at > RECOUNT_MS) {
      const current = entry
      current.listing ??= store.list(CEILINGS[name].prefix).then(
        (keys) => {
          current.count = keys.length
          current.at = performance.now()
        },
        // A store that cannot list now keeps the last count (the store's own errors show on the request).
        (error: Error) => log('warn', 'could not count the authorization state', { error: error.message }),
      )
      await current.listing.finally(() => (current.listing = undefined))
    }
    return entry
  }
  return {
    async admit(name) {
      const entry = await countOf(name)
      const ceiling = CEILINGS[name]
      if (entry.count < limits[name]) {
        entry.count++
        return
      }
      if (performance.now() - entry.loggedAt > LOG_AGAIN_MS) {
        entry.loggedAt = performance.now()
        log('warn', `the ${ceiling.what} reached their ceiling: new ones get 503 until some end`, {
          setting: ceiling.setting,
          limit: limits[name],
          store: store.location,
        })
      }
      throw unavailable(ceiling.detail, ceiling.retryAfter, { logged: true })
    },
  }
}
