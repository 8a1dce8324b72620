#!/usr/bin/env node
/**
 * `npm run soak`: minutes of mixed load on a real gateway process on
 * 127.0.0.1 — lists, items, the long tail, conditional requests, MCP tools
 * and resources, tokens, bad requests, a client flooding /mcp past its
 * rate limit, clients guessing API keys and client secrets past the
 * failed-authentication limits, and anonymous floods of client registrations
 * and authorization starts — with bounded request loops. Every answer is checked against
 * what it should be; the gateway's resident memory and the authorization
 * state's records are sampled. Results go to
 * bench/results/tmp/soak.md (ignored), or with `--record` into RELIABILITY.md;
 * the exit code is 1 on any unexpected answer, any error in the gateway's log,
 * memory growing after warm-up, or the floods' records passing their ceilings.
 *
 * SOAK_SECONDS (default 300), SOAK_WORKERS (default 6), SOAK_WARMUP_SECONDS (default 20 % of the run),
 * SOAK_CEILING (default 1000: OAUTH_MAX_REGISTERED_CLIENTS and OAUTH_MAX_PENDING_AUTHORIZATIONS of the run).
 */
import { spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { commandArgs, defineCommand } from '../contract/cli-args.ts'
import { COLLECTION_NAMES, type CollectionName } from './corpus/collections.ts'
import { buildSite } from '../build/compiler/build.ts'
import { generateApiKey, hashApiKey } from '../gateway/auth/api-key.ts'
import { generateClientSecret, hashClientSecret, writeClientsFile } from '../gateway/auth/issuer/clients-file.ts'
import { newKeyId, writeKeysFile } from '../gateway/auth/keys-file.ts'
import { rawRequest } from '../test/helpers/raw-http.ts'
import {
  authorizationRequest,
  badRequest,
  dynamicRequest,
  guessRequest,
  readRequest,
  registrationRequest,
  sprayRequest,
  type MixContext,
  type Planned,
} from './soak/mix.ts'
import {
  memoryVerdict,
  recordsVerdict,
  toMarkdown,
  unexpectedTotal,
  writeSection,
  type KindStats,
  type SoakResult,
} from './soak/report.ts'

const SOAK = defineCommand({
  name: 'npm run soak',
  summary:
    'Minutes of mixed load on a real gateway process, every answer checked; results to bench/results/tmp/soak.md. Exit 1 on any unexpected answer, gateway error, memory growth or flood past its ceiling.',
  options: { record: { type: 'boolean', help: 'write the results into RELIABILITY.md instead' } },
  more: 'Settings: SOAK_SECONDS (default 300), SOAK_WORKERS (6), SOAK_WARMUP_SECONDS (20 % of the run), SOAK_CEILING (1000).',
})
const args = commandArgs(SOAK, process.argv.slice(2)).values

const ROOT = resolve(import.meta.dirname, '..')
const SECONDS = Number(process.env.SOAK_SECONDS ?? 300)
const WORKERS = Number(process.env.SOAK_WORKERS ?? 6)
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS ?? Math.round(SECONDS * 0.2))
const RATE_LIMIT = 3000
/** Dynamic requests per second per worker: below the rate limit, so legitimate traffic is never limited. */
const DYNAMIC_PER_SECOND = 20
/** The ceilings on registered clients and authorization requests in progress: the floods reach them in the first minutes. */
const CEILING = Number(process.env.SOAK_CEILING ?? 1000)
/** Anonymous registrations, and authorization starts, per second. */
const ANONYMOUS_PER_SECOND = 20

