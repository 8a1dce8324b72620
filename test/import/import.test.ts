/**
 * `npm run import` as its users run it (the command, in a process of its
 * own) on exports: WordPress's own theme unit test data (a real public one,
 * test/fixtures/import/theme-test-data), a WordPress export made here with
 * what real sites have (shortcodes, Gutenberg blocks, Yoast and Rank Math
 * fields, a password-protected and a scheduled post, a custom post type,
 * internal links, images in uploads) and a Ghost export in Ghost's
 * documented format. The result passes `npm run check`, builds, and the
 * gateway serves what should be public and nothing else; a second import
 * changes no file; an edited file is left alone unless --force.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../build/compiler/build.ts'
import type { RedirectsEnvelope } from '../../contract/redirects.ts'
import { runCommand } from '../helpers/commands.ts'
import { hashTree } from '../helpers/files.ts'
import { startGateway, type TestGateway } from '../helpers/gateway.ts'
import { initAndCommit } from '../helpers/git.ts'
import { createProject, REPO_ROOT, type TempProject } from '../helpers/project.ts'

const FIXTURES = join(REPO_ROOT, 'test/fixtures/import')
const THEME_DATA = join(FIXTURES, 'theme-test-data/themeunittestdata.wordpress.xml')
const T = 1_769_904_000

/** The slugs of an export's items of `type` with `status`, counted from the XML itself. */
async function wxrItems(file: string, type: string): Promise<{ slug: string; status: string; password: boolean }[]> {
  const xml = await readFile(file, 'utf8')
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].flatMap(([, item]) => {
    const field = (name: string) =>
      new RegExp(`<wp:${name}>(?:<!\\[CDATA\\[)?([\\s\\S]*?)(?:\\]\\]>)?</wp:${name}>`).exec(item!)?.[1] ?? ''
    return field('post_type') === type
      ? [{ slug: field('post_name'), status: field('status'), password: field('post_password') !== '' }]
      : []
  })
}

const importInto = (project: TempProject, ...args: string[]) => runCommand('import', [...args, '--root', project.root])

/** Published bodies without their code (a post may show block markup as code). */
const prose = (markdown: string) => markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '')

