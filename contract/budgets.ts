/**
 * The gateway's rate budgets: how many requests a client may send to a kind
 * of route in a window, the setting that says so, and the names its quota
 * carries in the RateLimit fields (draft-ietf-httpapi-ratelimit-headers). A
 * route names the budgets it draws from in the route table (contract/routes/);
 * a request answered by a pre-rendered file never draws from any.
 */
import type { SettingName } from './settings.ts'

/** What a request is counted against: its client address, and the credential it carries (kept as a hash). */
export type BudgetKey = 'ip' | 'credential'

export interface Budget {
  /** The setting holding the requests allowed per window and client; 0 turns the budget off. */
  setting: Extract<
    SettingName,
    | 'RATE_LIMIT_PER_MINUTE'
    | 'COMPUTED_RATE_LIMIT_PER_MINUTE'
    | 'REGISTRATION_RATE_LIMIT_PER_HOUR'
    | 'AUTHORIZATION_RATE_LIMIT_PER_HOUR'
  >
  windowSeconds: number
  /** Each key's policy name in RateLimit-Policy and RateLimit: `"<name>";q=…;w=…`. */
  policies: Partial<Record<BudgetKey, string>>
  /**
   * Held at Netlify's edge too, across function instances: netlify.toml has
   * a rate-limit rule for each of its routes (test/gateway/netlify/netlify-config.test.ts
   * keeps them equal). Without it, each function instance counts on its own.
   */
  edge: boolean
  /** For the OpenAPI document: what the budget covers. */
  description: string
}

export const BUDGETS = {
  /** The endpoints that take credentials and bodies: /mcp and the authorization server. */
  dynamic: {
    setting: 'RATE_LIMIT_PER_MINUTE',
    windowSeconds: 60,
    policies: { ip: 'ip', credential: 'credential' },
    edge: true,
    description:
      'Requests to /mcp and /oauth/* count against a per-minute quota per client address and per credential (RATE_LIMIT_PER_MINUTE).',
  },
  /** Answers the gateway computes per request: search, the change feed after a cursor, list queries no file answers. */
  computed: {
    setting: 'COMPUTED_RATE_LIMIT_PER_MINUTE',
    windowSeconds: 60,
    policies: { ip: 'computed' },
    edge: false,
    description:
      'Answers the gateway computes (no pre-rendered file has them) count against a per-minute quota per client address (COMPUTED_RATE_LIMIT_PER_MINUTE); pre-rendered answers never do.',
  },
  /**
   * Acts of an anonymous caller that the authorization server keeps a record
   * of: far below the dynamic budget, for a real agent host registers once
   * and a person starts a few sign-ins an hour. The ceilings on what is kept
   * (OAUTH_MAX_*) hold the line across addresses.
   */
  registration: {
    setting: 'REGISTRATION_RATE_LIMIT_PER_HOUR',
    windowSeconds: 3600,
    policies: { ip: 'registration' },
    edge: false,
    description:
      'Registrations count against an hourly quota per client address too (REGISTRATION_RATE_LIMIT_PER_HOUR): a client registers once and keeps its client_id.',
  },
  authorization: {
    setting: 'AUTHORIZATION_RATE_LIMIT_PER_HOUR',
    windowSeconds: 3600,
    policies: { ip: 'authorization' },
    edge: false,
    description:
      'Authorization requests started count against an hourly quota per client address too (AUTHORIZATION_RATE_LIMIT_PER_HOUR).',
  },
} as const satisfies Record<string, Budget>

export type BudgetName = keyof typeof BUDGETS
export const BUDGET_NAMES = Object.keys(BUDGETS) as BudgetName[]
