/**
 * `when=upcoming|past` across an event's start, on the gateway's own clock
 * (the platform's `now`, set by the test): the event is upcoming until the
 * instant it starts and past from then on, for the same URL asked again (no
 * answer kept from before), in lists, search and the MCP tools alike; each
 * answer may be cached no longer than until the next start, and within one
 * window the bytes (and the ETag) stay the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CACHE } from '../../../contract/headers.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { connectClient, startMcpGateway, type McpClient, type McpTestGateway } from '../mcp/setup.ts'

/** The event the clock walks past, and its start (2027-01-14T17:00:00+01:00). */
const EVENT = 'lineage-office-hours-2027'
const START = Date.parse('2027-01-14T16:00:00Z')

let clock = START - 90_000
let t: McpTestGateway
let client: McpClient

beforeAll(async () => {
  t = await startMcpGateway({ now: () => new Date(clock), env: { COMPUTED_RATE_LIMIT_PER_MINUTE: '0' } })
  client = await connectClient(t.url, await t.token(['mcp.tools.invoke']))
})
afterAll(async () => {
  await client?.close()
  await t?.close()
})

type List = { data: { slug: string; starts_at: string }[]; meta: { total: number } }

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, { headers })
  await assertMatchesContract('GET', path, response)
  return response
}

async function slugsAt(at: number, path: string): Promise<string[]> {
  clock = at
  const response = await get(path)
  expect(response.status).toBe(200)
  return ((await response.json()) as List).data.map((i) => i.slug)
}

const UPCOMING = '/api/events?when=upcoming&sort=starts_at&limit=100'
const PAST = '/api/events?when=past&limit=100'

describe('when, around an event’s start', () => {
  it('the event is upcoming until it starts, then past, for the very same request', async () => {
    expect((await slugsAt(START - 90_000, UPCOMING))[0]).toBe(EVENT)
    expect(await slugsAt(START - 1, UPCOMING)).toContain(EVENT)
    expect(await slugsAt(START - 1, PAST)).not.toContain(EVENT)
    expect(await slugsAt(START, UPCOMING)).not.toContain(EVENT)
    expect((await slugsAt(START, PAST))[0]).toBe(EVENT)
    // Back before the start (another clock, say): the answer follows the clock, not what was served last.
    expect(await slugsAt(START - 1, UPCOMING)).toContain(EVENT)
  })

  it('upcoming and past split the events between them at any instant', async () => {
    const all = (await (await get('/api/events?limit=100')).json()) as List
    for (const at of [START - 1, START, START + 86_400_000]) {
      const upcoming = await slugsAt(at, UPCOMING)
      const past = await slugsAt(at, PAST)
      expect([...upcoming, ...past].sort()).toEqual(all.data.map((i) => i.slug).sort())
      expect(upcoming.every((slug) => Date.parse(all.data.find((i) => i.slug === slug)!.starts_at) > at)).toBe(true)
    }
  })

  it('caps Cache-Control at the next start, and keeps bytes and ETag within the window', async () => {
    clock = START - 90_000
    const early = await get(UPCOMING)
    expect(early.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=30')
    const etag = early.headers.get('etag')!
    clock = START - 1_500
    const late = await get(UPCOMING)
    expect(late.headers.get('cache-control')).toBe('public, max-age=1, stale-while-revalidate=0')
    expect(late.headers.get('etag')).toBe(etag)
    expect(await late.text()).toBe(await early.text())
    const notModified = await get(UPCOMING, { 'if-none-match': etag })
    expect(notModified.status).toBe(304)
    expect(notModified.headers.get('cache-control')).toBe('public, max-age=1, stale-while-revalidate=0')
    clock = START
    const after = await get(UPCOMING, { 'if-none-match': etag })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(etag)
    // The next event starts weeks later: the usual lifetime again.
    expect(after.headers.get('cache-control')).toBe(CACHE.content)
  })

  it('repeats an answer far from a start as it is, but not into the last minutes before the next one', async () => {
    const events = (await (await get('/api/events?limit=100&sort=starts_at')).json()) as List
    const next = Date.parse(events.data.find((e) => Date.parse(e.starts_at) > START)!.starts_at)
    clock = START + 86_400_000
    const far = await get(UPCOMING)
    expect(far.headers.get('cache-control')).toBe(CACHE.content)
    // Asked again: the same answer (Node's fast path repeats it from here on).
    expect((await get(UPCOMING)).headers.get('etag')).toBe(far.headers.get('etag'))
    clock = next - 100_000
    const near = await get(UPCOMING)
    expect(near.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=40')
    expect(near.headers.get('etag')).toBe(far.headers.get('etag'))
    clock = next
    expect((await get(UPCOMING)).headers.get('etag')).not.toBe(far.headers.get('etag'))
  })

  it('webinars the same way, on their own starts', async () => {
    const webinars = (await (await get('/api/webinars?limit=100&sort=starts_at')).json()) as List
    const next = webinars.data.find((w) => Date.parse(w.starts_at) > START)!
    const at = Date.parse(next.starts_at)
    const path = '/api/webinars?when=upcoming&sort=starts_at'
    expect((await slugsAt(at - 1, path))[0]).toBe(next.slug)
    expect(await slugsAt(at, path)).not.toContain(next.slug)
  })

  it('search filters by the same clock, with the same cap', async () => {
    const path = '/api/search?q=lineage&when=upcoming&limit=100'
    expect(await slugsAt(START - 1, path)).toContain(EVENT)
    expect((await get(path)).headers.get('cache-control')).toMatch(/^public, max-age=[01], stale-while-revalidate=0$/)
    expect(await slugsAt(START, path)).not.toContain(EVENT)
    // Search hits are events and webinars only.
    expect((await slugsAt(START, '/api/search?q=lineage&when=past&limit=100')).length).toBeGreaterThan(0)
  })

  it('list_content and list_upcoming read the same clock', async () => {
    const listed = async (at: number, args: Record<string, unknown>) => {
      clock = at
      const result = await client.callTool({ name: 'list_content', arguments: { collection: 'events', ...args } })
      expect(result.isError ?? false).toBe(false)
      return (result.structuredContent as List).data.map((i) => i.slug)
    }
    expect((await listed(START - 1, { when: 'upcoming', sort: ['starts_at'] }))[0]).toBe(EVENT)
    expect(await listed(START, { when: 'upcoming' })).not.toContain(EVENT)
    clock = START - 1
    const upcoming = await client.callTool({ name: 'list_upcoming', arguments: { author: 'Łukasz Wiśniewski' } })
    expect((upcoming.structuredContent as { items: { slug: string }[] }).items.map((i) => i.slug)).toEqual([EVENT])
  })
})
