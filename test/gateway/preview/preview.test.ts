/**
 * The author's preview in `npm run dev`, in Chromium: /preview/ lists every
 * item (drafts marked); an item's page shows it as the API publishes it and
 * reloads itself after a save; an invalid save shows the error as
 * file:line:col field: message instead of a stale page. `npm start` has no
 * preview, and dist/ holds none.
 */
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { connectChromium } from '../../helpers/chromium.ts'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { startGateway } from '../../helpers/gateway.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'

const POST = 'content/blog-posts/previewed.md'
const post = (title: string, extra = '') => `---
title: ${title}
published_at: 2026-02-01
tags: [preview]
authors:
  - name: Ada Author
${extra}---
An opening paragraph with a [link](https://www.fixture.example/docs).

![A chart of saves](https://cdn.fixture.example/chart.png)

| column | value |
|---|---|
| saves | 3 |
`

describe('preview in npm run dev', () => {
  let project: TempProject
  let dev: DevServer
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    project = await createProject({
      [POST]: post('Previewed post'),
      'content/blog-posts/work-in-progress.md': validPost('Work in progress', 'draft: true\n'),
    })
    dev = await startDev({ root: project.root, port: 0, print: () => {} })
    browser = await connectChromium()
  })
  // Each test has its own page and starts from the same content, so none depends on another.
  beforeEach(async () => {
    page = await browser.newPage()
    // The image's host does not exist here; nothing else may fail.
    await page.route('https://cdn.fixture.example/**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
      }),
    )
  })
  afterEach(async () => {
    await page.close()
    await writeFile(join(project.root, POST), post('Previewed post'))
    await dev.settled()
  })
  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await project?.remove()
  })

  it('lists every item, drafts included and marked', async () => {
    await page.goto(`${dev.url}/preview/`)
    await expect(page.getByRole('link', { name: 'Previewed post' }).count()).resolves.toBe(1)
    const draft = page.locator('li', { has: page.getByRole('link', { name: 'Work in progress' }) })
    await expect(draft.locator('.draft').textContent()).resolves.toBe('draft')
  })

  it('shows an item as the API publishes it: title, metadata, body HTML with its image and table', async () => {
    await page.goto(`${dev.url}/preview/`)
    await page.getByRole('link', { name: 'Previewed post' }).click()
    await page.waitForURL(`${dev.url}/preview/blog-posts/previewed`)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Previewed post')
    const api = (await (await fetch(`${dev.url}/api/blog-posts/previewed`)).json()) as { body: { html: string } }
    expect((await page.locator('.body').innerHTML()).trim()).toBe(api.body.html)
    expect(await page.getByRole('img', { name: 'A chart of saves' }).count()).toBe(1)
    expect(await page.locator('.body table td').allTextContents()).toEqual(['saves', '3'])
    expect(await page.locator('dl.meta').textContent()).toContain('content/blog-posts/previewed.md')
  })

  it('reloads itself after a save', async () => {
    await page.goto(`${dev.url}/preview/blog-posts/previewed`)
    await writeFile(join(project.root, POST), post('Previewed post, saved again'))
    await page.getByRole('heading', { level: 1, name: 'Previewed post, saved again' }).waitFor({ timeout: 10_000 })
  })

  it('shows an invalid save as file:line:col field: message, and the item again once fixed', async () => {
    await page.goto(`${dev.url}/preview/blog-posts/previewed`)
    await writeFile(
      join(project.root, POST),
      post('Previewed post, saved again').replace('published_at: 2026-02-01', 'published_at: soon'),
    )
    const alert = page.getByRole('alert')
    await alert.waitFor({ timeout: 10_000 })
    expect(await alert.textContent()).toContain('content/blog-posts/previewed.md:3:15 published_at: must be a date')
    expect(await page.locator('.body').count()).toBe(0)
    await writeFile(join(project.root, POST), post('Previewed post, fixed'))
    await page.getByRole('heading', { level: 1, name: 'Previewed post, fixed' }).waitFor({ timeout: 10_000 })
    expect(await page.getByRole('alert').count()).toBe(0)
  })

  it('exists only in dev: not in dist/, not in npm start', async () => {
    await dev.settled()
    expect((await readdir(project.dist, { recursive: true })).filter((f) => String(f).startsWith('preview'))).toEqual(
      [],
    )
    const served = await startGateway(project.dist)
    try {
      const response = await fetch(`${served.url}/preview/`)
      expect(response.status).toBe(404)
    } finally {
      await served.close()
    }
  })
})
