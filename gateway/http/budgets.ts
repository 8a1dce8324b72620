/**
 * The budgets of the route table (contract/budgets.ts), counted in this
 * process by rate-limiter-flexible (rate-limit.ts; its backend is the seam
 * for a shared one): each a fixed window per client address and, where the budget
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
import { RateLimiter, type LimiterBackend, type RateDecision } from './rate-limit.ts'

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

/**
 * Charge a request of a route's budgets: one, or `points` for a request that is several (a JSON-RPC batch
 * draws one per message). Refused, it counts nothing.
 */
export type Charge = (client: Client, points?: number) => Promise<Verdict>

interface Counter {
  budget: Budget
  limit: number
  limiter: RateLimiter
}

/** The budgets of one gateway, from the settings: one set of windows per budget, shared by its routes. */
export class Budgets {
  private readonly counters = new Map<BudgetName, Counter>()
  private readonly charges = new Map<Route, Charge | undefined>()

  /** `backend`: where the counts live (default this process's memory). */
  constructor(settings: Settings, now?: () => number, backend?: LimiterBackend) {
    for (const name of BUDGET_NAMES) {
      const budget: Budget = BUDGETS[name]
      const limit = settings[budget.setting]
      if (limit > 0)
        this.counters.set(name, {
          budget,
          limit,
          limiter: new RateLimiter({ name, limit, windowSeconds: budget.windowSeconds, now, backend }),
        })
    }
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
  // What never changes per request, worked out once: each key's policy field and the quotas for the 429.
  const policies = counters.flatMap(({ budget, limit }) =>
    (['ip', 'credential'] as const).flatMap((key) => {
      const name = budget.policies[key]
      return name ? [{ key, field: `"${name}";q=${limit};w=${budget.windowSeconds}`, name }] : []
    }),
  )
  const quota = counters.map(({ limit, budget }) => `at most ${limit} per ${budget.windowSeconds} s`).join(', ')
  const onlyIp = policies.length === 1 && policies[0]!.key === 'ip'
  const policyField = policies.map((p) => p.field).join(', ')
  return async (client, points = 1) => {
    if (onlyIp) {
      // The common case (one budget, by address): no arrays per request.
      const { limiter } = counters[0]!
      const decision = await limiter.take(`ip:${client.ip}`, points)
      return verdict(
        policyField,
        `"${policies[0]!.name}";r=${Math.max(0, decision.remaining)};t=${decision.resetSeconds}`,
        decision.allowed ? [] : [['client address', decision]],
        quota,
      )
    }
    const used: string[] = []
    const left: string[] = []
    const refused: [string, RateDecision][] = []
    const taken: [RateLimiter, string][] = []
    for (const { budget, limiter, limit } of counters) {
      const checks: [BudgetKey, string, RateDecision][] = []
      let byAddress: RateDecision | undefined
      if (budget.policies.ip) {
        const key = `ip:${client.ip}`
        checks.push(['ip', key, (byAddress = await limiter.take(key, points))])
      }
      // A client already over its address limit adds nothing more: sending a new
      // made-up credential per request cannot fill the table and evict others' windows.
      if (budget.policies.credential && client.authorization && byAddress?.allowed !== false) {
        const key = `cred:${credentialKey(client.authorization)}`
        checks.push(['credential', key, await limiter.take(key, points)])
      }
      for (const [kind, key, decision] of checks) {
        const name = budget.policies[kind]!
        used.push(`"${name}";q=${limit};w=${budget.windowSeconds}`)
        left.push(`"${name}";r=${Math.max(0, decision.remaining)};t=${decision.resetSeconds}`)
        if (decision.allowed) taken.push([limiter, key])
        else refused.push([kind === 'ip' ? 'client address' : 'credential', decision])
      }
    }
    // Refused by one window, the request counts in none (all or none, like each window's own charge).
    if (refused.length) await Promise.all(taken.map(([limiter, key]) => limiter.refund(key, points)))
    return verdict(used.join(', '), left.join(', '), refused, quota)
  }
}

function verdict(policy: string, left: string, refused: [string, RateDecision][], quota: string): Verdict {
  return {
    allowed: refused.length === 0,
    fields: { 'ratelimit-policy': policy, ratelimit: left },
    retryAfter: refused.length ? Math.max(...refused.map(([, d]) => d.resetSeconds)) : 0,
    refusedBy: refused.length ? `${refused.map(([what]) => what).join(' and ')}: ${quota}` : '',
  }
}

/** Hash of a credential: enough to tell credentials apart, useless to anyone reading memory. */
function credentialKey(authorization: string): string {
  return createHash('sha256').update(authorization).digest('base64url').slice(0, 22)
}
