/**
 * The budgets of the route table (contract/budgets.ts), counted in this
 * process: each a fixed window per client address and, where the budget
 * says so, per credential (kept only as a hash), so neither rotating
 * credentials nor spreading one over many addresses escapes it. A request
 * draws from its route's budgets unless a pre-rendered file answers it; past
 * one it gets 429 `/problems/rate-limited` with `Retry-After`, and every
 * answer carries the IETF `RateLimit` / `RateLimit-Policy` fields
 * (draft-ietf-httpapi-ratelimit-headers-10).
 */
import { createHash } from 'node:crypto'
import { BUDGET_NAMES, BUDGETS, type Budget, type BudgetKey, type BudgetName } from '../../contract/budgets.ts'
import type { Route } from '../../contract/routes/route.ts'
import type { Settings } from '../../contract/settings.ts'
import { RateLimiter, type RateDecision } from './rate-limit.ts'

/** Who is asking: the client address (client-ip.ts) and the Authorization header, if any. */
export interface Client {
  ip: string
  authorization: string | null | undefined
}

export interface Verdict {
  allowed: boolean
  /** RateLimit-Policy and RateLimit, for the answer whatever it is. */
  fields: { 'ratelimit-policy': string; ratelimit: string }
  /** Seconds until the refused window ends; 0 when allowed. */
  retryAfter: number
  /** What refused it, for the 429's detail. */
  refusedBy: string
}

/** Charge one request of a route's budgets. */
export type Charge = (client: Client) => Verdict

interface Counter {
  budget: Budget
  limit: number
  limiter: RateLimiter
}

/** The budgets of one gateway, from the settings: one set of windows per budget, shared by its routes. */
export class Budgets {
  private readonly counters = new Map<BudgetName, Counter>()
  private readonly charges = new Map<Route, Charge | undefined>()

  constructor(settings: Settings, now?: () => number) {
    for (const name of BUDGET_NAMES) {
      const budget: Budget = BUDGETS[name]
      const limit = settings[budget.setting]
      if (limit > 0)
        this.counters.set(name, {
          budget,
          limit,
          limiter: new RateLimiter({ limit, windowSeconds: budget.windowSeconds, now }),
        })
    }
  }

  /** How many client windows a budget holds now: what its memory grows with. */
  windows(name: BudgetName): number {
    return this.counters.get(name)?.limiter.size ?? 0
  }

  /** The charge of a route's requests, or undefined when it draws from no budget that is on. */
  chargeOf(route: Route): Charge | undefined {
    if (this.charges.has(route)) return this.charges.get(route)
    const counters = (route.budgets ?? []).flatMap((name) => this.counters.get(name) ?? [])
    const charge = counters.length ? chargeAll(counters) : undefined
    this.charges.set(route, charge)
    return charge
  }
}

function chargeAll(counters: Counter[]): Charge {
  return (client) => {
    const policies: string[] = []
    const left: string[] = []
    const refused: [string, RateDecision][] = []
    for (const { budget, limit, limiter } of counters) {
      const checks: [BudgetKey, string, RateDecision][] = []
      const ipPolicy = budget.policies.ip
      let byAddress: RateDecision | undefined
      if (ipPolicy) checks.push(['ip', ipPolicy, (byAddress = limiter.take(`ip:${client.ip}`))])
      // A client already over its address limit adds nothing more: sending a new
      // made-up credential per request cannot fill the table and evict others' windows.
      const credentialPolicy = budget.policies.credential
      if (credentialPolicy && client.authorization && byAddress?.allowed !== false)
        checks.push(['credential', credentialPolicy, limiter.take(`cred:${credentialKey(client.authorization)}`)])
      for (const [key, policy, decision] of checks) {
        policies.push(`"${policy}";q=${limit};w=${budget.windowSeconds}`)
        left.push(`"${policy}";r=${Math.max(0, decision.remaining)};t=${decision.resetSeconds}`)
        if (!decision.allowed) refused.push([key === 'ip' ? 'client address' : 'credential', decision])
      }
    }
    const quota = counters.map(({ limit, budget }) => `at most ${limit} per ${budget.windowSeconds} s`).join(', ')
    return {
      allowed: refused.length === 0,
      fields: { 'ratelimit-policy': policies.join(', '), ratelimit: left.join(', ') },
      retryAfter: refused.length ? Math.max(...refused.map(([, d]) => d.resetSeconds)) : 0,
      refusedBy: `${refused.map(([what]) => what).join(' and ')}: ${quota}`,
    }
  }
}

/** Hash of a credential: enough to tell credentials apart, useless to anyone reading memory. */
function credentialKey(authorization: string): string {
  return createHash('sha256').update(authorization).digest('base64url').slice(0, 22)
}
