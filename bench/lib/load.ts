/** One autocannon run, in its own process so the load generator never shares an event loop with a server. */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { BIN } from './paths.ts'

const run = promisify(execFile)

export interface LoadOptions {
  connections: number
  seconds: number
  method?: string
  body?: string
  headers?: Record<string, string>
}

export interface LoadResult {
  rps: number
  p50: number
  p99: number
  requests: number
  /** Non-2xx answers and socket errors: a correct run has none. */
  bad: number
}

interface AutocannonJson {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  non2xx: number
  errors: number
  timeouts: number
}

export async function loadTest(url: string, options: LoadOptions): Promise<LoadResult> {
  // autocannon counts the requests of each sample, a second long by default: a run shorter than a
  // second (the smoke test's) is sampled over its own length, and its count scaled to a second.
  const sampleMs = Math.min(1000, Math.round(options.seconds * 1000))
  const args = [BIN.autocannon, '-j', '-n', '-c', String(options.connections), '-d', String(options.seconds)]
  args.push('-L', String(sampleMs))
  if (options.method) args.push('-m', options.method)
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`)
  if (options.body !== undefined) args.push('-b', options.body)
  args.push(url)
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 })
  const json = JSON.parse(stdout) as AutocannonJson
  return {
    rps: json.requests.average * (1000 / sampleMs),
    p50: json.latency.p50,
    p99: json.latency.p99,
    requests: json.requests.total,
    bad: json.non2xx + json.errors + json.timeouts,
  }
}