async function main(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'content-api-soak-'))
  try {
    await cp(join(ROOT, 'content'), join(dir, 'content'), { recursive: true })
    await buildSite({ root: dir, cache: false })
    // One key per worker, as separate agents would have: each stays under its credential limit.
    const agentKeys = Array.from({ length: WORKERS }, () => generateApiKey('live'))
    const clientSecret = generateClientSecret()
    const now = new Date().toISOString()
    await writeKeysFile(join(dir, 'keys.json'), {
      version: 1,
      keys: agentKeys.map((key, i) => ({
        id: newKeyId(),
        hash: hashApiKey(key),
        role: 'agent.mcp' as const,
        label: `soak ${i}`,
        created_at: now,
      })),
    })
    await writeClientsFile(join(dir, 'clients.json'), {
      version: 1,
      clients: [
        {
          client_id: 'soak',
          secret_hash: hashClientSecret(clientSecret),
          scopes: ['mcp.tools.invoke'],
          label: 'soak',
          created_at: now,
        },
      ],
    })
    const gateway = await startGateway(dir)
    try {
      const ctx = await discover(gateway.url, Buffer.from(`soak:${clientSecret}`).toString('base64'))
      const result = await run(gateway, ctx, agentKeys, join(dir, 'oauth-state'), await registerClient(gateway.url))
      const memory = memoryVerdict(result)
      const records = recordsVerdict(result)
      const markdown = toMarkdown(result, memory, records, new Date())
      if (args.record) await writeSection(join(ROOT, 'RELIABILITY.md'), markdown)
      else
        await mkdir(join(ROOT, 'bench/results/tmp'), { recursive: true }).then(() =>
          writeFile(join(ROOT, 'bench/results/tmp/soak.md'), `${markdown}\n`),
        )
      console.log(markdown)
      return unexpectedTotal(result) === 0 && result.gatewayErrors.length === 0 && memory.flat && records.bounded
        ? 0
        : 1
    } finally {
      await gateway.stop()
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

interface Gateway {
  url: string
  pid: number
  errors: string[]
  stop(): Promise<void>
}

/** `npm start`'s gateway as a child process, logging warnings and errors only (kept for the verdict). */
function startGateway(dir: string): Promise<Gateway> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'gateway/serve.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      DIST_DIR: join(dir, 'dist'),
      KEYS_FILE: join(dir, 'keys.json'),
      OAUTH_CLIENTS_FILE: join(dir, 'clients.json'),
      // The authorization state (and the failed-authentication counts) in the run's own folder, not the repository's.
      OAUTH_STORE_DIR: join(dir, 'oauth-state'),
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'x-forwarded-for',
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      // Each worker reads the long tail far faster than a client should; the flood checks the limits.
      COMPUTED_RATE_LIMIT_PER_MINUTE: '100000000',
      OAUTH_MAX_REGISTERED_CLIENTS: String(CEILING),
      OAUTH_MAX_PENDING_AUTHORIZATIONS: String(CEILING),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const errors: string[] = []
  let stderr = ''
  let stopping = false
  const born = performance.now()
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) if (line.includes('"level":"error"')) errors.push(line)
  })
  return new Promise((done, fail) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
      const match = /at (http:\/\/\S+)/.exec(stderr)
      if (match)
        done({
          url: match[1]!,
          pid: child.pid!,
          errors,
          stop: () => {
            stopping = true
            return stop(child)
          },
        })
    })
    child.once('exit', (code, signal) => {
      // After start-up, an exit before stop() is a crash: the verdict must see it.
      if (!stopping)
        errors.push(
          `gateway exited (code ${code}, signal ${signal}) ${((performance.now() - born) / 1000).toFixed(0)} s after it started: ${stderr.slice(-2000)}`,
        )
      fail(new Error(`gateway exited with ${code}: ${stderr}`))
    })
  })
}

function stop(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done()
    child.once('exit', () => done())
    child.kill('SIGTERM')
  })
}

/** Slugs and ETags to ask for, from the gateway itself. */
async function discover(url: string, clientBasic: string): Promise<MixContext> {
  const slugs = {} as Record<CollectionName, string[]>
  const etags = new Map<string, string>()
  for (const name of COLLECTION_NAMES) {
    const list = (await (await fetch(`${url}/api/${name}?limit=100`)).json()) as { data: { slug: string }[] }
    slugs[name] = list.data.map((d) => d.slug)
    for (let limit = 1; limit <= 100; limit++) {
      const res = await fetch(`${url}/api/${name}?limit=${limit}`, { method: 'HEAD' })
      etags.set(`/api/${name}?limit=${limit}`, res.headers.get('etag')!)
    }
  }
  return { slugs, etags, agentKey: '', clientBasic, ip: '' }
}

/** The client the authorization starts name: registered as a host would, once. */
async function registerClient(url: string): Promise<string> {
  const res = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.5.5.5' },
    body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none' }),
  })
  if (res.status !== 201) throw new Error(`registering the soak's client answered ${res.status}`)
  return ((await res.json()) as { client_id: string }).client_id
}

