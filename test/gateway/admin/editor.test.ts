/**
 * The editor at /admin/ in `npm run dev`, in Chromium: Decap CMS, configured
 * from the schemas, finds the dev server's local backend, an author creates a
 * blog post through the form (title, date, tags, an author, a body) and saves;
 * the file in content/ is the one a person would write, `npm run check`
 * accepts it and the API serves it. A required field left empty is refused
 * with the message `npm run check` gives. An author uploads a cover and a body
 * image for a new post: both land in the post's own folder, named by paths
 * relative to its file, with their alt text, and the API serves them
 * processed. The editor loads everything from the dev server (its
 * configuration as text/yaml) and asks no third party for anything, whatever
 * a test does in it. The local backend answers only this server's own pages on
 * loopback, only for content files and images where the build looks for
 * them, and only for real images of bounded size.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { ADMIN_LOCAL_BACKEND_PATH, PREVIEW_RENDER_PATH } from '../../../contract/public-paths.ts'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { ARTIFACTS, connectChromium } from '../../helpers/chromium.ts'
import { type EditorPage, openEditor } from '../../helpers/editor.ts'
import { photo } from '../../helpers/images.ts'
import { startGateway } from '../../helpers/gateway.ts'
import { createProject, SITE_YAML, validPost, type TempProject } from '../../helpers/project.ts'

const SLUG = 'editing-without-git-a-first-post'

describe('the editor in npm run dev', () => {
  let project: TempProject
  let dev: DevServer
  let browser: Browser
  let editor: EditorPage
  let page: Page
  let requests: string[]
  let answers: EditorPage['answers']

  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/existing.md': validPost('An existing post') })
    dev = await startDev({ root: project.root, port: 0, print: () => {} })
    browser = await connectChromium()
  })
  beforeEach(async () => {
    editor = await openEditor(browser, dev.url, 'An existing post')
    ;({ page, requests, answers } = editor)
  })
  afterEach(async () => {
    await page.close()
    // Whatever a test did in the editor, the browser asked no host but the dev server for anything,
    // and the page left no error uncaught (a refused save among them).
    expect(editor.thirdParty(new URL(dev.url).origin)).toEqual([])
    expect(editor.pageErrors).toEqual([])
  })
  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await project?.remove()
  })

  it('loads from the dev server alone: the editor, its configuration as text/yaml, the preview pane; no third-party request', async () => {
    // The collection's button says what it does in words every font has (Decap's "＋" showed as a box).
    await expect
      .poll(() => page.getByRole('link', { name: 'Create entry of type blog post' }).textContent())
      .toBe('New blog post')
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.locator('[data-slate-editor="true"]').last().click()
    await page.keyboard.insertText('A body for the preview pane.')
    await page.frameLocator('iframe').first().getByText('A body for the preview pane.').waitFor({ timeout: 10_000 })
    const origin = new URL(dev.url).origin
    // Decap read its configuration from /admin/config.yml, served as YAML.
    expect(answers.get(`${origin}/admin/config.yml`)).toEqual({ status: 200, type: 'text/yaml; charset=utf-8' })
    const direct = await fetch(`${dev.url}/admin/config.yml`)
    expect([direct.status, direct.headers.get('content-type')]).toEqual([200, 'text/yaml; charset=utf-8'])
    expect(parse(await direct.text())).toMatchObject({
      backend: { name: 'github' },
      collections: expect.any(Array),
    })
    // The page, its scripts and styles, the configuration, the local backend, the preview renderer: all here.
    const paths = new Set(requests.filter((url) => url.startsWith(`${origin}/`)).map((url) => new URL(url).pathname))
    expect([...paths]).toEqual(
      expect.arrayContaining(['/admin/', '/admin/config.yml', ADMIN_LOCAL_BACKEND_PATH, PREVIEW_RENDER_PATH]),
    )
    expect(editor.thirdParty(origin)).toEqual([])
  })

  it('creates a blog post through the form: a hand-written file that npm run check accepts and the API serves', async () => {
    await page.screenshot({ path: join(ARTIFACTS, 'editor-collection.png') })
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByLabel('Title', { exact: true }).fill('Editing without git: a first post')
    for (const [i, tag] of ['product-update', 'best-practices'].entries()) {
      await page.getByRole('button', { name: /Add tags/ }).click()
      await page.locator('input[id^="tag-field"]').nth(i).fill(tag)
    }
    await page.getByLabel('Published at', { exact: true }).fill('2026-03-14')
    await page.getByRole('button', { name: /Add authors/ }).click()
    await page.locator('input[id^="name-field"]').first().fill('Ada Author')
    await page.locator('[data-slate-editor="true"]').last().click()
    await page.keyboard.insertText('The first paragraph, written in the editor.\n\n| a | b |\n|---|---|\n| 1 | 2 |')
    // The preview pane shows the body as the build renders it (a GFM table), before anything is saved.
    const preview = page.frameLocator('iframe').first()
    await preview.locator('.body table td').first().waitFor({ timeout: 10_000 })
    expect(await preview.locator('.body table td').allTextContents()).toEqual(['1', '2'])
    await page.screenshot({ path: join(ARTIFACTS, 'editor-form.png') })

    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
    const path = join(project.root, `content/blog-posts/${SLUG}.md`)
    await expect
      .poll(() => readdir(join(project.root, 'content/blog-posts')), { timeout: 15_000 })
      .toContain(`${SLUG}.md`)
    expect(await readFile(path, 'utf8')).toBe(`---
title: "Editing without git: a first post"
tags: [product-update, best-practices]
published_at: 2026-03-14
authors:
  - name: Ada Author
---

The first paragraph, written in the editor.

| a | b |
|---|---|
| 1 | 2 |
`)
    await expect(checkContent(project.root)).resolves.toEqual({ files: 2, withheld: [] })
    await dev.settled()
    const record = (await (await fetch(`${dev.url}/api/blog-posts/${SLUG}`)).json()) as Record<string, unknown>
    expect(record).toMatchObject({
      slug: SLUG,
      title: 'Editing without git: a first post',
      tags: ['product-update', 'best-practices'],
      published_at: '2026-03-14T00:00:00Z',
      authors: [{ name: 'Ada Author' }],
    })
  })

  it('uploads a cover and a body image into the new post’s folder, named by relative paths with their alt text', async () => {
    const slug = 'pictures-from-the-editor'
    const cover = await photo(800, 450, { format: 'png' })
    const chart = await photo(320, 200, { format: 'png' })
    const upload = async (name: string, buffer: Buffer) => {
      // The last image field of the form: the authors' portraits come before the cover, the body after it.
      await page.getByRole('button', { name: 'Choose an image' }).last().click()
      await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'image/png', buffer })
      await page.getByRole('button', { name: 'Choose selected' }).click()
    }
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByLabel('Title', { exact: true }).fill('Pictures from the editor')
    await page.getByLabel('Published at', { exact: true }).fill('2026-03-16')
    await page.getByRole('button', { name: /Add authors/ }).click()
    await page.locator('input[id^="name-field"]').first().fill('Ada Author')
    await upload('Cover.PNG', cover)
    await page.locator('input[id^="alt-field"]').first().fill('A gradient from blue to orange')
    await page.locator('[data-slate-editor="true"]').last().click()
    await page.keyboard.insertText('The chart below shows it.')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Add Component' }).click()
    await page.getByRole('menuitem', { name: 'Image' }).click()
    await upload('chart.png', chart)
    await page.locator('input[id^="alt-field"]').last().fill('Detections per week, rising')
    // Before the first save the preview pane shows both uploads, at their own sizes, with their alt text.
    const shown = () =>
      page
        .frameLocator('iframe')
        .first()
        .locator('img')
        .evaluateAll((images) => images.map((i) => [i.getAttribute('alt'), (i as HTMLImageElement).naturalWidth]))
    await expect.poll(shown, { timeout: 10_000 }).toEqual([
      ['A gradient from blue to orange', 800],
      ['Detections per week, rising', 320],
    ])
    await page.screenshot({ path: join(ARTIFACTS, 'editor-image.png') })

    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
    const folder = join(project.root, 'content/blog-posts', slug)
    await expect.poll(() => readdir(folder).catch(() => []), { timeout: 15_000 }).toEqual(['chart.png', 'cover.png'])
    expect(await readFile(join(folder, 'cover.png'))).toEqual(cover)
    expect(await readFile(join(folder, 'chart.png'))).toEqual(chart)
    await expect
      .poll(() => readFile(join(project.root, `content/blog-posts/${slug}.md`), 'utf8').catch(() => ''))
      .toBe(`---
title: Pictures from the editor
published_at: 2026-03-16
authors:
  - name: Ada Author
image:
  url: ${slug}/cover.png
  alt: A gradient from blue to orange
---

The chart below shows it.

![Detections per week, rising](${slug}/chart.png)
`)
    const posts = (await readdir(join(project.root, 'content/blog-posts'))).filter((n) => n.endsWith('.md'))
    await expect(checkContent(project.root)).resolves.toEqual({ files: posts.length, withheld: [] })
    await dev.settled()
    const record = (await (await fetch(`${dev.url}/api/blog-posts/${slug}`)).json()) as {
      image: { url: string; sources: { format: string; width: number; url: string }[] }
      body: { html: string }
    }
    expect(record.image).toMatchObject({
      alt: 'A gradient from blue to orange',
      width: 800,
      height: 450,
      placeholder: expect.any(String),
    })
    expect(record.image.sources.map((s) => `${s.format} ${s.width}`)).toEqual([
      'avif 480',
      'avif 800',
      'webp 480',
      'webp 800',
      'jpeg 480',
      'jpeg 800',
    ])
    // An opaque PNG falls back to JPEG; the dev server serves the processed files.
    const served = await fetch(new URL(record.image.url, dev.url))
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/jpeg'])
    expect(record.body.html).toMatch(/<picture>.*alt="Detections per week, rising"/s)
  })

  it('names a new file by its Slug field, else by its title at most the schema’s 120 characters', async () => {
    /** Create a post through the form; done once Decap has saved it and opened the saved entry. */
    const create = async (title: string, name: string, slug?: string) => {
      // A whole load: from the entry saved before, a change of the hash alone showed that entry's form a
      // moment longer, and the title typed into it was lost when the new draft replaced it.
      await page.goto('about:blank')
      await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
      const titleField = page.getByLabel('Title', { exact: true })
      await titleField.fill(title)
      if (slug) await page.getByLabel('Slug').fill(slug)
      await page.getByLabel('Published at', { exact: true }).fill('2026-03-17')
      await page.getByRole('button', { name: /Add authors/ }).click()
      await page.locator('input[id^="name-field"]').first().fill('Ada Author')
      expect(await titleField.inputValue()).toBe(title)
      await page.getByRole('button', { name: 'Publish', exact: true }).click()
      await page.getByText('Publish now').click()
      // The dev server may still be processing the images of the test before: a save can wait on it.
      await page.waitForURL(`**/#/collections/blog-posts/entries/${name}`, { timeout: 30_000 })
    }
    const file = (title: string) =>
      `---\ntitle: ${title}\npublished_at: 2026-03-17\nauthors:\n  - name: Ada Author\n---\n`
    const names = () => readdir(join(project.root, 'content/blog-posts'))
    await create('Named by hand', 'chosen-name', 'chosen-name')
    expect(await names()).toContain('chosen-name.md')
    // The file name says the slug: no slug: line repeats it, as npm run new -- --slug writes none.
    expect(await readFile(join(project.root, 'content/blog-posts/chosen-name.md'), 'utf8')).toBe(file('Named by hand'))

    // 178 characters, a valid title; its slug is cut at the schema's 120, at a word.
    const long = `A very long title ${'about data reliability '.repeat(7)}`.trim()
    const slug = `a-very-long-title${'-about-data-reliability'.repeat(4)}-about-data`
    expect(slug.length).toBe(120)
    await create(long, slug)
    expect(await readFile(join(project.root, `content/blog-posts/${slug}.md`), 'utf8')).toBe(file(long))
  }, 90_000)

  it('refuses to save with a required field left empty, with the message of npm run check', async () => {
    const before = await readdir(join(project.root, 'content/blog-posts'))
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByLabel('Published at', { exact: true }).fill('2026-03-15')
    await page.getByRole('button', { name: /Add authors/ }).click()
    await page.locator('input[id^="name-field"]').first().fill('Ada Author')
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
    // `npm run check` says `title: is required` for the same file; the form names the field by its label.
    await page.getByText('Title: is required').waitFor({ timeout: 10_000 })
    await page.getByLabel('Title', { exact: true }).scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(ARTIFACTS, 'editor-required.png') })
    expect(await readdir(join(project.root, 'content/blog-posts'))).toEqual(before)
  })

  it('refuses a tag in the wrong form with the one rule it breaks, and says so without blaming a required field', async () => {
    const before = await readdir(join(project.root, 'content/blog-posts'))
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByLabel('Title', { exact: true }).fill('A post with a bad tag')
    await page.getByLabel('Published at', { exact: true }).fill('2026-03-15')
    await page.getByRole('button', { name: /Add authors/ }).click()
    await page.locator('input[id^="name-field"]').first().fill('Ada Author')
    await page.getByRole('button', { name: /Add tags/ }).click()
    await page.locator('input[id^="tag-field"]').first().fill('Data Quality')
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
    // The pattern's message alone (not joined with the length rule, which the tag keeps), as npm run check says it.
    const tagError = page.getByText(/^Tag: /)
    await tagError.waitFor({ timeout: 10_000 })
    expect(await tagError.allTextContents()).toEqual([
      'Tag: must be lowercase letters, digits and single hyphens, like data-quality',
    ])
    // A tag too long is told its length alone.
    // (Decap's text input keeps its value under fill(): select it and type over it, as a person does.)
    await page.locator('input[id^="tag-field"]').first().click()
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.insertText('a'.repeat(51))
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
    await expect.poll(() => tagError.allTextContents()).toEqual(['Tag: must have at most 50 characters (it has 51)'])
    // With a required field empty too (a tag added, left empty), the notice speaks of every field in error.
    await page.getByRole('button', { name: /Add tags/ }).click()
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
    await page
      .getByText('Not saved: some fields need correcting; each says what it needs.')
      .waitFor({ timeout: 10_000 })
    expect(await tagError.allTextContents()).toEqual([
      'Tag: must have at most 50 characters (it has 51)',
      'Tag: is required',
    ])
    expect(await page.getByText(/missed a required field/).count()).toBe(0)
    expect(await readdir(join(project.root, 'content/blog-posts'))).toEqual(before)
  })

  it('without repository: in site.yaml, the build warns and the editor npm start serves says what to set', async () => {
    const distDir = join(project.root, 'dist-start')
    const report = await buildSite({ root: project.root, distDir })
    const problem =
      'repository is not set in content/site.yaml: the editor at /admin/ saves to the GitHub repository named there, like repository: owner/name; until it is set, only npm run dev edits (through its local backend, in this folder)'
    expect(report.siteWarnings).toEqual([problem])
    const gateway = await startGateway(distDir)
    const served = await browser.newPage()
    const errors: string[] = []
    served.on('pageerror', (error) => errors.push(error.message))
    try {
      await served.goto(`${gateway.url}/admin/`)
      await served.getByText(problem).waitFor({ timeout: 20_000 })
      expect(await served.getByText(/config\.yml/).count()).toBe(0)
      await served.screenshot({ path: join(ARTIFACTS, 'editor-no-repository.png') })
      expect(errors).toEqual([])
    } finally {
      await served.close()
      await gateway.close()
    }
    // With the setting, the build says nothing of it.
    await project.write('content/site.yaml', `${SITE_YAML}repository: fixture/content\n`)
    try {
      const built = await buildSite({ root: project.root, distDir, force: true })
      expect(built.siteWarnings).toEqual([])
    } finally {
      await project.write('content/site.yaml', SITE_YAML)
      await dev.settled()
    }
  })
})

