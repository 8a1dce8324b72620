/**
 * A scheduled item is in no artifact, and an expired one leaves only its
 * tombstone: every file of dist/, every answer a crawler of the public paths
 * reaches on the gateway (wired as `npm start` wires it) and every MCP answer
 * an agent can get without knowing the item are scanned for its slug, its
 * title and a phrase of its body. Built again as of a clock past the release
 * and the expiry, the released item is everywhere it belongs, the expired
 * one only in the change feed, as a deletion a synced client learns of.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import type { ChangesEnvelope } from '../../../contract/changes.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { initAndCommit } from '../../helpers/git.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { connectClient, type McpClient } from '../mcp/setup.ts'
import { crawl } from './crawl.ts'
import { distFiles as readDist, findings, mcpAnswers as scanMcp, queriesFor } from './leaks.ts'

const COMMITTED = Date.parse('2027-08-01T00:00:00Z') / 1000
const RELEASE = '2027-09-01T09:00:00Z'
const EXPIRY = '2027-09-01T12:00:00Z'
const BEFORE = '2027-08-31T00:00:00Z'
const AFTER = '2027-09-02T00:00:00Z'

/** What must not leak: the scheduled post and the webinar whose licence ends. */
const LAUNCH = {
  slug: 'zephyr-quasar-launch',
  title: 'Zephyr Quasar launch announcement',
  phrase: 'umbrella kumquat ostrich',
}
const REPLAY = {
  slug: 'marigold-licensed-replay',
  title: 'Marigold licensed replay',
  phrase: 'periwinkle saxophone tundra',
}

const LAUNCH_FILE = `---
title: ${LAUNCH.title}
summary: The launch of Zephyr Quasar, under embargo until launch day.
tags: [product-update]
published_at: ${RELEASE}
authors:
  - name: Zoë Brønsted
---

Zephyr Quasar ships today; the ${LAUNCH.phrase} protocol is what makes it fast.
`

const REPLAY_FILE = `---
title: ${REPLAY.title}
tags: [data-contracts]
published_at: 2027-06-01
expires_at: ${EXPIRY}
starts_at: 2027-06-10T17:00:00+02:00
duration_minutes: 45
timezone: Europe/Berlin
speakers:
  - name: Ana Pereira
recording_url: https://www.tidewater.example/webinars/${REPLAY.slug}/recording
---

The replay of our Marigold session, licensed until September: the ${REPLAY.phrase} case study in full.
`

let project: TempProject
let gateway: TestGateway
let agent: McpClient

const QUERIES = queriesFor([LAUNCH, REPLAY])
const SEARCHES = QUERIES.map((q) => `/api/search?q=${encodeURIComponent(q)}`)
const MCP_SCAN = {
  queries: QUERIES,
  prefixes: ['z', 'zephyr', 'm', 'marigold'],
  collections: ['blog-posts', 'webinars'],
}
const distFiles = () => readDist(project.dist)
const mcpAnswers = (client: McpClient) => scanMcp(client, MCP_SCAN)

const buildAsOf = (clock: string) => buildSite({ root: project.root, clock: () => Date.parse(clock) })

/** Build again as of `clock` and have the gateway load it, as after `npm run build` and a SIGHUP. */
async function rebuildAsOf(clock: string): Promise<void> {
  await buildAsOf(clock)
  await gateway.gateway.reload()
}

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await project.write(`content/blog-posts/${LAUNCH.slug}.md`, LAUNCH_FILE)
  await project.write(`content/webinars/${REPLAY.slug}.md`, REPLAY_FILE)
  await initAndCommit(project.root, COMMITTED)
  await buildAsOf(BEFORE)
  gateway = await startGateway(project.dist, { filesDir: project.root, keys: { agent: 'agent.mcp' } })
  agent = await connectClient(gateway.url, gateway.keys.agent)
}, 120_000)

afterAll(async () => {
  await agent?.close()
  await gateway?.close()
  await project?.remove()
})

