/**
 * A route's budgets as middleware: a request no pre-rendered file answers is
 * charged before the route runs (429 past a budget), and the RateLimit fields
 * go on whatever it answers — a value, a Response of any status, or a thrown
 * problem — so a client sees its quota on 401s too. The read routes' stored
 * answers take them straight into their header record (respond.ts), and the
 * Node fast path charges the same way for the answers it repeats.
 */
import { HTTPError, HTTPResponse, type H3Event, type Middleware } from 'h3'
import { FIELD_FILTER_KEY } from '../../contract/routes/collection-parameters.ts'
import { answeredByFile, parametersOf } from '../../contract/routes/index.ts'
import type { QueryParameter, Route } from '../../contract/routes/route.ts'
import type { ArtifactStore } from '../artifacts.ts'
import type { Charge, Client, Verdict } from './budgets.ts'
import { clientIp, type TrustProxy } from './client-ip.ts'
import { problem } from './problem.ts'

/** What the route's answer must carry, and how the fast path charges the same request again. */
export interface Charged {
  /** The fields of the latest charge: a request charged again (a batch's other messages) carries its own. */
  fields: Verdict['fields']
  charge: Charge
  client: Client
  /** Set once the fields are in the answer's own header record. */
  sent?: boolean
}

const CHARGED = 'charged'

/** The charge this request made, if any (for respond.ts). */
export function chargedOf(event: H3Event): Charged | undefined {
  return event.context[CHARGED] as Charged | undefined
}

/** The field filters of the collection a request names (`category=` of press releases): no file answers them. */
function fieldFilters(route: Route, event: H3Event, store: ArtifactStore): string[] {
  const value = route.each ? event.context.params?.[route.each.parameter] : undefined
  const model = store.current()?.model
  if (value === undefined || !model || !Object.hasOwn(model.collections, value)) return []
  return parametersOf(route, model, value)
    .filter((p) => (p as QueryParameter).key?.startsWith(FIELD_FILTER_KEY))
    .map((p) => p.name)
}

export function budgetGuard(route: Route, charge: Charge, trust: TrustProxy, store: ArtifactStore): Middleware {
  return async (event, next) => {
    if (answeredByFile(route, event.url.searchParams, fieldFilters(route, event, store), store.current()?.model))
      return next()
    const client = { ip: clientIp(event, trust), authorization: event.req.headers.get('authorization') }
    const verdict = await charge(client)
    if (!verdict.allowed) throw refused(verdict)
    const charged: Charged = { fields: verdict.fields, charge, client }
    event.context[CHARGED] = charged
    return withFields(event, next, charged)
  }
}

/**
 * Charge this request `points` more (a JSON-RPC batch: one per message beyond the first the guard took);
 * past what is left, the whole request is a 429. A request of a route without budgets is not charged.
 */
export async function chargeMore(event: H3Event, points: number): Promise<void> {
  const charged = chargedOf(event)
  if (!charged || points <= 0) return
  const verdict = await charged.charge(charged.client, points)
  charged.fields = verdict.fields
  if (!verdict.allowed) {
    // The 429 carries this charge's fields already.
    charged.sent = true
    throw refused(verdict)
  }
}

/** The 429 of a refused charge. */
export function refused(verdict: Verdict): HTTPError {
  return problem('rate-limited', {
    detail: `Too many requests from this ${verdict.refusedBy}. Retry after ${verdict.retryAfter} s.`,
    headers: { ...verdict.fields, 'retry-after': String(verdict.retryAfter) },
  })
}

/**
 * Run the route and put the fields on its answer. An answer that already has
 * RateLimit fields (a failed-authentication 429) keeps them, and ours are
 * added after them.
 */
async function withFields(event: H3Event, next: () => unknown, charged: Charged): Promise<unknown> {
  let value: unknown
  try {
    value = await next()
  } catch (error) {
    if (!HTTPError.isError(error) || error.unhandled || charged.sent) throw error
    const { fields } = charged
    const merged = new Headers(error.headers)
    addFields(merged, fields)
    throw new HTTPError({
      status: error.status,
      statusText: error.statusText,
      message: error.message,
      data: error.data,
      headers: merged,
      cause: error.cause,
    })
  }
  if (charged.sent) return value
  const { fields } = charged
  if (value instanceof HTTPResponse) {
    addFields(value.headers, fields)
    return value
  }
  if (!(value instanceof Response)) {
    // Plain values (objects, strings) get h3's prepared headers merged in.
    addFields(event.res.headers, fields)
    return value
  }
  const merged = new Headers(value.headers)
  addFields(merged, fields)
  return new Response(value.body, { status: value.status, statusText: value.statusText, headers: merged })
}

/** RateLimit and RateLimit-Policy are lists (draft-ietf-httpapi-ratelimit-headers): append to what is there. */
function addFields(target: Headers, fields: Record<string, string>): void {
  for (const [name, value] of Object.entries(fields)) {
    const existing = target.get(name)
    target.set(name, existing ? `${existing}, ${value}` : value)
  }
}