describe('the local backend of npm run dev', () => {
  let project: TempProject
  let dev: DevServer
  const call = (body: unknown, headers: Record<string, string> = {}, path = ADMIN_LOCAL_BACKEND_PATH) =>
    fetch(`${dev.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: dev.url, ...headers },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/existing.md': validPost('An existing post') })
    dev = await startDev({ root: project.root, port: 0, distDir: false, print: () => {} })
  })
  afterAll(async () => {
    await dev?.close()
    await project?.remove()
  })

  it('lists and reads the collections’ files', async () => {
    const listed = (await (
      await call({ action: 'entriesByFolder', params: { folder: 'content/blog-posts', extension: 'md', depth: 1 } })
    ).json()) as {
      data: string
      file: { path: string }
    }[]
    expect(listed.map((e) => e.file.path)).toEqual(['content/blog-posts/existing.md'])
    expect(listed[0]!.data).toContain('title: An existing post')
  })

  it('refuses another origin, another host name and any path outside the collections', async () => {
    const read = { action: 'getEntry', params: { path: 'content/blog-posts/existing.md' } }
    expect((await call(read, { origin: 'https://evil.example' })).status).toBe(403)
    expect((await call(read, { 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await call(read, { 'content-type': 'text/plain' })).status).toBe(415)
    for (const path of [
      'content/site.yaml',
      'content/blog-posts/../../package.json',
      '../outside.md',
      'content/blog-posts/.hidden.md',
    ]) {
      const response = await call({ action: 'persistEntry', params: { dataFiles: [{ path, raw: 'x' }], assets: [] } })
      expect(response.status, path).toBe(422)
      expect(((await response.json()) as { error: string }).error).toContain('is not a content file')
    }
    expect((await call({ action: 'publishUnpublishedEntry', params: {} })).status).toBe(422)
  })

  it('renders a body for the preview pane with the build’s sanitiser', async () => {
    const response = await call(
      { markdown: 'Hi <script>alert(1)</script>\n\n![](https://x.example/a.png)' },
      {},
      PREVIEW_RENDER_PATH,
    )
    const answer = (await response.json()) as { html: string; problems: string[] }
    expect(answer.html).not.toContain('<script')
    expect(answer.problems).toEqual([expect.stringContaining('has no alt text')])
  })
})