describe('importing WordPress theme unit test data', () => {
  let project: TempProject
  let gateway: TestGateway
  let first: { code: number; stdout: string; stderr: string }
  beforeAll(async () => {
    project = await createProject()
    first = await importInto(project, 'wordpress', THEME_DATA)
    await initAndCommit(project.root, T)
    await buildSite({ root: project.root, cache: false })
    gateway = await startGateway(project.dist, { env: { MCP_AUTH: 'off' } })
  }, 240_000)
  afterAll(async () => {
    await gateway?.close()
    await project?.remove()
  })

  it('imports every post and page, and counts them as the export does', async () => {
    expect(first.code, first.stderr).toBe(0)
    const posts = await wxrItems(THEME_DATA, 'post')
    const pages = await wxrItems(THEME_DATA, 'page')
    expect(posts.filter((p) => p.status === 'publish' && !p.password)).toHaveLength(56 - 1)
    expect(first.stdout).toContain(`post: ${posts.length} created, 0 updated, 0 unchanged, 0 skipped`)
    expect(first.stdout).toContain(`page: ${pages.length} created, 0 updated, 0 unchanged, 0 skipped`)
    expect(first.stdout).toMatch(/template-password-protected\.md: password-protected/)
  })

  it('passes npm run check', async () => {
    const check = await runCommand('cli', ['check', '--root', project.root])
    expect(check.code, check.stderr).toBe(0)
  })

  it('serves every published post, not the scheduled, draft or password-protected ones', async () => {
    const list = await fetch(`${gateway.url}/api/blog-posts?limit=100&fields=slug`)
    const slugs = ((await list.json()) as { data: { slug: string }[] }).data.map((p) => p.slug)
    expect(slugs).toHaveLength(55)
    for (const hidden of ['scheduled', 'draft', 'template-password-protected']) {
      expect(slugs).not.toContain(hidden)
      expect((await fetch(`${gateway.url}/api/blog-posts/${hidden}`)).status, hidden).toBe(404)
    }
    for (const slug of slugs) {
      const response = await fetch(`${gateway.url}/api/blog-posts/${slug}?fields=body`)
      expect(response.status, slug).toBe(200)
      const { body } = (await response.json()) as { body: { markdown: string; html: string } }
      expect(prose(body.markdown), slug).not.toMatch(/\[caption|\[gallery|\[embed|\[video|\[audio|<!-- wp:/)
      expect(body.html, slug).not.toMatch(/\[caption|\[gallery|\[embed|\[audio/)
    }
  })

  it('answers an old permalink 301 to the new page', async () => {
    const response = await fetch(`${gateway.url}/api/redirects?limit=200`)
    const { data } = (await response.json()) as RedirectsEnvelope
    expect(data).toContainEqual({
      from: 'https://www.fixture.example/2010/08/07/post-format-image-caption/',
      to: 'https://www.fixture.example/blog/post-format-image-caption',
      status: 301,
    })
  })

  it('changes no file when the same export is imported again', async () => {
    const before = await hashTree(join(project.root, 'content'))
    const again = await importInto(project, 'wordpress', THEME_DATA)
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toContain('post: 0 created, 0 updated, 58 unchanged, 0 skipped')
    expect(await hashTree(join(project.root, 'content'))).toEqual(before)
  })
})

describe('importing a WordPress export with what real sites have', () => {
  let project: TempProject
  let out: string
  const file = join(FIXTURES, 'wordpress.xml')
  const args = [
    'wordpress',
    file,
    '--media',
    join(FIXTURES, 'uploads'),
    '--map',
    'product=products',
    '--map',
    'tribe_events=events',
  ]
  beforeAll(async () => {
    project = await createProject()
    const run = await importInto(project, ...args)
    expect(run.code, run.stderr).toBe(0)
    out = run.stdout
  }, 120_000)
  afterAll(() => project?.remove())
  const read = (path: string) => readFile(join(project.root, 'content', path), 'utf8')

  it('maps dates, SEO summary, tags, authors, the featured image and the old address', async () => {
    const post = await read('blog-posts/lights-on-the-water.md')
    expect(post).toMatch(/^---\n# imported from wordpress post 10 \([0-9a-f]{16}\)\n/)
    expect(post).toContain('published_at: 2019-05-01T09:00:00Z\nupdated_at: 2019-06-02T09:00:00Z\n')
    expect(post).toContain('summary: How the harbour looks when the lamps come on, quay by quay.\n')
    expect(post).toContain('tags:\n  - harbour-life\n  - dusk\n')
    expect(post).toContain('authors:\n  - name: Mira Åkesson\n')
    expect(post).toContain('image:\n  url: lights-on-the-water/harbour-lights.jpg\n')
    expect(post).toContain('aliases:\n  - /2019/05/lights-on-the-water/\n')
    await expect(
      readFile(join(project.root, 'content/blog-posts/lights-on-the-water/harbour-lights.jpg')),
    ).resolves.toEqual(await readFile(join(FIXTURES, 'uploads/2019/05/harbour-lights.jpg')))
  })

  it('turns blocks and shortcodes into Markdown and components, leaving none behind', async () => {
    const blocks = await read('blog-posts/lights-on-the-water.md')
    expect(blocks).toContain(
      '![Boats moored under lamp posts at dusk](lights-on-the-water/harbour-lights.jpg)\n\n*The east quay, just after six*',
    )
    expect(blocks).toContain(
      '::video{src="https://www.youtube.com/watch?v=dQw4w9WgXcQ" title="A time-lapse of the quay"}',
    )
    expect(blocks).toContain(':::quote{attribution="Harbour master"}\nThe lights come on one by one.\n:::')
    expect(blocks).toContain('| Quay | Lamps |\n| --- | --- |\n| East | 12 |')
    expect(blocks).toContain('::cta{label="Plan a visit" href="https://harbour.example/visit/"}')
    expect(blocks).toContain('footnote.[^1]')
    expect(blocks).toContain('[^1]: Counted on a Tuesday in May.')
    const classic = await read('blog-posts/our-offsite.md')
    expect(classic).toContain('![The whole team on the west pier](our-offsite/team-offsite.jpg)')
    expect(classic).toContain('![Six people on a pier](our-offsite/team-offsite.jpg)')
    expect(classic).toContain('::video{src="https://vimeo.com/76979871"')
    expect(classic).toContain('[Video: pier.mp4](https://harbour.example/wp-content/uploads/2019/06/pier.mp4)')
    for (const body of [blocks, classic])
      expect(body).not.toMatch(/\[\/?(caption|gallery|embed|video|audio|contact-form-7)|<!--/)
    expect(out).toContain('the shortcode [contact-form-7] has no equivalent')
    // A file missing from --media is a note, and the image stays where it was.
    expect(classic).toContain('![Gulls over the pier](https://harbour.example/wp-content/uploads/2019/06/gulls.jpg)')
    expect(out).toContain(
      'the image https://harbour.example/wp-content/uploads/2019/06/gulls.jpg is not in the --media folder',
    )
  })

  it('rewrites internal links to the new addresses, and one to a draft to its text', async () => {
    const classic = await read('blog-posts/our-offsite.md')
    expect(classic).toContain('Read [the post about the lights](/blog/lights-on-the-water) first, or the draft.')
    expect(await read('pages/about.md')).toContain('See [our offsite](/blog/our-offsite).')
  })

  it('maps statuses: a draft, a scheduled post, a password-protected one as a draft with a note', async () => {
    expect(await read('blog-posts/notes-for-later.md')).toContain('draft: true')
    const future = await read('blog-posts/winter-timetable.md')
    expect(future).toContain('published_at: 2031-01-05T07:00:00Z')
    expect(future).not.toContain('draft:')
    expect(await read('blog-posts/members-minutes.md')).toContain('draft: true')
    expect(out).toContain('members-minutes.md: password-protected')
  })

  it('declares pages and the custom type’s collection, with Rank Math’s canonical URL, keeping site.yaml’s comments', async () => {
    const site = await read('site.yaml')
    expect(site).toMatch(
      /\n {2}pages:\n {4}path: \/pages\n {4}title: Pages\n {4}label: page\n {4}fields:\n {6}canonical_url:/,
    )
    expect(site).toContain('\n  products:\n    path: /products\n')
    const about = await read('pages/about.md')
    expect(about).toContain('summary: Who runs the harbour association, and since when.\n')
    expect(about).toContain('canonical_url: https://association.example/about-us\n')
    expect(await read('products/mooring-rope.md')).toContain('title: Mooring rope, 20 m')
    expect(out).toContain('skip  1 nav_menu_item: not content of the site')
  })

  it('writes no item that cannot be made valid, and says why', async () => {
    // Events need a start and a time zone no WordPress post has: refused before writing.
    expect(out).toContain('tribe_events: 0 created, 0 updated, 0 unchanged, 1 skipped')
    expect(out).toMatch(/skip {2}tribe_events "Harbour festival": its frontmatter would be invalid: .*starts_at/)
    // A link to a page that is gone: the check refuses the file, which is removed again.
    expect(out).toMatch(
      /skip {2}post "Links that outlived their pages": not valid, so not written: content\/blog-posts\/old-links\.md:\d+:\d+ body: .*long-gone/,
    )
    await expect(read('blog-posts/old-links.md')).rejects.toThrow(/ENOENT/)
    expect(out).toContain('post: 5 created, 0 updated, 0 unchanged, 1 skipped')
  })

  it('passes npm run check and publishes only what was public', async () => {
    const check = await runCommand('cli', ['check', '--root', project.root])
    expect(check.code, check.stderr).toBe(0)
    expect(check.stdout).toContain('scheduled  content/blog-posts/winter-timetable.md')
  })

  it('updates a file nobody edited, leaves an edited one alone unless --force', async () => {
    const path = join(project.root, 'content/blog-posts/our-offsite.md')
    const unchanged = await importInto(project, ...args)
    expect(unchanged.stdout).toContain('post: 0 created, 0 updated, 5 unchanged, 1 skipped')
    const edited = (await readFile(path, 'utf8')).replace('We spent a day', 'We spent a long day')
    await writeFile(path, edited)
    const kept = await importInto(project, ...args)
    expect(kept.stdout).toContain('our-offsite.md was edited since it was imported')
    expect(await readFile(path, 'utf8')).toBe(edited)
    // An updated export: the file nobody edited follows it, the edited one stays as it is.
    const updated = join(project.root, 'updated.xml')
    await writeFile(updated, (await readFile(file, 'utf8')).replace('every two hours', 'every three hours'))
    const again = await importInto(project, 'wordpress', updated, ...args.slice(2))
    expect(again.stdout).toContain('post: 0 created, 1 updated, 3 unchanged, 2 skipped')
    expect(await read('blog-posts/winter-timetable.md')).toContain('Ferries every three hours')
    expect(await readFile(path, 'utf8')).toBe(edited)
    const forced = await importInto(project, ...args, '--force')
    expect(forced.stdout).toContain('post: 0 created, 2 updated, 3 unchanged, 1 skipped')
    expect(await readFile(path, 'utf8')).toContain('We spent a day')
  })

  it('shows what it would write with --dry-run, writing nothing', async () => {
    const other = await createProject()
    try {
      const before = await hashTree(join(other.root, 'content'))
      const dry = await importInto(other, ...args, '--dry-run')
      expect(dry.code, dry.stderr).toBe(0)
      expect(dry.stdout).toContain('post: 6 would be created')
      expect(dry.stdout).toContain('would have declared the collection pages')
      expect(await hashTree(join(other.root, 'content'))).toEqual(before)
    } finally {
      await other.remove()
    }
  })
})

describe('importing a Ghost export', () => {
  let project: TempProject
  let gateway: TestGateway
  const args = [
    'ghost',
    join(FIXTURES, 'ghost.json'),
    '--media',
    join(FIXTURES, 'ghost-images'),
    '--site-url',
    'https://lighthouse.example',
  ]
  beforeAll(async () => {
    project = await createProject()
    const run = await importInto(project, ...args)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('post: 6 created')
    expect(run.stdout).toContain('for-members.md: password-protected or for members only')
    await initAndCommit(project.root, T)
    await buildSite({ root: project.root, cache: false })
    gateway = await startGateway(project.dist, { env: { MCP_AUTH: 'off' } })
  }, 120_000)
  afterAll(async () => {
    await gateway?.close()
    await project?.remove()
  })
  const read = (path: string) => readFile(join(project.root, 'content', path), 'utf8')

  it('turns Lexical, Mobiledoc and rendered cards into Markdown and components', async () => {
    const lexical = await read('blog-posts/the-lighthouse.md')
    expect(lexical).toContain("[The keeper's log](/blog/keepers-log)")
    expect(lexical).toContain(
      '![A white lighthouse on a rock](the-lighthouse/lighthouse.jpg)\n\n*The light in January*',
    )
    expect(lexical).toContain(':::callout\nThe tower is closed in winter.\n:::')
    expect(lexical).toContain('::video{src="https://www.youtube.com/watch?v=aqz-KE-bpKQ" title="The light at night"}')
    expect(lexical).toContain('::cta{label="Book a tour" href="https://tours.example/lighthouse"}')
    expect(lexical).toContain('tags:\n  - history\n')
    expect(lexical).toContain('avatar_url: ../people/ingrid-solberg.jpg')
    await expect(readFile(join(project.root, 'content/people/ingrid-solberg.jpg'))).resolves.toBeDefined()
    const mobiledoc = await read('blog-posts/keepers-log.md')
    expect(mobiledoc).toContain('beside [the lighthouse](/blog/the-lighthouse).')
    expect(mobiledoc).toContain('Entries are **short**.')
    const rendered = await read('blog-posts/rendered-with-cards.md')
    expect(rendered).toContain(':::callout\nMind the steps.\n:::')
    expect(rendered).toContain('filed under [history](https://lighthouse.example/tag/history/).')
    expect(rendered).toContain('![Stairs](https://cdn.example/a.jpg)\n\n![The lamp room](https://cdn.example/b.jpg)')
  })

  it('serves the published posts and page, not the scheduled, draft or members-only ones', async () => {
    for (const path of [
      'blog-posts/the-lighthouse',
      'blog-posts/keepers-log',
      'blog-posts/rendered-with-cards',
      'pages/visit',
    ])
      expect((await fetch(`${gateway.url}/api/${path}`)).status, path).toBe(200)
    for (const path of ['blog-posts/next-season', 'blog-posts/half-written', 'blog-posts/for-members'])
      expect((await fetch(`${gateway.url}/api/${path}`)).status, path).toBe(404)
    const { data } = (await (await fetch(`${gateway.url}/api/redirects`)).json()) as RedirectsEnvelope
    expect(data).toContainEqual({
      from: 'https://www.fixture.example/the-lighthouse/',
      to: 'https://www.fixture.example/blog/the-lighthouse',
      status: 301,
    })
  })

  it('changes no file when imported again', async () => {
    const before = await hashTree(join(project.root, 'content'))
    const again = await importInto(project, ...args)
    expect(again.stdout).toContain('post: 0 created, 0 updated, 6 unchanged, 0 skipped')
    expect(await hashTree(join(project.root, 'content'))).toEqual(before)
  })
})
