/**
 * Scheduled publishing in the build: the clock is one setting (BUILD_TIME),
 * so the same content and the same clock give the same bytes, and every clock
 * between two releases too (but for `_headers` within a file's lifetime of the
 * next one); `npm run check` and `npm run build` say what is
 * scheduled and when; the no-change check builds again once a release has
 * passed; expires_at must follow published_at; a reference may only point to
 * an item published for as long as the one naming it; and `npm run new
 * --publish-at` scaffolds a scheduled draft.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { placeholdersOf } from '../../../build/core/placeholders.ts'
import { runCommand } from '../../helpers/commands.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { COLLECTIONS } from '../../helpers/site.ts'

const RELEASE = '2027-03-04T08:00:00Z'
const EXPIRY = '2027-06-30T22:00:00Z'
const scheduled = (at: string, extra = '') =>
  validPost('Launch day', `${extra}`).replace('published_at: 2026-01-05', `published_at: ${at}`)

/** Every file of a dist/ folder with its bytes, by path. */
async function filesOf(dist: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out.set(relative(dist, path), (await readFile(path)).toString('base64'))
  }
  return out
}

/** Run a command of the build's command line with BUILD_TIME. */
const cli = (args: string[], buildTime: string) => runCommand('cli', args, { BUILD_TIME: buildTime })

describe('the build clock', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await createProject({
      'content/blog-posts/live.md': validPost('Live now'),
      'content/blog-posts/launch-day.md': scheduled(RELEASE),
      'content/blog-posts/offer.md': validPost('Limited offer', `expires_at: ${EXPIRY}\n`),
    })
  })
  afterAll(() => project?.remove())

  it('gives the same bytes for every clock between two releases, and other bytes after one', async () => {
    const asOf = async (clock: string, dist: string) => {
      await buildSite({
        root: project.root,
        distDir: join(project.root, dist),
        cache: false,
        clock: () => Date.parse(clock),
      })
      return filesOf(join(project.root, dist))
    }
    const early = await asOf('2027-01-01T00:00:00Z', 'a')
    const later = await asOf('2027-03-04T06:00:00Z', 'b')
    expect(later).toEqual(early)
    // Within a file's lifetime of the release only _headers differs (its lifetimes capped at the time left), and
    // so the build id, which names the bytes of every file.
    const lastSecond = await asOf('2027-03-04T07:59:59Z', 'd')
    expect([...lastSecond.keys()].filter((path) => lastSecond.get(path) !== early.get(path)).sort()).toEqual([
      '_build/manifest.json',
      '_headers',
    ])
    const released = await asOf(RELEASE, 'c')
    expect(released).not.toEqual(early)
    const manifest = JSON.parse(Buffer.from(released.get('_build/manifest.json')!, 'base64').toString())
    expect(manifest.build).toMatchObject({ next_release_at: EXPIRY, last_release_at: RELEASE })
    expect(manifest.collections['blog-posts']!.map((r: { slug: string }) => r.slug)).toContain('launch-day')
  })

  it('builds again once the next release has passed, and not before (the no-change check)', async () => {
    const build = (clock: string) => buildSite({ root: project.root, clock: () => Date.parse(clock) })
    expect((await build('2027-02-01T00:00:00Z')).upToDate).toBe(false)
    expect((await build('2027-02-20T00:00:00Z')).upToDate).toBe(true)
    const after = await build('2027-03-05T00:00:00Z')
    expect(after.upToDate).toBe(false)
    expect(after.manifest.build.counts['blog-posts']).toBe(3)
    // A build is right for its span only: one as of an earlier clock is built again too.
    expect((await build('2027-02-20T00:00:00Z')).upToDate).toBe(false)
  })

  it('lists what is scheduled and expired in npm run check and npm run build, with the time', async () => {
    const check = await cli(['check', '--root', project.root], '2027-02-01T00:00:00Z')
    expect(check.code).toBe(0)
    expect(check.stdout).toContain('✓ 3 content files valid')
    expect(check.stdout).toMatch(
      / {2}scheduled {2}content\/blog-posts\/launch-day\.md {2}publishes at 2027-03-04T08:00:00Z/,
    )
    const build = await cli(['build', '--root', project.root, '--force'], '2027-07-01T00:00:00Z')
    expect(build.code).toBe(0)
    expect(build.stdout).toContain('expired    content/blog-posts/offer.md  since 2027-06-30T22:00:00Z')
    expect(build.stdout).not.toContain('next release')
    const before = await cli(['build', '--root', project.root, '--force'], '2027-02-01T00:00:00Z')
    expect(before.stdout).toContain(`next release or expiry ${RELEASE}`)
  }, 120_000)
})

