/**
 * Scheduled publishing on a multilingual site: a translation is public only
 * while both it and its item are (the later release, the earlier expiry).
 * A German file dated before the English launch waits for it, in every file
 * of dist/; a translation comes down with its item's expiry; its record says
 * when it became public; the manifest's next release, `npm run check` and
 * `npm run build` give the effective times, naming the item a translation
 * waits for. A draft item keeps its translations out. Its references and
 * body links follow the default locale's rule, so no release or expiry
 * breaks a later build.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { runCommand } from '../../helpers/commands.ts'
import { createProject, SITE_YAML, type TempProject } from '../../helpers/project.ts'

const MULTILINGUAL = `${SITE_YAML}language: en\nlocales: [en, de, fr]\nlocale_fallback: [de]\n`

const EARLY = '2027-01-01T00:00:00Z'
/** The German launch post's own date: before the English launch. */
const OWN = '2027-02-01T09:00:00Z'
const BETWEEN = '2027-02-15T00:00:00Z'
const RELEASE = '2027-03-04T08:00:00Z'
const FRENCH = '2027-04-01T00:00:00Z'
const EXPIRY = '2027-06-30T22:00:00Z'
const AFTER = '2027-07-01T00:00:00Z'

const post = (title: string, publishedAt: string, extra = '', body = `Body of ${title}.`) =>
  `---\ntitle: ${title}\npublished_at: ${publishedAt}\nauthors:\n  - name: A\n${extra}---\n${body}\n`

/** Each translation's title is found nowhere else: where it is, the translation was published. */
const TITLES = {
  launch: 'Starttag Quokka',
  offer: 'Befristetes Angebot Wombat',
  hello: 'Bonjour Ornithorynque',
  draft: 'Entwurf Schnabeltier',
}

const FILES = {
  'content/site.yaml': MULTILINGUAL,
  'content/blog-posts/launch.md': post('Launch day', RELEASE),
  'content/blog-posts/launch.de.md': post(TITLES.launch, OWN, 'slug: starttag\n'),
  'content/blog-posts/offer.md': post('Limited offer', '2026-01-05', `expires_at: ${EXPIRY}\n`),
  'content/blog-posts/offer.de.md': post(TITLES.offer, '2026-01-05', 'slug: angebot\n'),
  'content/blog-posts/hello.md': post('Hello', '2026-01-05'),
  'content/blog-posts/hello.fr.md': post(TITLES.hello, FRENCH, 'slug: bonjour\n'),
  'content/blog-posts/draft.md': post('Work in progress', '2026-01-05', 'draft: true\n'),
  'content/blog-posts/draft.de.md': post(TITLES.draft, '2026-01-05', 'slug: entwurf\n'),
}

/** Every file of a dist/ folder as text, by path. */
async function filesOf(dist: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out.set(relative(dist, path), (await readFile(path)).toString('utf8'))
  }
  return out
}

const containing = (files: ReadonlyMap<string, string>, text: string) =>
  [...files].flatMap(([path, body]) => (body.includes(text) ? [path] : []))

