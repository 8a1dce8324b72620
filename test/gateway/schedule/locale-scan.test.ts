/**
 * The leak scan of scan.test.ts on a multilingual build (the locale fixture:
 * English, German falling back to it, French): a scheduled item with German
 * and French translations (the German one dated before the English launch),
 * a scheduled French translation of a published item, and two German
 * translations that expire (one with its item, one on its own). Before the
 * release nothing of the scheduled ones — slug, title, a phrase of the body,
 * in any locale — is in any file of dist/ (per-locale feeds, calendars,
 * llms-full.<locale>.txt and search indexes included), in any answer a crawler
 * reaches with `?locale=` or as a German or French reader (Accept-Language),
 * or in any MCP answer in any locale. After the release and the expiry the
 * released translations are in their locale's files and answers, and the
 * expired ones nowhere (their slugs in a change feed at most).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { calendarPath, feedPath } from '../../../contract/public-paths.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { initAndCommit } from '../../helpers/git.ts'
import { copyOfLocaleFixture, type TempProject } from '../../helpers/project.ts'
import { connectClient, type McpClient } from '../mcp/setup.ts'
import { crawl } from './crawl.ts'
import { distFiles, findings, mcpAnswers, queriesFor, type Telltales } from './leaks.ts'

const COMMITTED = Date.parse('2027-08-01T00:00:00Z') / 1000
const RELEASE = '2027-09-01T09:00:00Z'
const EXPIRY = '2027-09-01T12:00:00Z'
const BEFORE = '2027-08-31T00:00:00Z'
const AFTER = '2027-09-02T00:00:00Z'
const LOCALES = ['de', 'fr'] as const

const LAUNCH_EN = {
  slug: 'zephyr-quasar-launch',
  title: 'Zephyr Quasar launch announcement',
  phrase: 'umbrella kumquat ostrich',
}
/** Dated in June: it waits for the English launch all the same. */
const LAUNCH_DE = {
  slug: 'zephyr-quasar-start',
  title: 'Zephyr Quasar Startankündigung',
  phrase: 'regenschirm kumquat strauss',
}
const LAUNCH_FR = {
  slug: 'zephyr-quasar-lancement',
  title: 'Annonce du lancement Zephyr Quasar',
  phrase: 'parapluie kumquat autruche',
}
/** A French translation, scheduled, of a post published long ago. */
const LATE_FR = {
  slug: 'derive-de-schema-kafka',
  title: 'Dérive de schéma Kafka détectée',
  phrase: 'girouette framboise hippocampe',
}
/** The German replay of a webinar whose licence ends: it has no expires_at of its own. */
const REPLAY_DE = {
  slug: 'marigold-aufzeichnung',
  title: 'Marigold lizenzierte Aufzeichnung',
  phrase: 'ringelblume posaune tundra',
}
/** A German translation that expires on its own, its item staying. */
const DASH_DE = {
  slug: 'kosten-kaputter-dashboards',
  title: 'Was ein kaputtes Dashboard kostet',
  phrase: 'zeppelin quitte murmeltier',
}

const SCHEDULED = [LAUNCH_EN, LAUNCH_DE, LAUNCH_FR, LATE_FR]
const EXPIRING = [REPLAY_DE, DASH_DE]

const post = (item: Telltales, publishedAt: string, extra = '') => `---
title: ${item.title}
slug: ${item.slug}
tags: [product-update]
published_at: ${publishedAt}
${extra}authors:
  - name: Zoë Brønsted
---

${item.title}: the ${item.phrase} part of it.
`

const webinar = (item: Telltales, extra = '') => `---
title: ${item.title}
slug: ${item.slug}
tags: [data-contracts]
published_at: 2027-06-01
${extra}starts_at: 2027-06-10T17:00:00+02:00
duration_minutes: 45
timezone: Europe/Berlin
speakers:
  - name: Ana Pereira
recording_url: https://www.tidewater.example/webinars/marigold-licensed-replay/recording
---

${item.title}: the ${item.phrase} case study in full.
`

