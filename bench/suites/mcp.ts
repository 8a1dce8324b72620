/**
 * MCP tools/call search_content end to end: one client, sequential calls over
 * keep-alive HTTP to the real gateway (`gateway/serve.ts`) with a real
 * `agent.mcp` API key made and stored by the gateway's own key code, beside
 * the ceiling (a bare node:http server answering the same bytes). The
 * client runs in this process, the servers in their own.
 */
import { writeFile } from 'node:fs/promises'
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
}

/** A keys file with one fresh agent.mcp key; returns the key (kept in memory only). */
async function agentKey(dir: string): Promise<{ key: string; file: string }> {
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

function searchCall(query: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search_content', arguments: { query, limit: 5 } },
  })
}

/** Median and 95th percentile milliseconds of `CALLS` sequential calls after a warm-up. */
async function timeCalls(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ median: number; p95: number }> {
  const times: number[] = []
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const started = performance.now()
    const response = await fetch(url, { method: 'POST', headers, body })
    const text = await response.text()
    const elapsed = performance.now() - started
    if (!response.ok || !text.includes('"result"'))
      throw new Error(`tools/call answered ${response.status}: ${text.slice(0, 300)}`)
    if (i >= WARMUP) times.push(elapsed)
  }
  const sorted = [...times].sort((a, b) => a - b)
  return { median: median(times), p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]! }
}

export async function benchMcp(root: string, runs: number): Promise<McpSamples | string> {
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
    const samples: McpSamples = { gateway: [], gatewayP95: [], ceiling: [] }
    for (let run = 0; run < runs; run++) {
      const timed = await timeCalls(`${gateway.url}/mcp`, headers, body)
      samples.gateway.push(timed.median)
      samples.gatewayP95.push(timed.p95)
      samples.ceiling.push((await timeCalls(`${ceiling.url}/mcp`, headers, body)).median)
    }
    return samples
  } finally {
    await ceiling?.stop()
    await gateway.stop()
  }
}