describe('a translation is published only while its item is', () => {
  let project: TempProject
  const dists = new Map<string, Map<string, string>>()
  /** dist/ as of `clock`, built once per clock. */
  const asOf = async (clock: string) => {
    let files = dists.get(clock)
    if (!files) {
      const distDir = join(project.root, `dist-${clock.replaceAll(':', '')}`)
      await buildSite({ root: project.root, distDir, cache: false, clock: () => Date.parse(clock) })
      dists.set(clock, (files = await filesOf(distDir)))
    }
    return files
  }
  const record = async (clock: string, file: string) => JSON.parse((await asOf(clock)).get(file)!)

  beforeAll(async () => {
    project = await createProject(FILES)
  })
  afterAll(() => project?.remove())

  it('a translation dated before its item waits for the item’s release: in no file until then', async () => {
    for (const clock of [EARLY, BETWEEN]) {
      const files = await asOf(clock)
      expect(containing(files, TITLES.launch), clock).toEqual([])
      expect(containing(files, 'starttag'), clock).toEqual([])
      // The next release is the item's, not the translation's own date (nothing changes then).
      expect(JSON.parse(files.get('_build/manifest.json')!).build.next_release_at, clock).toBe(RELEASE)
    }
    const released = await asOf(RELEASE)
    expect(containing(released, TITLES.launch)).toEqual(
      expect.arrayContaining([
        'api/blog-posts/_locales/de/starttag.json',
        'feeds/de/all.xml',
        'llms-full.de.txt',
        '_build/manifest.json',
      ]),
    )
    // Its record reads as published when it became public, as a scheduled item's does.
    expect(await record(RELEASE, 'api/blog-posts/_locales/de/starttag.json')).toMatchObject({
      published_at: RELEASE,
      updated_at: RELEASE,
    })
    expect((await record(RELEASE, 'api/blog-posts/launch.json')).translations).toEqual([
      { locale: 'de', slug: 'starttag', url: 'https://www.fixture.example/de/blog/starttag' },
    ])
  })

  it('a translation comes down with its item’s expiry, and says so in its record until then', async () => {
    expect(await record(BETWEEN, 'api/blog-posts/_locales/de/angebot.json')).toMatchObject({ expires_at: EXPIRY })
    const after = await asOf(AFTER)
    expect(containing(after, TITLES.offer)).toEqual([])
    expect(containing(after, 'angebot')).toEqual([])
    // German falls back: nothing of the offer is left in it either.
    expect(containing(after, 'Limited offer')).toEqual([])
  })

  it('a scheduled translation of a published item is out until its own time, the item named without it', async () => {
    expect(containing(await asOf(RELEASE), TITLES.hello)).toEqual([])
    expect((await record(RELEASE, 'api/blog-posts/hello.json')).translations).toEqual([])
    expect(containing(await asOf(AFTER), TITLES.hello)).toContain('api/blog-posts/_locales/fr/bonjour.json')
  })

  it('a draft item keeps its translations out of every locale', async () => {
    for (const clock of [BETWEEN, AFTER]) expect(containing(await asOf(clock), TITLES.draft), clock).toEqual([])
  })

  it('npm run check and npm run build list translations with their effective times and the item they wait for', async () => {
    const early = await checkContent(project.root, { clock: () => Date.parse(EARLY) })
    expect(early.withheld).toEqual([
      { path: 'content/blog-posts/hello.fr.md', state: 'scheduled', at: FRENCH },
      {
        path: 'content/blog-posts/launch.de.md',
        state: 'scheduled',
        at: RELEASE,
        item: 'content/blog-posts/launch.md',
      },
      { path: 'content/blog-posts/launch.md', state: 'scheduled', at: RELEASE },
    ])
    const later = await checkContent(project.root, { clock: () => Date.parse(AFTER) })
    expect(later.withheld).toEqual([
      { path: 'content/blog-posts/offer.de.md', state: 'expired', at: EXPIRY, item: 'content/blog-posts/offer.md' },
      { path: 'content/blog-posts/offer.md', state: 'expired', at: EXPIRY },
    ])
    const { code, stdout, stderr } = await runCommand('cli', ['check', '--root', project.root], { BUILD_TIME: EARLY })
    expect(code, stderr).toBe(0)
    expect(stdout).toContain(
      `  scheduled  content/blog-posts/launch.de.md  publishes at ${RELEASE} (in 62 days), with its item content/blog-posts/launch.md\n`,
    )
    expect(stdout).toContain(`  scheduled  content/blog-posts/hello.fr.md  publishes at ${FRENCH} (in 90 days)\n`)
  }, 60_000)
})