describe('before the release', () => {
  let cursor: string

  it('no file of dist/ names the scheduled item, its title or its words', async () => {
    const files = await distFiles()
    expect(files.size).toBeGreaterThan(500)
    expect(findings(files, LAUNCH)).toEqual({ slug: [], title: [], phrase: [] })
    // The scan sees what is published: the webinar is, until its licence ends.
    expect(findings(files, REPLAY).title).toContain(`api/webinars/${REPLAY.slug}.json`)
    const manifest = JSON.parse(files.get('_build/manifest.json')!)
    expect(manifest.build.next_release_at).toBe(RELEASE)
  })

  it('no answer a crawler of the public paths reaches names it, and asking for it is a 404', async () => {
    const answers = await crawl(gateway.url, ['https://api.tidewater.example'], SEARCHES)
    expect(answers.size).toBeGreaterThan(100)
    expect(findings(answers, LAUNCH)).toEqual({ slug: [], title: [], phrase: [] })
    expect(findings(answers, REPLAY).title.length).toBeGreaterThan(3)
    expect((await fetch(`${gateway.url}/api/blog-posts/${LAUNCH.slug}`)).status).toBe(404)
    expect((await fetch(`${gateway.url}/calendar/blog-posts/${LAUNCH.slug}.ics`)).status).toBe(404)
    const health = await (await fetch(`${gateway.url}/api/health`)).json()
    expect(health.build.next_release_at).toBe(RELEASE)
    cursor = ((await (await fetch(`${gateway.url}/api/changes`)).json()) as ChangesEnvelope).meta.next_cursor
  }, 120_000)

  it('no MCP answer names it, and fetching it is a tool error', async () => {
    const answers = await mcpAnswers(agent)
    expect(findings(answers, LAUNCH)).toEqual({ slug: [], title: [], phrase: [] })
    expect(findings(answers, REPLAY).title.length).toBeGreaterThan(3)
    const fetched = await agent.callTool({ name: 'fetch', arguments: { id: `blog-posts/${LAUNCH.slug}` } })
    expect(fetched.isError).toBe(true)
  }, 120_000)

  describe('after the release and the expiry', () => {
    beforeAll(() => rebuildAsOf(AFTER), 120_000)

    it('the released item is in every file it belongs in; the expired one only in the change log and the redirects', async () => {
      const files = await distFiles()
      const launch = findings(files, LAUNCH)
      for (const file of [
        `api/blog-posts/${LAUNCH.slug}.json`,
        'api/blog-posts/_list/limit-10.json',
        'feeds/all.xml',
        'feeds/blog-posts.atom',
        'feeds/blog-posts.json',
        'llms-full.txt',
        '_build/manifest.json',
      ])
        expect(launch.title, file).toContain(file)
      expect(launch.phrase).toContain('llms-full.txt')
      expect(launch.slug).toEqual(expect.arrayContaining(['_build/changes.json', 'api/_changes.json', '_redirects']))
      // Its address answers 410 (the redirects' index and /api/redirects name it), nothing more.
      expect(findings(files, REPLAY)).toEqual({
        slug: expect.arrayContaining(['_build/changes.json', '_build/redirects.json', 'api/_redirects.json']),
        title: [],
        phrase: [],
      })
      expect(findings(files, REPLAY).slug).toHaveLength(3)
    })

    it('the gateway answers it, finds it, feeds it, and tells a synced client: created, and the tombstone', async () => {
      const answers = await crawl(gateway.url, ['https://api.tidewater.example'], SEARCHES)
      const launch = findings(answers, LAUNCH)
      for (const path of [
        `/api/blog-posts/${LAUNCH.slug}`,
        '/api/blog-posts?limit=100',
        SEARCHES[1]!,
        '/feeds/all.json',
        '/llms-full.txt',
      ])
        expect(launch.title, path).toContain(path)
      const replay = findings(answers, REPLAY)
      expect(replay.title).toEqual([])
      expect(replay.phrase).toEqual([])
      expect((await fetch(`${gateway.url}/api/webinars/${REPLAY.slug}`)).status).toBe(410)
      const since = (await (await fetch(`${gateway.url}/api/changes?since=${cursor}`)).json()) as ChangesEnvelope
      expect(since.data.map((e) => [e.change, e.slug, e.changed_at])).toEqual([
        ['created', LAUNCH.slug, RELEASE],
        ['deleted', REPLAY.slug, EXPIRY],
      ])
      const health = await (await fetch(`${gateway.url}/api/health`)).json()
      expect(health.build.next_release_at).toBeNull()
    }, 120_000)

    it('MCP finds and fetches the released item, and no longer the expired one', async () => {
      // A new client: one from before would keep the answers it cached (ttlMs), as a browser keeps a list.
      await agent.close()
      agent = await connectClient(gateway.url, gateway.keys.agent)
      const found = await agent.callTool({ name: 'search', arguments: { query: LAUNCH.phrase } })
      expect(JSON.stringify(found)).toContain(`blog-posts/${LAUNCH.slug}`)
      const fetched = await agent.callTool({ name: 'fetch', arguments: { id: `blog-posts/${LAUNCH.slug}` } })
      expect(fetched.isError).toBeFalsy()
      expect(JSON.stringify(fetched)).toContain(LAUNCH.phrase)
      const gone = await agent.callTool({ name: 'fetch', arguments: { id: `webinars/${REPLAY.slug}` } })
      expect(gone.isError).toBe(true)
      const answers = await mcpAnswers(agent)
      expect(findings(answers, REPLAY).title).toEqual([])
    }, 120_000)
  })
})
