/**
 * Cache-Control near a release on a multilingual build, over HTTP, on the
 * gateway's own clock (the platform's `now`, set by the test): every answer
 * of the build is capped at its next release, whether the locale came from
 * `?locale=` or from Accept-Language (bare lists, items and search, which the
 * fast path does not repeat), and a `when=` answer near an event's start is
 * capped at the release too, not only at the start; MCP's `ttlMs` likewise.
 * Far from the release the usual lifetimes stand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CACHE } from '../../../contract/headers.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { copyOfLocaleFixture } from '../../helpers/project.ts'
import { MCP_HEADERS, MODERN } from '../mcp/setup.ts'

/** After the tests' BUILD_TIME (2028-01-01), so the build has it as its next release. */
const RELEASE = '2028-03-01T09:00:00Z'
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')
/** An event starting half a minute after the release: `when=` answers change then too. */
const START = iso(Date.parse(RELEASE) + 30_000)

let clock = Date.parse(RELEASE) - 90_000
let gw: BuiltGateway

beforeAll(async () => {
  const project = await copyOfLocaleFixture()
  await project.write(
    'content/blog-posts/cache-cap-launch.md',
    `---\ntitle: Cache cap launch\npublished_at: ${RELEASE}\nauthors:\n  - name: A\n---\nLaunch.\n`,
  )
  await project.write(
    'content/events/cache-cap-meetup.md',
    `---\ntitle: Cache cap meetup\npublished_at: 2026-01-05\nstarts_at: ${START}\nends_at: ${iso(Date.parse(START) + 3_600_000)}\ntimezone: Europe/Berlin\nattendance_mode: online\nevent_status: scheduled\nonline_url: https://live.fixture.example/meetup\n---\nA meetup.\n`,
  )
  gw = await startBuiltGateway({ project, env: { MCP_AUTH: 'off' }, platform: { now: () => new Date(clock) } })
}, 120_000)

afterAll(async () => {
  await gw?.close()
  await gw?.project.remove()
})

/** Paths and the Accept-Language each is asked with ('' for none sent: the locale still negotiated). */
const ASKED: [path: string, language: string][] = [
  ['/api/blog-posts', 'de'],
  ['/api/blog-posts', ''],
  ['/api/blog-posts?limit=5&tag=data-contracts', 'fr'],
  ['/api/blog-posts/datenvertraege-in-der-ci', 'de'],
  ['/api/search?q=daten', 'de'],
  ['/api/blog-posts?locale=fr', ''],
  ['/api/events?when=upcoming&sort=starts_at', 'de'],
  ['/api/events?when=upcoming&sort=starts_at&locale=fr', ''],
  ['/api/changes', ''],
  ['/feeds/de/all.xml', ''],
]

async function cacheControl(path: string, language: string): Promise<string> {
  const response = await fetch(`${gw.url}${path}`, { headers: language ? { 'accept-language': language } : {} })
  await response.arrayBuffer()
  expect(response.status, path).toBe(200)
  return response.headers.get('cache-control')!
}

/** `ttlMs` of an MCP resources/list with `locale`, as a 2026-07-28 client asks (the envelope in _meta). */
async function mcpTtl(): Promise<number> {
  const response = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'resources/list' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { result: { ttlMs: number } }).result.ttlMs
}

/** max-age and the stale allowance together: how long any cache may keep the answer. */
function kept(value: string): number {
  const seconds = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(value)?.[1] ?? 0)
  return seconds('max-age') + seconds('stale-while-revalidate')
}

describe('Cache-Control of a multilingual build near a release', () => {
  it('the build states the release', async () => {
    const health = (await (await fetch(`${gw.url}/api/health`)).json()) as { build: { next_release_at: string } }
    expect(health.build.next_release_at).toBe(RELEASE)
  })

  it('far from it, answers carry the usual lifetimes', async () => {
    clock = Date.parse(RELEASE) - 86_400_000
    expect(await cacheControl('/api/blog-posts', 'de')).toBe(CACHE.content)
    expect(await cacheControl('/api/blog-posts/datenvertraege-in-der-ci', 'de')).toBe(CACHE.content)
    expect(await cacheControl('/feeds/de/all.xml', '')).toBe(CACHE.document)
    expect(await mcpTtl()).toBe(60_000)
  })

  it('90 s before it, no answer may be kept past it, however its locale was chosen', async () => {
    clock = Date.parse(RELEASE) - 90_000
    for (const [path, language] of ASKED) {
      const value = await cacheControl(path, language)
      expect(kept(value), `${path} (${language || 'no Accept-Language'}): ${value}`).toBeLessThanOrEqual(90)
    }
    expect(await cacheControl('/api/blog-posts', 'de')).toBe('public, max-age=60, stale-while-revalidate=30')
    // Asked again (the fast path may answer a repeated target): still capped, and shrinking with the clock.
    clock = Date.parse(RELEASE) - 20_000
    expect(await cacheControl('/api/blog-posts?locale=fr', '')).toBe('public, max-age=20, stale-while-revalidate=0')
    expect(await cacheControl('/api/search?q=daten', 'de')).toBe('public, max-age=20, stale-while-revalidate=0')
    expect(await cacheControl('/api/events?when=upcoming&sort=starts_at', 'de')).toBe(
      'public, max-age=20, stale-while-revalidate=0',
    )
    expect(await mcpTtl()).toBe(20_000)
  })
})