describe('authoring rules of scheduled publishing', () => {
  let project: TempProject
  afterAll(() => project?.remove())

  it('refuses an expires_at that is not after published_at, and one that is not an instant', async () => {
    project = await createProject({
      'content/blog-posts/same.md': validPost('Same', 'expires_at: 2026-01-05T00:00:00Z\n'),
      'content/blog-posts/date-only.md': validPost('Date only', 'expires_at: 2026-02-01\n'),
    })
    const error = await checkContent(project.root).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentErrors)
    expect((error as ContentErrors).errors.map((e) => e.message)).toEqual([
      'content/blog-posts/date-only.md:7:13 expires_at: 2026-02-01 has no time: write it like 2026-02-01T09:00:00+01:00',
      'content/blog-posts/same.md:7:13 expires_at: must be after published_at (2026-01-05)',
    ])
  })

  it('refuses a reference to an item published later, or expiring earlier, than the item naming it', async () => {
    await project.remove()
    project = await createProject({
      'content/blog-posts/launch.md': scheduled(RELEASE),
      'content/blog-posts/teaser.md': validPost('Teaser', 'related: [blog-posts/launch]\n'),
      'content/blog-posts/recap.md': validPost('Recap', 'related: [blog-posts/offer]\n'),
      'content/blog-posts/offer.md': validPost('Offer', `expires_at: ${EXPIRY}\n`),
      // Published with the launch, pointing to it: fine.
      'content/blog-posts/launch-faq.md': scheduled(RELEASE, 'related: [blog-posts/launch]\n').replace(
        'Launch day',
        'Launch FAQ',
      ),
    })
    const error = await checkContent(project.root, { clock: () => Date.parse('2027-01-01T00:00:00Z') }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ContentErrors)
    expect((error as ContentErrors).errors.map((e) => e.message)).toEqual([
      `content/blog-posts/recap.md:7:11 related[0]: "blog-posts/offer" expires at ${EXPIRY}, before this item (which has no expires_at): an item may only point to items that stay published as long as it does`,
      `content/blog-posts/teaser.md:7:11 related[0]: "blog-posts/launch" is not published until ${RELEASE}, while this item is published now: publish it no later than this one`,
    ])
  })
})

describe('npm run new --publish-at', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await createProject()
  })
  afterAll(() => project?.remove())

  const scaffold = (...args: string[]) => runCommand('new', [...args, '--root', project.root])

  it('writes the release time (and an expiry) into a draft that validates, and says when it publishes', async () => {
    const made = await scaffold(
      'webinars',
      'Launch webinar',
      '--publish-at',
      '2099-03-04T09:00:00+01:00',
      '--expires-at',
      '2099-06-30T23:59:59+01:00',
    )
    expect(made.code).toBe(0)
    expect(made.stderr).toContain('as a draft scheduled for 2099-03-04T09:00:00+01:00')
    const text = await readFile(join(project.root, made.stdout.trim()), 'utf8')
    expect(text).toContain(
      'published_at: 2099-03-04T09:00:00+01:00\nexpires_at: 2099-06-30T23:59:59+01:00\ndraft: true\n',
    )
    await expect(checkContent(project.root)).resolves.toMatchObject({ files: 1 })
    // Without the draft flag (and with what npm run new left for the author written) it is scheduled, not published.
    const { fields, body } = placeholdersOf(COLLECTIONS.webinars!)
    const written = text.replace(fields['speakers[].name']!, 'Zoë Tester').replace(body, 'Who it is for.')
    await project.write(made.stdout.trim(), written.replace('draft: true\n', ''))
    const { withheld } = await checkContent(project.root)
    expect(withheld).toEqual([
      { path: 'content/webinars/launch-webinar.md', state: 'scheduled', at: '2099-03-04T08:00:00Z' },
    ])
  })

  it('refuses a time the schema would refuse, with usage', async () => {
    const bad = await scaffold('blog-posts', 'Bad time', '--publish-at', 'tomorrow 9am')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--publish-at "tomorrow 9am" must be a date like 2027-03-04')
    const order = await scaffold(
      'blog-posts',
      'Bad order',
      '--publish-at',
      '2099-03-04',
      '--expires-at',
      '2099-01-01T00:00:00Z',
    )
    expect(order.code).toBe(2)
    expect(order.stderr).toContain('must be after the publication (2099-03-04)')
  })
})