describe('authoring rules of translations’ times', () => {
  let project: TempProject | undefined
  afterAll(() => project?.remove())

  async function errorsAsOf(clock: string, files: Record<string, string>): Promise<string[]> {
    await project?.remove()
    project = await createProject({ 'content/site.yaml': MULTILINGUAL, ...files })
    const error = await checkContent(project.root, { clock: () => Date.parse(clock) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentErrors)
    return (error as ContentErrors).errors.map((e) => e.message)
  }

  it('refuses a translation that would never be published: it ends before its item starts, or starts after it ends', async () => {
    expect(
      await errorsAsOf(EARLY, {
        'content/blog-posts/launch.md': post('Launch', RELEASE),
        'content/blog-posts/launch.de.md': post('Start', '2026-01-05', `expires_at: ${BETWEEN}\n`),
        'content/blog-posts/offer.md': post('Offer', '2026-01-05', `expires_at: ${EXPIRY}\n`),
        'content/blog-posts/offer.fr.md': post('Offre', AFTER),
      }),
    ).toEqual([
      `content/blog-posts/launch.de.md:6:13 expires_at: is ${BETWEEN}, before its item (content/blog-posts/launch.md) is published at ${RELEASE}: this translation would never be published (a translation is public only while its item is)`,
      `content/blog-posts/offer.fr.md:3:15 published_at: is ${AFTER}, when its item (content/blog-posts/offer.md) has expired (${EXPIRY}): this translation would never be published (a translation is public only while its item is)`,
    ])
  })

  it('refuses references and body links to items that are not public whenever the translation is', async () => {
    expect(
      await errorsAsOf(EARLY, {
        // The replay expires, in German too (its translation has no expires_at of its own).
        'content/blog-posts/replay.md': post('Replay', '2026-01-05', `expires_at: ${EXPIRY}\n`),
        'content/blog-posts/replay.de.md': post('Aufzeichnung', '2026-01-05', 'slug: aufzeichnung\n'),
        // A German post for good, pointing to it: an error now, not a failed build at the expiry.
        'content/blog-posts/teaser.md': post('Teaser', '2026-01-05'),
        'content/blog-posts/teaser.de.md': post(
          'Vorschau',
          '2026-01-05',
          'slug: vorschau\nrelated: [blog-posts/aufzeichnung]\n',
          'Siehe [die Aufzeichnung](/blog/replay).',
        ),
        // Its item expires with the replay: the German recap may point to it.
        'content/blog-posts/recap.md': post('Recap', '2026-01-05', `expires_at: ${EXPIRY}\n`),
        'content/blog-posts/recap.de.md': post(
          'Rückblick',
          '2026-01-05',
          'slug: rueckblick\nrelated: [blog-posts/aufzeichnung]\n',
        ),
        // The news post is translated for the launch: until then German shows the English one, and after, not.
        'content/blog-posts/news.md': post('News', '2026-01-05'),
        'content/blog-posts/news.de.md': post('Neuigkeiten', RELEASE, 'slug: neuigkeiten\n'),
        'content/blog-posts/welcome.de.md': post(
          'Willkommen',
          '2026-01-05',
          'related: [blog-posts/news, blog-posts/neuigkeiten]\n',
        ),
      }),
    ).toEqual([
      `content/blog-posts/teaser.de.md:7:11 related[0]: "blog-posts/aufzeichnung" expires at ${EXPIRY}, before this item (which has no expires_at): an item may only point to items that stay published as long as it does`,
      `content/blog-posts/teaser.de.md:9:26 body: link /blog/replay points to "blog-posts/replay", which expires at ${EXPIRY}, before this item (which has no expires_at): an item may only point to items that stay published as long as it does`,
      `content/blog-posts/welcome.de.md:6:11 related[0]: "blog-posts/news" is the en item, which its de translation blog-posts/neuigkeiten replaces in de at ${RELEASE}, while this item is published: relate to blog-posts/neuigkeiten and publish this item no earlier than it`,
      `content/blog-posts/welcome.de.md:6:28 related[1]: "blog-posts/neuigkeiten" is not published until ${RELEASE}, while this item is published now: publish it no later than this one`,
    ])
  })

  it('a translation of a draft item is a draft: another translation may not point to it', async () => {
    expect(
      await errorsAsOf(EARLY, {
        'content/blog-posts/secret.md': post('Secret', '2026-01-05', 'draft: true\n'),
        'content/blog-posts/secret.de.md': post('Geheim', '2026-01-05', 'slug: geheim\n'),
        'content/blog-posts/other.de.md': post('Anderes', '2026-01-05', 'related: [blog-posts/geheim]\n'),
      }),
    ).toEqual([
      'content/blog-posts/other.de.md:6:11 related[0]: "blog-posts/geheim" is a draft: a published item may only point to published items',
    ])
  })
})