const QUERIES = queriesFor([...SCHEDULED, ...EXPIRING])
const SEARCHES = QUERIES.flatMap((q) =>
  ['', ...LOCALES.map((l) => `&locale=${l}`)].map((locale) => `/api/search?q=${encodeURIComponent(q)}${locale}`),
)
/** What a crawler of a multilingual site starts from besides the default locale's documents. */
const LOCALE_SEEDS = LOCALES.flatMap((locale) => [
  `/llms-full.${locale}.txt`,
  ...['all', ...COLLECTION_NAMES].flatMap((name) =>
    (['rss', 'atom', 'json'] as const).map((format) => feedPath(name, format, locale)),
  ),
  calendarPath('events', undefined, locale),
  calendarPath('webinars', undefined, locale),
  ...COLLECTION_NAMES.map((c) => `/api/${c}?locale=${locale}&limit=100`),
])
const MCP_SCAN = {
  queries: QUERIES,
  prefixes: ['z', 'zephyr', 'm', 'marigold', 'd', 'k'],
  collections: ['blog-posts', 'webinars'],
  locales: LOCALES,
}

let project: TempProject
let gateway: TestGateway
let agent: McpClient

/** Every answer of the gateway a crawler reaches: with `?locale=`, and as a reader of each language. */
async function crawlAll(): Promise<Map<string, string>> {
  const all = new Map<string, string>()
  for (const language of ['', ...LOCALES]) {
    const answers = await crawl(
      gateway.url,
      ['https://api.tidewater.example'],
      [...SEARCHES, ...LOCALE_SEEDS],
      language ? { 'accept-language': language } : {},
    )
    for (const [path, answer] of answers) all.set(`${language || '-'} ${path}`, answer)
  }
  return all
}

const none = { slug: [], title: [], phrase: [] }
/** Gone for good: its words nowhere, its slug in a change feed at most (a tombstone). */
function gone(sources: ReadonlyMap<string, string>, item: Telltales): void {
  const found = findings(sources, item)
  expect({ title: found.title, phrase: found.phrase }, item.slug).toEqual({ title: [], phrase: [] })
  // The change feed keeps its tombstone, and the redirects its address (a 410).
  expect(
    found.slug.filter((name) => !/changes|redirects/.test(name)),
    item.slug,
  ).toEqual([])
}

async function rebuildAsOf(clock: string): Promise<void> {
  await buildSite({ root: project.root, clock: () => Date.parse(clock) })
  await gateway?.gateway.reload()
}

beforeAll(async () => {
  project = await copyOfLocaleFixture()
  await project.write(`content/blog-posts/${LAUNCH_EN.slug}.md`, post(LAUNCH_EN, RELEASE))
  await project.write(`content/blog-posts/${LAUNCH_EN.slug}.de.md`, post(LAUNCH_DE, '2027-06-01T09:00:00Z'))
  await project.write(`content/blog-posts/${LAUNCH_EN.slug}.fr.md`, post(LAUNCH_FR, RELEASE))
  await project.write('content/blog-posts/kafka-schema-drift-detection.fr.md', post(LATE_FR, RELEASE))
  const replay = { slug: 'marigold-licensed-replay', title: 'Marigold licensed replay', phrase: 'periwinkle saxophone' }
  await project.write(`content/webinars/${replay.slug}.md`, webinar(replay, `expires_at: ${EXPIRY}\n`))
  await project.write(`content/webinars/${replay.slug}.de.md`, webinar(REPLAY_DE))
  await project.write(
    'content/blog-posts/cost-of-a-broken-dashboard.de.md',
    post(DASH_DE, '2026-01-05', `expires_at: ${EXPIRY}\n`),
  )
  await initAndCommit(project.root, COMMITTED)
  await rebuildAsOf(BEFORE)
  // The crawls read every computed answer (each person's page, a tag's later pages) in every language, more
  // than the computed budget's minute allows: it is off here (the budgets have tests of their own).
  gateway = await startGateway(project.dist, {
    filesDir: project.root,
    keys: { agent: 'agent.mcp' },
    env: { COMPUTED_RATE_LIMIT_PER_MINUTE: '0' },
  })
  agent = await connectClient(gateway.url, gateway.keys.agent)
}, 180_000)

afterAll(async () => {
  await agent?.close()
  await gateway?.close()
  await project?.remove()
})

