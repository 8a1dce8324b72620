/**
 * MCP tools/call search_content end to end: one client, sequential calls over
 * keep-alive HTTP to the real gateway (`gateway/serve.ts`) with a real
 * `agent.mcp` API key made and stored by the gateway's own key code, beside
 * the ceiling (a bare node:http server answering the same bytes); the same
 * with a tag filter; and `GET /api/search`, each call a query not asked
 * before (the gateway repeats an answer it gave, which would time the memo,
 * not the search). The client runs in this process, the servers in their own.
 */
import { writeFile } from 'node:fs/promises'
import type { Manifest } from '../../contract/manifest.ts'
import { join } from 'node:path'
import { generateApiKey, hashApiKey } from '../../gateway/auth/api-key.ts'
import { newKeyId, writeKeysFile } from '../../gateway/auth/keys-file.ts'
import { REPO_ROOT, TSX_NODE_ARGS } from '../lib/paths.ts'
import { startChildServer, type ChildServer } from '../lib/server.ts'
import { median } from '../lib/stats.ts'
import type { CeilingRoute } from '../servers/ceiling.ts'
import { replayable, startGatewayProcess } from './gateway.ts'

const CALLS = 200
const WARMUP = 30

export interface McpSamples {
  /** Median of each run. */
  gateway: number[]
  /** 95th percentile of each run. */
  gatewayP95: number[]
  ceiling: number[]
  /** The same search with a tag filter: median and 95th percentile of each run. */
  filtered: number[]
  filteredP95: number[]
  /** GET /api/search, a new query each call: median and 95th percentile of each run. */
  rest: number[]
  restP95: number[]
}

/** A keys file with one fresh agent.mcp key; returns the key (kept in memory only). */
export async function agentKey(dir: string): Promise<{ key: string; file: string }> {
  const key = generateApiKey('live')
  const file = join(dir, 'bench-keys.json')
  await writeKeysFile(file, {
    version: 1,
    keys: [
      {
        id: newKeyId(),
        hash: hashApiKey(key),
        role: 'agent.mcp',
        label: 'benchmark agent key',
        created_at: new Date().toISOString(),
      },
    ],
  })
  return { key, file }
}

export function searchCall(query: string, filters: Record<string, string> = {}): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search_content', arguments: { query, limit: 5, ...filters } },
  })
}

/** Words both corpora (generated and reshuffled prose) use, two by two: a query each call, none asked twice. */
const WORDS = [
  ['data', 'pipeline', 'warehouse', 'quality', 'schema', 'lineage', 'incident', 'cost', 'team', 'metrics', 'tests'],
  ['contracts', 'reliability', 'migration', 'alerts', 'ownership', 'freshness', 'models', 'review', 'spend', 'sla'],
  ['at scale', 'in production', 'for analysts', 'and dashboards', 'without downtime', 'with dbt', 'monitoring'],
]
function restQueries(count: number): string[] {
  const out: string[] = []
  const [a, b, c] = WORDS as [string[], string[], string[]]
  for (const x of a) for (const y of b) for (const z of c) out.push(`${x} ${y} ${z}`)
  return out.slice(0, count)
}

/** Median and 95th percentile milliseconds of `CALLS` sequential calls after a warm-up (`request(i)`: the i-th call). */
async function timeRequests(
  request: (i: number) => { url: string; init?: RequestInit },
  answered: (text: string) => boolean,
): Promise<{ median: number; p95: number }> {
  const times: number[] = []
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const { url, init } = request(i)
    const started = performance.now()
    const response = await fetch(url, init)
    const text = await response.text()
    const elapsed = performance.now() - started
    if (!response.ok || !answered(text))
      throw new Error(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 300)}`)
    if (i >= WARMUP) times.push(elapsed)
  }
  const sorted = [...times].sort((a, b) => a - b)
  return { median: median(times), p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]! }
}

const isResult = (text: string) => text.includes('"result"') && !text.includes('"isError":true')

function timeCalls(url: string, headers: Record<string, string>, body: string) {
  return timeRequests(() => ({ url, init: { method: 'POST', headers, body } }), isResult)
}

/** `tag`: a tag many items have, for the filtered search. */
export async function benchMcp(root: string, runs: number, tag: string): Promise<McpSamples | string> {
  const { key, file } = await agentKey(root)
  // The limiter stays on (its cost is part of every call) but with room for the benchmark's calls.
  const gateway = await startGatewayProcess(join(root, 'dist'), { KEYS_FILE: file, RATE_LIMIT_PER_MINUTE: '1000000' })
  let ceiling: ChildServer | undefined
  try {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
    }
    const body = searchCall('data contracts pipeline')
    const first = await fetch(`${gateway.url}/mcp`, { method: 'POST', headers, body })
    const bytes = Buffer.from(await first.arrayBuffer())
    if (first.status === 404) return 'pending: /mcp is not served by gateway/serve.ts'
    if (!first.ok) throw new Error(`POST /mcp answered ${first.status}: ${bytes.toString().slice(0, 300)}`)
    const routes: CeilingRoute[] = [
      {
        method: 'POST',
        path: '/mcp',
        status: first.status,
        headers: replayable(first.headers),
        body: bytes.toString('base64'),
      },
    ]
    const routesFile = join(root, 'ceiling-mcp.json')
    await writeFile(routesFile, JSON.stringify(routes))
    ceiling = await startChildServer(
      [...TSX_NODE_ARGS, 'bench/servers/ceiling.ts', routesFile],
      /"url":"(http:\/\/[^"]+)"/,
      { cwd: REPO_ROOT },
    )
    const samples: McpSamples = {
      gateway: [],
      gatewayP95: [],
      ceiling: [],
      filtered: [],
      filteredP95: [],
      rest: [],
      restP95: [],
    }
    const filtered = searchCall('reliable warehouse', { tag })
    const queries = restQueries((WARMUP + CALLS) * runs)
    for (let run = 0; run < runs; run++) {
      const timed = await timeCalls(`${gateway.url}/mcp`, headers, body)
      samples.gateway.push(timed.median)
      samples.gatewayP95.push(timed.p95)
      samples.ceiling.push((await timeCalls(`${ceiling.url}/mcp`, headers, body)).median)
      const withTag = await timeCalls(`${gateway.url}/mcp`, headers, filtered)
      samples.filtered.push(withTag.median)
      samples.filteredP95.push(withTag.p95)
      const rest = await timeRequests(
        (i) => ({
          url: `${gateway.url}/api/search?q=${encodeURIComponent(queries[(run * (WARMUP + CALLS) + i) % queries.length]!)}`,
        }),
        (text) => text.includes('"total"'),
      )
      samples.rest.push(rest.median)
      samples.restP95.push(rest.p95)
    }
    return samples
  } finally {
    await ceiling?.stop()
    await gateway.stop()
  }
}

/** The blog posts' tags, the most used first. */
export function tagsByUse(manifest: Manifest): string[] {
  const counts = new Map<string, number>()
  for (const p of manifest.collections['blog-posts'] ?? [])
    for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([t]) => t)
}

/** A tag many items have: the filtered search's. */
export function commonTag(manifest: Manifest): string {
  return tagsByUse(manifest)[0] ?? 'data-contracts'
}