async function run(
  gateway: Gateway,
  base: MixContext,
  agentKeys: string[],
  stateDir: string,
  clientId: string,
): Promise<SoakResult> {
  const result: SoakResult = {
    seconds: SECONDS,
    workers: WORKERS,
    warmupSeconds: WARMUP,
    kinds: new Map(),
    memory: [],
    records: [],
    ceiling: CEILING,
    samples: [],
    gatewayErrors: gateway.errors,
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at start`,
  }
  const started = performance.now()
  const deadline = started + SECONDS * 1000
  const sample = () =>
    Promise.all([sampleMemory(gateway.pid, started, result), sampleRecords(stateDir, started, result)])
  const sampler = setInterval(() => void sample(), 5_000)
  await sample()
  const worker = async (index: number) => {
    const ctx = { ...base, ip: `10.0.0.${index + 1}`, agentKey: agentKeys[index]! }
    let nextDynamic = performance.now()
    while (performance.now() < deadline) {
      const roll = Math.random()
      let planned: Planned
      if (roll < 0.08) planned = badRequest(ctx)
      else if (roll < 0.3 && performance.now() >= nextDynamic) {
        planned = dynamicRequest(ctx)
        nextDynamic = performance.now() + 1000 / DYNAMIC_PER_SECOND
      } else planned = readRequest(ctx)
      await execute(gateway.url, planned, result)
    }
  }
  // One client ignoring its limit: 401 until the limiter cuts in, then 429.
  const flood = async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-forwarded-for': '10.9.9.9',
    }
    while (performance.now() < deadline)
      await execute(
        gateway.url,
        { kind: 'flood', path: '/mcp', init: { method: 'POST', headers, body }, expect: [401, 429] },
        result,
      )
  }
  // Guessers, paced: made-up API keys and client secrets from one address (401, then 429 once it is over the
  // failed-authentication limit), and wrong secrets for the workers' own client_id from ever new addresses
  // (401, then 429 for that client_id), while the workers' right secret must keep getting tokens.
  const paced = (perSecond: number, next: (n: number) => Planned) => async () => {
    for (let n = 0; performance.now() < deadline; n++) {
      const started = performance.now()
      await execute(gateway.url, next(n), result)
      await sleep(Math.max(0, 1000 / perSecond - (performance.now() - started)))
    }
  }
  await Promise.all([
    ...Array.from({ length: WORKERS }, (_, i) => worker(i)),
    flood(),
    paced(40, guessRequest)(),
    paced(5, sprayRequest)(),
    // Anonymous callers making the authorization server keep things: bounded by the budgets and ceilings.
    paced(ANONYMOUS_PER_SECOND, registrationRequest)(),
    paced(ANONYMOUS_PER_SECOND, (n) => authorizationRequest(n, clientId))(),
  ])
  clearInterval(sampler)
  await sample()
  return result
}

async function execute(url: string, planned: Planned, result: SoakResult): Promise<void> {
  let stats = result.kinds.get(planned.kind)
  if (!stats)
    result.kinds.set(
      planned.kind,
      (stats = { count: 0, unexpected: 0, durations: [], statuses: new Map() } satisfies KindStats),
    )
  const t0 = performance.now()
  let status = 0
  let problem = ''
  try {
    if (planned.raw !== undefined) {
      status = (await rawRequest(url, planned.raw)).status
    } else {
      const res = await fetch(`${url}${planned.path}`, planned.init)
      status = res.status
      const text = await res.text()
      if (planned.jsonRpcResult && status === 200) {
        const message = JSON.parse(text) as { result?: { isError?: boolean }; error?: unknown }
        if (!message.result || message.result.isError) problem = `JSON-RPC ${text.slice(0, 160)}`
      }
    }
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause
    problem = `network error: ${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`
  }
  stats.durations.push(performance.now() - t0)
  stats.count++
  stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1)
  if (!planned.expect.includes(status) || problem) {
    stats.unexpected++
    const sample = `${planned.kind} ${planned.path || planned.raw?.slice(0, 40)}: ${status} ${problem}`.trim()
    if (result.samples.length < 10 && !result.samples.includes(sample)) result.samples.push(sample)
  }
}

/** The store's records (one file each): registered clients, authorization requests in progress, all. */
async function sampleRecords(stateDir: string, started: number, result: SoakResult): Promise<void> {
  const files = await readdir(stateDir, { recursive: true, withFileTypes: true }).catch(() => [])
  const records = files.filter((f) => f.isFile() && f.name.endsWith('.json'))
  const under = (folder: string) => records.filter((f) => f.parentPath === join(stateDir, 'oidc', folder)).length
  result.records.push({
    atSeconds: (performance.now() - started) / 1000,
    clients: under('Client'),
    interactions: under('Interaction'),
    total: records.length,
  })
}

async function sampleMemory(pid: number, started: number, result: SoakResult): Promise<void> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
  if (Number.isFinite(kb)) result.memory.push({ atSeconds: (performance.now() - started) / 1000, rssMb: kb / 1024 })
}

process.exitCode = await main()