describe('a multilingual build before the release', () => {
  it('no file of dist/ names a scheduled item or translation, in any locale', async () => {
    const files = await distFiles(project.dist)
    for (const item of SCHEDULED) expect(findings(files, item), item.slug).toEqual(none)
    // The scan sees what is published: the translations that expire later are, until then.
    expect(findings(files, REPLAY_DE).title).toContain(`api/webinars/_locales/de/${REPLAY_DE.slug}.json`)
    expect(findings(files, DASH_DE).phrase).toContain('llms-full.de.txt')
    expect(JSON.parse(files.get('_build/manifest.json')!).build.next_release_at).toBe(RELEASE)
  })

  it('no answer a crawler reaches names them, with ?locale= or as a German or French reader', async () => {
    const answers = await crawlAll()
    expect(answers.size).toBeGreaterThan(300)
    for (const item of SCHEDULED) expect(findings(answers, item), item.slug).toEqual(none)
    expect(findings(answers, REPLAY_DE).title.length).toBeGreaterThan(2)
    for (const path of [`/api/blog-posts/${LAUNCH_DE.slug}?locale=de`, `/api/blog-posts/${LATE_FR.slug}?locale=fr`])
      expect((await fetch(`${gateway.url}${path}`)).status, path).toBe(404)
  }, 240_000)

  it('no MCP answer names them, in any locale', async () => {
    const answers = await mcpAnswers(agent, MCP_SCAN)
    for (const item of SCHEDULED) expect(findings(answers, item), item.slug).toEqual(none)
    expect(findings(answers, REPLAY_DE).title.length).toBeGreaterThan(0)
    const fetched = await agent.callTool({
      name: 'get_content',
      arguments: { collection: 'blog-posts', slug: LAUNCH_DE.slug, locale: 'de' },
    })
    expect(fetched.isError).toBe(true)
  }, 120_000)

  describe('after the release and the expiry', () => {
    beforeAll(() => rebuildAsOf(AFTER), 180_000)

    it('the released translations are in their locale’s files; the expired ones in none', async () => {
      const files = await distFiles(project.dist)
      for (const [item, locale] of [
        [LAUNCH_DE, 'de'],
        [LAUNCH_FR, 'fr'],
        [LATE_FR, 'fr'],
      ] as const) {
        const found = findings(files, item)
        for (const file of [`api/blog-posts/_locales/${locale}/${item.slug}.json`, `feeds/${locale}/all.xml`])
          expect(found.title, file).toContain(file)
        expect(found.phrase).toContain(`llms-full.${locale}.txt`)
      }
      for (const item of EXPIRING) gone(files, item)
    })

    it('the gateway answers and finds them in their locale, and the expired ones nowhere', async () => {
      const answers = await crawlAll()
      expect(findings(answers, LAUNCH_DE).title).toEqual(
        expect.arrayContaining(['- /api/blog-posts?locale=de&limit=100', 'de /api/blog-posts?limit=100']),
      )
      expect(findings(answers, LATE_FR).phrase).toContain(
        `- /api/search?q=${encodeURIComponent(queriesFor([LATE_FR])[1]!)}&locale=fr`,
      )
      for (const item of EXPIRING) gone(answers, item)
      expect((await fetch(`${gateway.url}/api/webinars/${REPLAY_DE.slug}?locale=de`)).status).toBe(410)
    }, 240_000)

    it('MCP fetches and finds the released translations in their locale, and no longer the expired ones', async () => {
      // A new client: one from before would keep the answers it cached (ttlMs).
      await agent.close()
      agent = await connectClient(gateway.url, gateway.keys.agent)
      const fetched = await agent.callTool({
        name: 'get_content',
        arguments: { collection: 'blog-posts', slug: LAUNCH_DE.slug, locale: 'de' },
      })
      expect(fetched.isError).toBeFalsy()
      expect(JSON.stringify(fetched)).toContain(LAUNCH_DE.phrase)
      const found = await agent.callTool({ name: 'search_content', arguments: { query: LATE_FR.phrase, locale: 'fr' } })
      expect(JSON.stringify(found)).toContain(LATE_FR.slug)
      const answers = await mcpAnswers(agent, MCP_SCAN)
      for (const item of EXPIRING) gone(answers, item)
    }, 120_000)
  })
})
