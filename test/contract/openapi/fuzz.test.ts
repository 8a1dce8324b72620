/**
 * Property-based contract fuzzing driven by openapi.json: for every
 * operation of the built document, requests generated from its own schemas
 * (parameters, bodies, security) go to the real gateway — valid ones, and
 * ones that break exactly one rule of one parameter — and every answer must
 * match the document (assertMatchesContract) and never be a 5xx. Where the
 * document promises it (the query parameters of lists, search and the change
 * feed), a valid request is answered and an invalid one is a 400.
 *
 * FUZZ_RUNS (default 6) sets the runs per operation and kind; e.g.
 * `FUZZ_RUNS=200 npx vitest run test/contract/openapi/fuzz.test.ts` for a deep run
 * (FUZZ_DEBUG=1 prints the statuses each operation got, to see what was reached).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc, { type Arbitrary } from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANGES_FILE, encodeCursor } from '../../../contract/changes.ts'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { MANIFEST_FILE } from '../../../contract/paths.ts'
import type { Manifest } from '../../../contract/manifest.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { breakable, invalid, resolve, valid, type Schema } from '../../helpers/schema-arbitrary.ts'
import {
  CHANGES_PATH,
  MCP_PATH,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  SEARCH_PATH,
  TOKEN_PATH,
} from '../../../contract/public-paths.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 6)
const METHODS = ['get', 'head', 'post'] as const
/** Operations whose query parameters the document says are checked ("anything else is a 400"). */
const STRICT_QUERY = new Set([SEARCH_PATH, CHANGES_PATH, ...COLLECTION_NAMES.map((c) => `/api/${c}`)])

interface Parameter {
  name: string
  in: 'query' | 'path' | 'header'
  required?: boolean
  schema: Schema
}
interface Operation {
  path: string
  method: (typeof METHODS)[number]
  parameters: Parameter[]
  body?: { type: string; schema: Schema }
  security: Record<string, string[]>[]
}
interface Request {
  url: string
  init: RequestInit & { headers: Record<string, string> }
  /** The parameter made invalid, if any. */
  broken?: Parameter
}

let full: BuiltGateway
let doc: Schema
let operations: Operation[]
let credentials: { agentKey: string; sandboxKey: string; mcpToken: string }
/** Real path values from the build (slugs, collections), so generated requests also find things. */
let known: Record<string, string[]>

