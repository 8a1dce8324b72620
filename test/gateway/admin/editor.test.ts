/**
 * The editor at /admin/ in `npm run dev`, in Chromium: Decap CMS, configured
 * from the schemas, finds the dev server's local backend, an author creates a
 * blog post through the form (title, date, tags, an author, a body) and saves;
 * the file in content/ is the one a person would write, `npm run check`
 * accepts it and the API serves it. A required field left empty is refused
 * with the message `npm run check` gives. The local backend answers only this
 * server's own pages on loopback, and only for content files.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../../build/compiler/build.ts'
import { ADMIN_LOCAL_BACKEND_PATH, PREVIEW_RENDER_PATH } from '../../../contract/public-paths.ts'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'

const ARTIFACTS = join(REPO_ROOT, 'test-artifacts')
const SLUG = 'editing-without-git-a-first-post'

describe('the editor in npm run dev', () => {
  let project: TempProject
  let dev: DevServer
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/existing.md': validPost('An existing post') })
    dev = await startDev({ root: project.root, port: 0, print: () => {} })
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
    })
    await mkdir(ARTIFACTS, { recursive: true })
  })
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
    await page.goto(`${dev.url}/admin/`)
    // The local backend needs no sign-in: Decap shows its button, which goes straight in.
    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByText('An existing post').waitFor({ timeout: 20_000 })
  })
  afterEach(() => page.close())
  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await project?.remove()
  })

  it('creates a blog post through the form: a hand-written file that npm run check accepts and the API serves', async () => {
    await page.screenshot({ path: join(ARTIFACTS, 'editor-collection.png') })
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByLabel('Title', { exact: true }).fill('Editing without git: a first post')
    for (const [i, tag] of ['product-update', 'best-practices'].entries()) {
      await page.getByRole('button', { name: /Add tags/ }).click()
      await page.locator('input[id^="tag-field"]').nth(i).fill(tag)
    }
    await page.getByLabel('Published at').fill('2026-03-14')
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
    await expect(checkContent(project.root)).resolves.toEqual({ files: 2 })
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

  it('refuses to save with a required field left empty, with the message of npm run check', async () => {
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByLabel('Published at').fill('2026-03-15')
    await page.getByRole('button', { name: /Add authors/ }).click()
    await page.locator('input[id^="name-field"]').first().fill('Ada Author')
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
    // `npm run check` says `title: is required` for the same file; the form names the field by its label.
    await page.getByText('Title: is required').waitFor({ timeout: 10_000 })
    await page.getByLabel('Title', { exact: true }).scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(ARTIFACTS, 'editor-required.png') })
    expect((await readdir(join(project.root, 'content/blog-posts'))).filter((n) => n !== `${SLUG}.md`)).toEqual([
      'existing.md',
    ])
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
