import { readdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ContentErrors } from '../../../build/core/errors.ts'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { runCommand } from '../../helpers/commands.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { hashTree } from '../../helpers/files.ts'

/** One fixture per error kind; each line of EXPECTED is file:line:col field: message. */
const BROKEN: Record<string, string> = {
  'content/blog-posts/yaml-duplicate-key.md':
    '---\ntitle: One\ntitle: Two\npublished_at: 2026-01-05\nauthors:\n  - name: A\n---\nBody.\n',
  'content/blog-posts/yaml-unclosed.md': '---\ntitle: Unclosed\ntags: [a, b\npublished_at: 2026-01-05\n---\nBody.\n',
  'content/blog-posts/schema.md':
    '---\ntitle: Schema\npublished_at: 2026-01-05\nauthors:\n  - title: CTO\nauthor_bio: x\n---\nBody.\n',
  'content/blog-posts/person-slug.md':
    '---\ntitle: Person slug\npublished_at: 2026-01-05\nauthors:\n  - name: Ann Lee\n    slug: Ann Lee\n---\nBody.\n',
  'content/blog-posts/bad-date.md':
    '---\ntitle: Bad date\npublished_at: 2026-02-30\nauthors:\n  - name: A\n---\nBody.\n',
  'content/blog-posts/first.md': '---\ntitle: First\npublished_at: 2026-01-05\nauthors:\n  - name: A\n---\nBody.\n',
  'content/blog-posts/second.md':
    '---\ntitle: Second\nslug: first\npublished_at: 2026-01-06\nauthors:\n  - name: A\n---\nBody.\n',
  'content/blog-posts/no-alt.md':
    '---\ntitle: Alt\npublished_at: 2026-01-05\nauthors:\n  - name: A\n---\nIntro.\n\nSee ![](https://cdn.example/x.png) here.\n',
  'content/events/no-location.md':
    '---\ntitle: Meetup\npublished_at: 2026-01-05\nstarts_at: 2027-03-04T18:00:00+01:00\nends_at: 2027-03-04T21:00:00+01:00\ntimezone: Europe/Berlin\nattendance_mode: in_person\n---\nBody.\n',
  'content/events/ends-before-start.md':
    '---\ntitle: Backwards\npublished_at: 2026-01-05\nstarts_at: 2027-03-04T18:00:00+01:00\nends_at: 2027-03-04T17:00:00+01:00\ntimezone: Europe/Berlin\nattendance_mode: online\n---\nBody.\n',
  // An unquoted colon, a tag written twice, a day November does not have, and (item 7) the
  // broken references of a file whose schema has errors, reported in the same run.
  'content/blog-posts/colon.md':
    '---\ntitle: Launch: the new thing\npublished_at: 2026-01-05\nauthors:\n  - name: A\n---\nBody.\n',
  'content/blog-posts/twice.md':
    '---\ntitle: Twice\npublished_at: 2026-11-31\ntags: [dbt, lineage, dbt]\nrelated: [webinars/nope]\nauthors:\n  - name: A\n---\nSee [the post](/blog/missing-post).\n',
  'content/events/bad-zone.md':
    '---\ntitle: Zone\npublished_at: 2026-01-05\nstarts_at: 2027-03-04T18:00:00\nends_at: 2027-03-04T19:00:00+01:00\ntimezone: Mars/Olympus\nattendance_mode: online\n---\nBody.\n',
}