beforeAll(async () => {
  full = await startBuiltGateway({
    // The computed answers' budget stays on (each request comes from an address of its own), so its fields are checked too.
    env: { RATE_LIMIT_PER_MINUTE: '0', TRUST_PROXY: 'x-forwarded-for', MCP_MAX_BODY_BYTES: String(64 * 1024) },
    keys: { agent: 'agent.mcp', sandbox: 'sandbox.read' },
    clients: { agent: ['mcp.tools.invoke', 'api.read'] },
    // Client ID Metadata Documents (a client_id that is an https URL) are never fetched from the network here.
    platform: { fetch: async () => new Response('not here', { status: 404 }) },
  })
  doc = JSON.parse(await readFile(join(full.project.dist, 'openapi.json'), 'utf8')) as Schema
  operations = operationsOf(doc)
  credentials = {
    agentKey: full.keys.agent!,
    sandboxKey: full.keys.sandbox!,
    mcpToken: await full.token('agent', ['mcp.tools.invoke']),
  }
  const manifest = JSON.parse(await readFile(join(full.project.dist, MANIFEST_FILE), 'utf8')) as Manifest
  const changes = JSON.parse(await readFile(join(full.project.dist, CHANGES_FILE), 'utf8')) as {
    meta: { next_cursor: string }
  }
  // A client registered as an agent host would be, so authorization requests can get past the client check.
  const redirect = 'http://127.0.0.1:9/callback'
  const registered = await fetch(`${full.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  })
  const clientId = ((await registered.json()) as { client_id: string }).client_id
  known = {
    client_id: [clientId, 'agent'],
    redirect_uri: [redirect],
    slug: COLLECTION_NAMES.flatMap((c) => manifest.collections[c]!.map((i) => i.slug)),
    // Values that find items, beside those generated from the schemas.
    exclude: COLLECTION_NAMES.flatMap((c) => manifest.collections[c]!.map((i) => i.slug)),
    tag: [...new Set(COLLECTION_NAMES.flatMap((c) => manifest.collections[c]!.flatMap((i) => i.tags)))],
    author: [
      ...new Set(
        COLLECTION_NAMES.flatMap((c) =>
          manifest.collections[c]!.flatMap((i) =>
            [...((i.authors as { slug: string }[]) ?? []), ...((i.speakers as { slug: string }[]) ?? [])].map(
              (p) => p.slug,
            ),
          ),
        ),
      ),
    ],
    since: [changes.meta.next_cursor, encodeCursor({ time: 0, seq: 0 })],
  }
}, 120_000)
afterAll(() => full?.close())

function operationsOf(document: Schema): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const parameters = ((op.parameters ?? []) as Schema[]).map((p) => resolve(document, p) as unknown as Parameter)
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content
      const [type, media] = Object.entries(content ?? {})[0] ?? []
      out.push({
        path,
        method,
        parameters,
        security: (op.security ?? []) as Operation['security'],
        ...(type && media && { body: { type, schema: media.schema } }),
      })
    }
  }
  return out
}

/** A header value for one of the operation's security alternatives, or a broken credential. */
function authorization(op: Operation): Arbitrary<string | undefined> {
  const good = op.security.map((alternative): string | undefined => {
    if (Object.keys(alternative).length === 0) return undefined
    if ('apiKey' in alternative) return `Bearer ${op.path === MCP_PATH ? credentials.agentKey : credentials.sandboxKey}`
    return `Bearer ${credentials.mcpToken}`
  })
  const bad = [
    'Bearer not-a-token',
    'Bearer tw_live_000000000000000000000000000000000000',
    'Basic Og==',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  ]
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(good.length ? good : [undefined])) },
    { weight: 1, arbitrary: fc.constantFrom(...bad) },
  )
}

/** Opaque parameters: the schema says what they look like, only the server's own values are valid. */
const OPAQUE = new Set(['since'])

function parameterValue(p: Parameter): Arbitrary<unknown> {
  const fromBuild = known[p.name]
  if (OPAQUE.has(p.name)) return fc.constantFrom(...fromBuild!)
  // Sort keys name each field once, either way: more than JSON Schema can say (the description says it).
  if (p.name === 'sort') {
    const items = resolve(doc, p.schema).items as Schema
    return fc.uniqueArray(fc.constantFrom(...(items.enum as string[])), {
      minLength: 1,
      maxLength: 3,
      selector: (key) => key.replace(/^-/, ''),
    })
  }
  return fromBuild?.length ? fc.oneof(fc.constantFrom(...fromBuild), valid(doc, p.schema)) : valid(doc, p.schema)
}

/** A request to `op`: every required parameter, some optional ones, and (when `breakOne`) one parameter breaking its schema. */
function request(op: Operation, breakOne: boolean): Arbitrary<Request> {
  const breakableParams = op.parameters.filter((p) => p.in !== 'header' && breakable(doc, p.schema))
  const broken = breakOne && breakableParams.length ? fc.constantFrom(...breakableParams) : fc.constant(undefined)
  return broken.chain((target) => {
    const values = op.parameters.map((p) => {
      if (p === target) return invalid(doc, p.schema).map((v) => [p, v] as const)
      const value = parameterValue(p).map((v) => [p, v] as const)
      return p.required ? value : fc.option(value, { nil: undefined })
    })
    const body = op.body
      ? op.body.type === 'application/json'
        ? valid(doc, op.body.schema).map((v) => JSON.stringify(v))
        : valid(doc, op.body.schema).map(form)
      : fc.constant(undefined)
    return fc.tuple(fc.tuple(...values), body, authorization(op), fc.ipV4()).map(([pairs, text, auth, address]) => {
      let path = op.path
      const query = new URLSearchParams()
      const headers: Record<string, string> = {
        'x-forwarded-for': address,
        accept: op.path === MCP_PATH ? 'application/json, text/event-stream' : '*/*',
      }
      for (const pair of pairs) {
        if (!pair) continue
        const [p, v] = pair
        const text = String(v)
        if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text))
        else if (p.in === 'query') query.append(p.name, text)
        else headers[p.name.toLowerCase()] = text.replace(/[^\x20-\x7e]/g, '')
      }
      // Path parameters not given (never: all are required) would leave braces; the document says they are.
      path = path.replace(/\{[^}]+\}/g, 'x')
      if (auth) headers.authorization = auth
      if (text !== undefined && op.body) headers['content-type'] = op.body.type
      const search = query.toString()
      return {
        url: `${path}${search ? `?${search}` : ''}`,
        init: { method: op.method.toUpperCase(), headers, ...(text !== undefined && { body: text }) },
        broken: target,
      }
    })
  })
}

/** An object as application/x-www-form-urlencoded. */
function form(value: unknown): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>))
    params.append(k, Array.isArray(v) ? v.join(' ') : String(v))
  return params.toString()
}

const seen = new Map<string, Map<number, number>>()
afterAll(() => {
  if (process.env.FUZZ_DEBUG) for (const [k, m] of seen) console.log(k, [...m].map(([s, n]) => `${s}×${n}`).join(' '))
})

async function send(op: Operation, req: Request): Promise<Response> {
  const res = await fetch(`${full.url}${req.url}`, { ...req.init, redirect: 'manual' })
  const key = `${op.method} ${op.path}`
  const m = seen.get(key) ?? new Map<number, number>()
  m.set(res.status, (m.get(res.status) ?? 0) + 1)
  seen.set(key, m)
  const where = `${req.init.method} ${req.url}${req.broken ? ` (${req.broken.name} broken)` : ''}`
  expect(
    res.status,
    `${where} → ${res.status}: ${await res
      .clone()
      .text()
      .then((t) => t.slice(0, 300))}`,
  ).toBeLessThan(500)
  await assertMatchesContract(req.init.method!, req.url, res)
  return res
}

describe('every operation of openapi.json, with requests generated from its schemas', () => {
  it('knows the document (sanity: every path and both kinds of request are exercised)', () => {
    expect(operations.length).toBeGreaterThan(30)
    expect(operations.filter((o) => o.body).map((o) => o.path)).toEqual(
      expect.arrayContaining([MCP_PATH, TOKEN_PATH, REGISTRATION_PATH, REVOCATION_PATH]),
    )
  })

  it('answers valid requests as documented, never with a 5xx', async () => {
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(request(op, false), async (req) => {
          const res = await send(op, req)
          const pathOf = op.path
          if (STRICT_QUERY.has(pathOf) && req.init.method !== 'POST') {
            expect(
              [200, 304],
              `${req.url}: ${await res
                .clone()
                .text()
                .then((t) => t.slice(0, 300))}`,
            ).toContain(res.status)
          }
          await res.body?.cancel()
        }),
        { numRuns: RUNS },
      )
    }
  }, 300_000)

  it('answers requests with one parameter outside its schema as documented: a 400 where the document says so, never a 5xx', async () => {
    for (const op of operations.filter((o) =>
      o.parameters.some((p) => p.in !== 'header' && breakable(doc, p.schema)),
    )) {
      await fc.assert(
        fc.asyncProperty(request(op, true), async (req) => {
          const res = await send(op, req)
          if (STRICT_QUERY.has(op.path) && req.broken?.in === 'query') {
            expect(res.status, `${req.url} should be refused (${req.broken.name})`).toBe(400)
            expect(((await res.json()) as { type: string }).type).toBe('/problems/invalid-parameter')
          } else {
            await res.body?.cancel()
          }
        }),
        { numRuns: RUNS },
      )
    }
  }, 300_000)

  it('answers bodies of the wrong shape (not JSON, wrong types) as documented', async () => {
    const garbage = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    )
    for (const op of operations.filter((o) => o.body)) {
      await fc.assert(
        fc.asyncProperty(request(op, false), garbage, async (req, body) => {
          await (await send(op, { ...req, init: { ...req.init, body } })).body?.cancel()
        }),
        { numRuns: RUNS },
      )
    }
  }, 300_000)
})
