/** `npm run new`: the scaffolded file passes validation as a draft, and publishes once its placeholders and the draft flag go. */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { slugify } from '../../../build/core/slug.ts'
import { runCommand } from '../../helpers/commands.ts'
import { createProject, SITE_YAML, type TempProject } from '../../helpers/project.ts'

/** `npm run new -- <args…> --root <root>`. */
const scaffold = (root: string, ...args: string[]) => runCommand('new', [...args, '--root', root])

describe('npm run new', () => {
  // Each test has its own project, so none depends on another having run.
  let project: TempProject
  beforeEach(async () => {
    project = await createProject()
  })
  afterEach(() => project.remove())

  it('scaffolds a valid draft of every collection and prints its path', async () => {
    for (const collection of COLLECTION_NAMES) {
      const result = await scaffold(project.root, collection, `Zoë's "first" ${collection}: a test`)
      expect(result.code).toBe(0)
      const path = `content/${collection}/zoe-s-first-${collection}-a-test.md`
      expect(result.stdout.trim()).toBe(path)
      const text = await readFile(join(project.root, path), 'utf8')
      expect(text).toMatch(/^draft: true$/m)
      expect(text).toContain(`title: "Zoë's \\"first\\" ${collection}: a test"`)
    }
    await expect(checkContent(project.root)).resolves.toEqual({ files: 4, withheld: [] })
  })

  it('refuses to publish its placeholders, naming each where it is; publishes once they are written', async () => {
    expect((await scaffold(project.root, 'webinars', `Zoë's "first" webinars: a test`)).code).toBe(0)
    const path = join(project.root, 'content/webinars/zoe-s-first-webinars-a-test.md')
    await writeFile(path, (await readFile(path, 'utf8')).replace('draft: true\n', ''))
    const error = (await checkContent(project.root).catch((e: unknown) => e)) as ContentErrors
    expect(error).toBeInstanceOf(ContentErrors)
    expect(error.errors.map((e) => [e.code, e.message])).toEqual([
      [
        'PLACEHOLDER',
        'content/webinars/zoe-s-first-webinars-a-test.md:9:11 speakers[0].name: is still the placeholder "Your Name" that npm run new wrote: write the real one before publishing (a draft may keep it)',
      ],
      [
        'PLACEHOLDER',
        'content/webinars/zoe-s-first-webinars-a-test.md:12:1 body: still has the text npm run new wrote ("Write the webinar here. The first paragraph becomes the summary unless `summary` is set."): write the body before publishing (a draft may keep it)',
      ],
    ])
    // Every collection's placeholders, each named once its draft flag goes.
    for (const collection of COLLECTION_NAMES.filter((c) => c !== 'webinars')) {
      expect((await scaffold(project.root, collection, 'Placeholders')).code).toBe(0)
      const other = join(project.root, `content/${collection}/placeholders.md`)
      await writeFile(other, (await readFile(other, 'utf8')).replace('draft: true\n', ''))
    }
    const all = (await checkContent(project.root).catch((e: unknown) => e)) as ContentErrors
    expect(all.errors.map((e) => `${e.file.split('/')[1]} ${e.field}`)).toEqual([
      'blog-posts authors[0].name',
      'blog-posts body',
      'case-studies customer.name',
      'case-studies customer.industry',
      'case-studies results[0].label',
      'case-studies results[0].value',
      'case-studies body',
      'events body',
      'webinars speakers[0].name',
      'webinars body',
    ])
    for (const collection of COLLECTION_NAMES.filter((c) => c !== 'webinars'))
      await rm(join(project.root, `content/${collection}/placeholders.md`))
    const text = await readFile(path, 'utf8')
    await writeFile(
      path,
      text
        .replace('Your Name', 'Zoë Tester')
        .replace(/^Write the webinar here.*$/m, 'Who it is for: everyone who tests.'),
    )
    const report = await buildSite({ root: project.root, cache: false })
    if (report.upToDate) throw new Error('a first build cannot be up to date')
    expect(report.manifest.build.counts.webinars).toBe(1)
    expect(report.manifest.collections.webinars![0]).toMatchObject({
      slug: 'zoe-s-first-webinars-a-test',
      title: `Zoë's "first" webinars: a test`,
    })
  })

  it('scaffolds a collection a team declared in site.yaml, dated or not', async () => {
    await project.write(
      'content/site.yaml',
      `${SITE_YAML}  press-releases:
    path: /press
    title: Press
    label: press release
    fields:
      category: { type: enum, values: [product, company], required: true }
      contact: { type: object, required: true, fields: { name: { type: string, required: true } } }
  trainings:
    path: /trainings
    title: Trainings
    label: training
    dated: true
    fields:
      starts_at: { type: datetime, required: true }
      timezone: { type: timezone, required: true }
      seats: { type: integer, required: true, min: 1 }
`,
    )
    for (const collection of ['press-releases', 'trainings']) {
      const result = await scaffold(project.root, collection, 'Launch day')
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout.trim()).toBe(`content/${collection}/launch-day.md`)
    }
    const release = await readFile(join(project.root, 'content/press-releases/launch-day.md'), 'utf8')
    expect(release).toMatch(/^category: product$/m)
    expect(release).toMatch(/^draft: true$/m)
    const training = await readFile(join(project.root, 'content/trainings/launch-day.md'), 'utf8')
    expect(training).toMatch(/^starts_at: /m)
    expect(training).toMatch(/^timezone: /m)
    // Both are valid drafts: the required fields have values the schema takes.
    await expect(checkContent(project.root)).resolves.toEqual({ files: 2, withheld: [] })
  })

  it('refuses to overwrite an existing file', async () => {
    await project.write('content/blog-posts/zoe-s-first-blog-posts-a-test.md', 'mine\n')
    const path = join(project.root, 'content/blog-posts/zoe-s-first-blog-posts-a-test.md')
    const result = await scaffold(project.root, 'blog-posts', `Zoë's "first" blog-posts: a test`)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      'content/blog-posts/zoe-s-first-blog-posts-a-test.md already exists; nothing was written',
    )
    expect(await readFile(path, 'utf8')).toBe('mine\n')
  })

  it('rejects an unknown collection and a title without a slug, with usage', async () => {
    const unknown = await scaffold(project.root, 'podcasts', 'Episode one')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain(
      'unknown collection "podcasts"; use one of blog-posts, case-studies, webinars, events',
    )
    const noSlug = await scaffold(project.root, 'events', '🎉🎉')
    expect(noSlug.code).toBe(2)
    expect(noSlug.stderr).toContain('pass one with --slug')
    expect((await scaffold(project.root, 'events', '🎉🎉', '--slug', 'party')).stdout.trim()).toBe(
      'content/events/party.md',
    )
  })

  it('points the new file to related items with --related, and refuses a malformed reference', async () => {
    expect((await scaffold(project.root, 'webinars', 'A webinar')).code).toBe(0)
    const result = await scaffold(project.root, 'blog-posts', 'Follow-up post', '--related', 'webinars/a-webinar')
    expect(result.code).toBe(0)
    const text = await readFile(join(project.root, 'content/blog-posts/follow-up-post.md'), 'utf8')
    expect(text).toContain('related:\n  - webinars/a-webinar\n')
    // Both are drafts, and a draft may point to a draft: the reference resolves.
    await expect(checkContent(project.root)).resolves.toEqual({ files: 2, withheld: [] })
    const bad = await scaffold(project.root, 'blog-posts', 'Another post', '--related', 'Blog Posts/x')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--related "Blog Posts/x" must name an item as collection/slug')
  })

  it('blames the slug it was given, not the title, and says what would do', async () => {
    const result = await scaffold(project.root, 'blog-posts', 'Good title', '--slug', 'Bad_Slug')
    expect(result.code).toBe(2)
    expect(result.stderr.split('\n')[0]).toBe(
      '✗ --slug "Bad_Slug" must be lowercase letters, digits and single hyphens (at most 120), like --slug bad-slug',
    )
    const long = await scaffold(project.root, 'blog-posts', 'x'.repeat(201))
    expect(long.code).toBe(2)
    expect(long.stderr).toContain('the title has 201 characters; a title has at most 200')
    expect(await checkContent(project.root)).toEqual({ files: 0, withheld: [] })
  })

  it('refuses a --related item that does not exist (with a near miss), writing nothing', async () => {
    expect((await scaffold(project.root, 'webinars', 'A webinar')).code).toBe(0)
    const result = await scaffold(project.root, 'blog-posts', 'Follow-up', '--related', 'webinars/a-webinr')
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(
      '✗ --related "webinars/a-webinr" is not an item (did you mean webinars/a-webinar?); nothing was written',
    )
    const none = await scaffold(project.root, 'blog-posts', 'Follow-up', '--related', 'webinars/nope')
    expect(none.stderr.trim()).toBe('✗ --related "webinars/nope" is not an item; nothing was written')
    // Only the webinar exists, and everything validates.
    await expect(checkContent(project.root)).resolves.toEqual({ files: 1, withheld: [] })
    // An item whose slug is set in its frontmatter is found by that slug.
    await project.write(
      'content/events/file-name.md',
      '---\ntitle: Meetup\nslug: named-meetup\npublished_at: 2026-01-05\nstarts_at: 2027-03-04T18:00:00+01:00\nends_at: 2027-03-04T21:00:00+01:00\ntimezone: Europe/Berlin\nattendance_mode: online\n---\nBody.\n',
    )
    expect((await scaffold(project.root, 'blog-posts', 'Recap', '--related', 'events/named-meetup')).code).toBe(0)
    await expect(checkContent(project.root)).resolves.toEqual({ files: 3, withheld: [] })
  })

  it('makes slugs of letters, digits and single hyphens', () => {
    expect(slugify('  Crème brûlée -- at 10:00!  ')).toBe('creme-brulee-at-10-00')
  })
})