const EXPECTED = [
  'content/blog-posts/bad-date.md:3:15 published_at: 2026-02-30 is not a date: February 2026 has 28 days',
  'content/blog-posts/colon.md:2:8 title: the value has a colon followed by a space, which YAML reads as the start of another field: put the value in quotes, like title: "Launch: the new thing"',
  'content/blog-posts/no-alt.md:9:5 body: image https://cdn.example/x.png needs alt text: ![describe the image](https://cdn.example/x.png)',
  'content/blog-posts/person-slug.md:6:11 authors[0].slug: must be lowercase letters, digits and single hyphens, like jose-nunez: write ann-lee',
  'content/blog-posts/schema.md:5:5 authors[0].name: is required',
  'content/blog-posts/schema.md:6:1 author_bio: is not a field of a blog post (known fields: title, slug, summary, tags, published_at, updated_at, expires_at, draft, aliases, related, authors, image)',
  'content/blog-posts/second.md:3:7 slug: "first" is already used by content/blog-posts/first.md',
  'content/blog-posts/twice.md:3:15 published_at: 2026-11-31 is not a date: November has 30 days',
  'content/blog-posts/twice.md:4:22 tags: lists "dbt" twice: remove one of them',
  'content/blog-posts/twice.md:5:11 related[0]: "webinars/nope" is not an item',
  'content/blog-posts/twice.md:9:16 body: link /blog/missing-post points to "blog-posts/missing-post", which is not an item',
  'content/blog-posts/yaml-duplicate-key.md:3:1 title: title is written twice: keep one of them',
  'content/blog-posts/yaml-unclosed.md:4:1 frontmatter: a list opened with [ is not closed: end it with ], like tags: [a, b]',
  'content/events/bad-zone.md:4:12 starts_at: 2027-03-04T18:00:00 has no time zone offset: add Z for UTC or the offset, like 2027-03-04T18:00:00+01:00',
  'content/events/bad-zone.md:6:11 timezone: must be an IANA time zone name like Europe/Berlin',
  'content/events/ends-before-start.md:5:10 ends_at: must not be before starts_at (2027-03-04T18:00:00+01:00)',
  'content/events/no-location.md:7:1 location: is required unless attendance_mode is online',
]

describe('author errors', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/good.md': validPost() })
  })
  afterAll(() => project.remove())

  it('reports every problem of a run at once as file:line:col field: message', async () => {
    for (const [path, text] of Object.entries(BROKEN)) await project.write(path, text)
    const error = await checkContent(project.root).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentErrors)
    expect((error as ContentErrors).errors.map((e) => e.message)).toEqual(EXPECTED)
    expect((error as ContentErrors).errors.map((e) => e.code)).toEqual([
      'SCHEMA',
      'YAML_SYNTAX',
      'IMAGE_ALT',
      'SCHEMA',
      'SCHEMA',
      'SCHEMA',
      'DUPLICATE_SLUG',
      'SCHEMA',
      'SCHEMA',
      'REFERENCE',
      'BROKEN_LINK',
      'YAML_SYNTAX',
      'YAML_SYNTAX',
      'SCHEMA',
      'SCHEMA',
      'DATE_ORDER',
      'SCHEMA',
    ])
    // The summary alone names the files: a failing test or a log line says where to look.
    expect((error as ContentErrors).message).toBe(
      '17 content errors in content/blog-posts/bad-date.md, content/blog-posts/colon.md, content/blog-posts/no-alt.md and 9 more files',
    )
  })

  it('leaves the previous dist/ byte-identical when a build fails', async () => {
    const clean = await createProject({ 'content/blog-posts/good.md': validPost() })
    try {
      await buildSite({ root: clean.root })
      const before = await hashTree(clean.dist)
      expect(Object.keys(before).length).toBeGreaterThan(400)
      await clean.write('content/events/no-location.md', BROKEN['content/events/no-location.md']!)
      await expect(buildSite({ root: clean.root })).rejects.toBeInstanceOf(ContentErrors)
      expect(await hashTree(clean.dist)).toEqual(before)
      expect((await readdir(clean.root)).filter((n) => n.startsWith('.dist-'))).toEqual([])
    } finally {
      await clean.remove()
    }
  })

  it('`check` exits non-zero and prints the errors with code frames, and GitHub annotations under Actions', async () => {
    const result = await runCommand('cli', ['check', '--root', project.root], { GITHUB_ACTIONS: 'true' })
    expect(result.code).toBe(1)
    // Each error, then a short code frame with a caret at its column.
    expect(result.stderr).toContain(
      `${EXPECTED[0]}\n      2 | title: Bad date\n    > 3 | published_at: 2026-02-30\n        |               ^\n      4 | authors:\n`,
    )
    expect(result.stdout).toContain(
      '::error file=content/blog-posts/bad-date.md,line=3,col=15,title=published_at::2026-02-30 is not a date',
    )
    expect(result.stderr).not.toMatch(/\bat .*\.(?:ts|js|mjs):\d+/) // no stack trace
  })
})

