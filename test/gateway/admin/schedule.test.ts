/**
 * Dates and times in the editor at /admin/ of `npm run dev`, in Chromium
 * (docs/authoring.md#scheduling-embargoes-and-expiry): an item published at
 * a time with its offset (as the repository's content has them) shows that
 * time and offset, saving it after editing another field leaves every date
 * line as it was, and moving it by a day keeps its time; an author schedules
 * a new post for a time with its offset, with an expiry, and the file says
 * so as a person would write it, `npm run check` withholds it until then and
 * the API does not serve it yet.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../../build/compiler/build.ts'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { ARTIFACTS, connectChromium } from '../../helpers/chromium.ts'
import { type EditorPage, openEditor } from '../../helpers/editor.ts'
import { createProject, type TempProject } from '../../helpers/project.ts'

const BLOG = 'content/blog-posts'
/** A post with the dates of content/blog-posts/bigquery-support-ga.md: a time at +00:00, an expiry in Z, an update on a date. */
const TIMED = `---
title: BigQuery support is generally available
summary: Monitor, Lineage and Contracts now support BigQuery.
tags: [product-update, bigquery]
published_at: 2026-07-21T16:00:00+00:00
updated_at: 2026-07-30
expires_at: 2030-12-31T23:59:30Z
authors:
  - name: Priya Raghunathan
---

BigQuery support is generally available.
`

describe('dates and times in the editor', () => {
  let project: TempProject
  let dev: DevServer
  let browser: Browser
  let editor: EditorPage
  let page: Page
  const read = (path: string) => readFile(join(project.root, path), 'utf8')
  const save = async () => {
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
  }
  /** The date, time and offset inputs of a date field, by its label as the form shows it. */
  const dateField = (label: string) => ({
    date: page.getByLabel(label, { exact: true }),
    time: page.getByLabel(new RegExp(`^${label.replace(/ \(optional\)$/, '')}: time`)),
    offset: page.getByLabel(`${label.replace(/ \(optional\)$/, '')}: UTC offset`),
  })

  beforeAll(async () => {
    project = await createProject({ [`${BLOG}/bigquery-support-ga.md`]: TIMED })
    dev = await startDev({ root: project.root, port: 0, print: () => {} })
    browser = await connectChromium()
  })
  beforeEach(async () => {
    editor = await openEditor(browser, dev.url, 'BigQuery support is generally available')
    page = editor.page
  })
  afterEach(async () => {
    await page.close()
    expect(editor.thirdParty(new URL(dev.url).origin)).toEqual([])
  })
  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await project?.remove()
  })

  it('shows a time as written, keeps every date line when another field is saved, and keeps the time when the day moves', async () => {
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/entries/bigquery-support-ga`)
    const published = dateField('Published at')
    await published.date.waitFor({ timeout: 20_000 })
    // In its own offset, not converted to the computer's time zone.
    expect([
      await published.date.inputValue(),
      await published.time.inputValue(),
      await published.offset.inputValue(),
    ]).toEqual(['2026-07-21', '16:00', '+00:00'])
    const expires = dateField('Expires at (optional)')
    expect([
      await expires.date.inputValue(),
      await expires.time.inputValue(),
      await expires.offset.inputValue(),
    ]).toEqual(['2030-12-31', '23:59', 'Z'])
    await page.getByLabel('Summary').fill('Monitor, Lineage and Contracts now fully support BigQuery.')
    await save()
    const edited = TIMED.replace('now support BigQuery.', 'now fully support BigQuery.')
    await expect.poll(() => read(`${BLOG}/bigquery-support-ga.md`), { timeout: 15_000 }).toBe(edited)

    await published.date.fill('2026-07-22')
    await save()
    await expect
      .poll(() => read(`${BLOG}/bigquery-support-ga.md`), { timeout: 15_000 })
      .toBe(edited.replace('published_at: 2026-07-21T16:00:00+00:00', 'published_at: 2026-07-22T16:00:00+00:00'))
  })

  it('schedules a new post for a time with its offset, and its expiry: withheld until then', async () => {
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByLabel('Title', { exact: true }).fill('Introducing Tidewater Monitor 5')
    const published = dateField('Published at')
    await published.date.fill('2029-03-04')
    await published.time.fill('09:00')
    await published.offset.selectOption('+01:00')
    const expires = dateField('Expires at (optional)')
    await expires.date.fill('2029-06-30')
    await expires.time.fill('18:00')
    await expires.offset.selectOption('+02:00')
    await page.getByRole('button', { name: /Add authors/ }).click()
    await page.locator('input[id^="name-field"]').first().fill('Zoë Brønsted')
    await page.locator('[data-slate-editor="true"]').last().click()
    await page.keyboard.insertText('Monitor 5 is here.')
    await published.date.scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(ARTIFACTS, 'editor-schedule.png') })
    await save()

    const name = 'introducing-tidewater-monitor-5.md'
    await expect.poll(() => readdir(join(project.root, BLOG)), { timeout: 15_000 }).toContain(name)
    expect(await read(`${BLOG}/${name}`)).toBe(`---
title: Introducing Tidewater Monitor 5
published_at: 2029-03-04T09:00:00+01:00
expires_at: 2029-06-30T18:00:00+02:00
authors:
  - name: Zoë Brønsted
---

Monitor 5 is here.
`)
    await expect(checkContent(project.root)).resolves.toEqual({
      files: 2,
      withheld: [{ path: `${BLOG}/${name}`, state: 'scheduled', at: '2029-03-04T08:00:00Z' }],
    })
    await dev.settled()
    expect((await fetch(`${dev.url}/api/blog-posts/introducing-tidewater-monitor-5`)).status).toBe(404)
  })
})
