/**
 * The gateway's resident memory at several corpus sizes: the real
 * `gateway/serve.ts` over each build, after serving a mix of what clients
 * ask (lists, items, the long tail, health, full-text search) under load,
 * then an agent's searches (MCP search_content, sequential, queries and
 * filters varied). Peak resident memory (VmHWM) is what a host must provide;
 * the growth between sizes is what the corpus costs.
 */
import type { Manifest } from '../../contract/manifest.ts'
import { loadTest } from '../lib/load.ts'
import { processMemory } from '../lib/process.ts'
import { startGatewayProcess } from './gateway.ts'
import { agentKey, searchCall } from './mcp.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'

const SLUG = new RegExp(SLUG_PATTERN)
/** MCP search calls after the load mix: an agent host's searches, several per answer. */
const AGENT_SEARCHES = 600
const AGENT_QUERIES = [
  'data contracts pipeline',
  'reliable warehouse',
  'customer onboarding',
  'schema migration',
  'incident review',
  'lineage at scale',
  'warehouse spend',
  'freshness alerts',
]

export interface MemorySample {
  items: number
  /** Resident after loading the build, and the peak after the load. */
  idleMb: number
  peakMb: number
}

/** Requests of the mix: one of each kind, all answered 200. */
function mix(manifest: Manifest): string[] {
  // The corpus names some files with capitals (reverse-ETL-…): the API serves no such slug.
  const servable = (r: { slug: string }) => SLUG.test(r.slug)
  const posts = manifest.collections['blog-posts']!.filter(servable)
  const events = manifest.collections.events!.filter(servable)
  const tag = posts[0]?.tags[0] ?? 'data-contracts'
  return [
    '/api/blog-posts?limit=10',
    '/api/events?limit=100',
    ...posts.slice(0, 20).map((p) => `/api/blog-posts/${p.slug}`),
    ...events.slice(0, 5).map((e) => `/api/events/${e.slug}`),
    `/api/blog-posts?limit=10&page=3&tag=${tag}`,
    '/api/health',
    '/api/search?q=data+contracts+pipeline',
    '/api/search?q=reliable+warehouse',
    '/openapi.json',
  ]
}

/** `workDir`: where the agent's key file is written. */
export async function benchMemory(
  distDir: string,
  manifest: Manifest,
  items: number,
  options: { seconds: number; connections: number; workDir: string },
): Promise<MemorySample> {
  const { key, file } = await agentKey(options.workDir)
  const gateway = await startGatewayProcess(distDir, { KEYS_FILE: file, RATE_LIMIT_PER_MINUTE: '1000000' })
  try {
    const idle = await processMemory(gateway.pid)
    for (const path of mix(manifest)) {
      const response = await fetch(gateway.url + path)
      await response.arrayBuffer()
      if (!response.ok) throw new Error(`${path} answered ${response.status}`)
    }
    const last = manifest.collections['blog-posts']!.filter((r) => SLUG.test(r.slug)).at(-1)!
    for (const path of [
      '/api/blog-posts?limit=100',
      `/api/blog-posts/${last.slug}`,
      '/api/search?q=data+contracts+pipeline',
    ]) {
      await loadTest(gateway.url + path, options)
    }
    await agentSearches(gateway.url, key, last.tags[0] ?? 'data-contracts')
    const after = await processMemory(gateway.pid)
    if (!idle || !after) throw new Error('cannot read the gateway process memory (no /proc?)')
    return { items, idleMb: idle.rssMb, peakMb: after.peakMb }
  } finally {
    await gateway.stop()
  }
}

/** `AGENT_SEARCHES` sequential search_content calls: plain, in one collection, with a tag. */
async function agentSearches(url: string, key: string, tag: string): Promise<void> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${key}`,
  }
  for (let i = 0; i < AGENT_SEARCHES; i++) {
    const query = AGENT_QUERIES[i % AGENT_QUERIES.length]!
    const filters: Record<string, string> = [{}, { collection: 'blog-posts' }, { tag }][i % 3]!
    const response = await fetch(`${url}/mcp`, { method: 'POST', headers, body: searchCall(query, filters) })
    const text = await response.text()
    if (!response.ok || !text.includes('"result"'))
      throw new Error(`search_content answered ${response.status}: ${text.slice(0, 300)}`)
  }
}