describe('site settings errors', () => {
  it('name content/site.yaml, the line, the column and the setting, like content errors', async () => {
    const project = await createProject({ 'content/blog-posts/good.md': validPost() })
    try {
      await project.write(
        'content/site.yaml',
        'name: Broken Co\nurl: www.example.com\ncolections:\n  blog-posts: { path: blog }\n',
      )
      const error = await checkContent(project.root).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ContentErrors)
      expect((error as ContentErrors).errors.map((e) => e.message)).toEqual([
        "content/site.yaml:2:6 url: must be the marketing site's absolute http(s) URL, like https://www.example.com, at most 1000 characters",
        'content/site.yaml:3:1 colections: is not a site setting (did you mean collections? settings: name, description, url, api_url, websub_hub, language, locales, locale_fallback, collections, repository, repository_branch, theme, social_cards, tags, components)',
      ])
      await project.write(
        'content/site.yaml',
        'url: https://www.example.com\ncollections:\n  blog-posts: { label: blog post, path: blog }\n',
      )
      const second = (await checkContent(project.root).catch((e: unknown) => e)) as ContentErrors
      expect(second.errors.map((e) => e.message)).toEqual([
        'content/site.yaml:3:41 collections.blog-posts.path: must be a path on the site starting with /, like /blog, at most 200 characters',
      ])
    } finally {
      await project.remove()
    }
  })
})

describe('the bounds the API states (openapi.json)', () => {
  const post = (title: string, body: string) =>
    `---\ntitle: ${title}\npublished_at: 2026-01-05\nauthors:\n  - name: A\n---\n${body}`

  it('are author errors: an over-long title, a body over its size limits, a site URL too long for the records', async () => {
    const project = await createProject({
      'content/blog-posts/long-title.md': post('T'.repeat(201), 'Body.\n'),
      'content/blog-posts/long-body.md': post('Long body', `${'word '.repeat(40_000)}\n`),
      'content/blog-posts/wide-html.md': post(
        'Wide HTML',
        `${'[^a] '.repeat(4_000)}\n\n[^a]: A footnote referred to four thousand times.\n`,
      ),
    })
    try {
      const error = (await checkContent(project.root).catch((e: unknown) => e)) as ContentErrors
      expect(error).toBeInstanceOf(ContentErrors)
      expect(error.errors.map((e) => e.message)).toEqual([
        'content/blog-posts/long-body.md:7:1 body: has 200001 characters of Markdown, more than the 200000 a body may have: split it into several items',
        'content/blog-posts/long-title.md:2:8 title: must have at most 200 characters (it has 201)',
        'content/blog-posts/wide-html.md:7:1 body: has 1179780 characters of HTML once rendered, more than the 1000000 a body may have: split it into several items',
      ])
      expect(error.errors.map((e) => e.code)).toEqual(['BODY_TOO_LONG', 'SCHEMA', 'BODY_TOO_LONG'])
      await project.write('content/site.yaml', `url: https://www.example.com/${'a'.repeat(1000)}\n`)
      const site = (await checkContent(project.root).catch((e: unknown) => e)) as ContentErrors
      expect(site.errors.map((e) => e.message)).toEqual([
        "content/site.yaml:1:6 url: must be the marketing site's absolute http(s) URL, like https://www.example.com, at most 1000 characters",
      ])
    } finally {
      await project.remove()
    }
  })
})
