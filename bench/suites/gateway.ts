/**
 * The gateway under load beside its ceiling: the real `gateway/serve.ts`
 * (bundled and run as `npm start` runs it) and a bare node:http server answering the same
 * bytes from memory, each in its own process, loaded by autocannon in a third.
 * Runs are interleaved (gateway, ceiling, gateway, …) so noise hits both alike.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT, RUN_COMMAND, SERVE_NODE_ARGS, TSX_NODE_ARGS } from '../lib/paths.ts'
import { loadTest, type LoadOptions, type LoadResult } from '../lib/load.ts'
import { processMemory } from '../lib/process.ts'
import { startChildServer, type ChildServer } from '../lib/server.ts'
import type { CeilingRoute } from '../servers/ceiling.ts'

export interface Target {
  id: string
  label: string
  path: string
  method?: string
  body?: string
  headers?: Record<string, string>
}

export interface TargetSamples {
  target: Target
  gateway: LoadResult[]
  ceiling: LoadResult[]
}

export interface GatewaySamples {
  targets: TargetSamples[]
  /** Resident memory of the gateway after loading the build, and its peak after the load runs. */
  memory: { idleMb: number; afterMb: number; peakMb: number } | undefined
}

/** gateway/serve.ts as `npm start` runs it: the prebuilt command (build/run.mjs serve), on node with its options. */
export async function startGatewayProcess(distDir: string, env: NodeJS.ProcessEnv = {}): Promise<ChildServer> {
  return startChildServer(
    [...SERVE_NODE_ARGS, RUN_COMMAND, 'serve'],
    /gateway \(pid \d+\) serving build \S+ at (http:\/\/\S+)/,
    {
      cwd: REPO_ROOT,
      env: {
        DIST_DIR: distDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        // The budget of computed answers on, as in production (its counting is part of each long-tail answer),
        // but wide enough for one client's load test.
        COMPUTED_RATE_LIMIT_PER_MINUTE: '100000000',
        ...env,
      },
    },
  )
}

/** Fetch every target once from the gateway: checks it answers 2xx and records the bytes for the ceiling. */
async function recordRoutes(gatewayUrl: string, targets: Target[], file: string): Promise<void> {
  const routes: CeilingRoute[] = []
  for (const t of targets) {
    const response = await fetch(gatewayUrl + t.path, { method: t.method ?? 'GET', body: t.body, headers: t.headers })
    const body = Buffer.from(await response.arrayBuffer())
    if (!response.ok)
      throw new Error(`${t.method ?? 'GET'} ${t.path} answered ${response.status}: ${body.toString().slice(0, 500)}`)
    routes.push({
      method: t.method ?? 'GET',
      path: t.path,
      status: response.status,
      headers: replayable(response.headers),
      body: body.toString('base64'),
    })
  }
  await writeFile(file, JSON.stringify(routes))
}

export async function benchGateway(
  distDir: string,
  targets: Target[],
  options: {
    runs: number
    /** Unrecorded one-second runs of each target against each server first (JIT, caches). */
    warmups: number
    load: Omit<LoadOptions, 'method' | 'body' | 'headers'>
    workDir: string
    env?: NodeJS.ProcessEnv
  },
): Promise<GatewaySamples> {
  const gateway = await startGatewayProcess(distDir, options.env)
  let ceiling: ChildServer | undefined
  try {
    const idle = await processMemory(gateway.pid)
    const routesFile = join(options.workDir, 'ceiling-routes.json')
    await recordRoutes(gateway.url, targets, routesFile)
    ceiling = await startChildServer(
      [...TSX_NODE_ARGS, 'bench/servers/ceiling.ts', routesFile],
      /"url":"(http:\/\/[^"]+)"/,
      { cwd: REPO_ROOT },
    )
    const samples: TargetSamples[] = targets.map((target) => ({ target, gateway: [], ceiling: [] }))
    const shortRun = { ...options.load, seconds: 1 }
    for (let warmup = 0; warmup < options.warmups; warmup++) {
      for (const s of samples) {
        // Warm both (JIT, caches) before anything is recorded.
        await loadTest(gateway.url + s.target.path, { ...shortRun, ...request(s.target) })
        await loadTest(ceiling.url + s.target.path, { ...shortRun, ...request(s.target) })
      }
    }
    for (let run = 0; run < options.runs; run++) {
      for (const s of samples) {
        s.gateway.push(await loadTest(gateway.url + s.target.path, { ...options.load, ...request(s.target) }))
        s.ceiling.push(await loadTest(ceiling.url + s.target.path, { ...options.load, ...request(s.target) }))
      }
    }
    const after = await processMemory(gateway.pid)
    const memory = idle && after ? { idleMb: idle.rssMb, afterMb: after.rssMb, peakMb: after.peakMb } : undefined
    return { targets: samples, memory }
  } finally {
    await ceiling?.stop()
    await gateway.stop()
  }
}

/** Response headers a server may replay as they are; Node writes the connection-level ones itself. */
export function replayable(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of headers)
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)) out[k] = v
  return out
}

function request(t: Target): Pick<LoadOptions, 'method' | 'body' | 'headers'> {
  return {
    ...(t.method ? { method: t.method } : {}),
    ...(t.body ? { body: t.body } : {}),
    ...(t.headers ? { headers: t.headers } : {}),
  }
}
