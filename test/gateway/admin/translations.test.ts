/**
 * Translations in the editor at /admin/ of `npm run dev`, in Chromium, on a
 * site in English, German (falling back to English) and French: Decap's i18n
 * over the repository's layout (docs/authoring.md#translations). Each item is
 * listed once, its translations and an item in a folder of its own among
 * them; an author creates a German translation of an item through the form
 * ("Fill in from another locale", then translating), and the file saved is
 * the one a person would write beside the item (its `related` in German),
 * `npm run check` accepts it and the API serves it at ?locale=de, with no
 * file for the French nobody wrote; a new item is one file. An item in a folder is edited in place,
 * `related` offers a translation the items of its locale, the preview links a
 * translation's page, and an incomplete translation is refused, writing nothing.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../../build/compiler/build.ts'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { ARTIFACTS, connectChromium } from '../../helpers/chromium.ts'
import { type EditorPage, openEditor } from '../../helpers/editor.ts'
import { createProject, SITE_YAML, type TempProject } from '../../helpers/project.ts'

const BLOG = 'content/blog-posts'

/** A post as people write it: fields in the schema's order, a blank line before the body. */
const post = (title: string, { slug = '', related = '', body = 'First paragraph of the post.' } = {}) => `---
title: ${title}
${slug ? `slug: ${slug}\n` : ''}tags: [testing]
published_at: 2026-01-05
${related ? `related: [${related}]\n` : ''}authors:
  - name: Zoë Tester
---

${body}
`

describe('translations in the editor', () => {
  let project: TempProject
  let dev: DevServer
  let browser: Browser
  let editor: EditorPage
  let page: Page
  const read = (path: string) => readFile(join(project.root, path), 'utf8')
  /** Choose "Fill in from another locale" → `from` in the right pane (the second locale's) and accept Decap's question. */
  const fillInFrom = async (from: string) => {
    page.once('dialog', (dialog) => dialog.accept())
    await page.getByText('Fill in from another locale').last().click()
    await page.getByRole('menuitem', { name: from, exact: true }).click()
  }
  const save = async () => {
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
  }

  beforeAll(async () => {
    project = await createProject({
      'content/site.yaml': `${SITE_YAML}language: en\nlocales: [en, de, fr]\nlocale_fallback: [de]\n`,
      [`${BLOG}/existing.md`]: post('An existing post', { related: 'blog-posts/translated' }),
      [`${BLOG}/english-only.md`]: post('An English-only post'),
      [`${BLOG}/translated.md`]: post('A translated post'),
      [`${BLOG}/translated.de.md`]: post('Ein übersetzter Beitrag', { slug: 'ubersetzt' }),
      [`${BLOG}/in-a-folder/index.md`]: post('A post in a folder'),
      [`${BLOG}/in-a-folder/index.de.md`]: post('Ein Beitrag in einem Ordner'),
    })
    dev = await startDev({ root: project.root, port: 0, print: () => {} })
    browser = await connectChromium()
  })
  beforeEach(async () => {
    editor = await openEditor(browser, dev.url, 'An existing post')
    page = editor.page
  })
  afterEach(async () => {
    await page.close()
    expect(editor.thirdParty(new URL(dev.url).origin)).toEqual([])
    // A refused save (an incomplete translation) leaves no error uncaught either.
    expect(editor.pageErrors).toEqual([])
  })
  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await project?.remove()
  })

  it('lists each item once: its translations with it, an item in a folder of its own too', async () => {
    await page.getByText('A post in a folder').waitFor()
    const entries = await page
      .locator('a[href*="/collections/blog-posts/entries/"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    expect(entries.sort()).toEqual(
      ['english-only', 'existing', 'in-a-folder', 'translated'].map(
        (slug) => `#/collections/blog-posts/entries/${slug}`,
      ),
    )
    expect(await page.getByText('Ein übersetzter Beitrag').count()).toBe(0)
  })

  it('creates a German translation through the form: the file beside the item, checked, served at ?locale=de', async () => {
    const original = await read(`${BLOG}/existing.md`)
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/entries/existing`)
    await page.getByText('Writing in DE').waitFor({ timeout: 20_000 })
    await fillInFrom('en')
    const titles = page.getByLabel('Title', { exact: true })
    await expect.poll(() => titles.last().inputValue()).toBe('An existing post')
    await titles.last().fill('Ein bestehender Beitrag')
    const body = page.locator('[data-slate-editor="true"]').last()
    await body.click()
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.insertText('Der erste Absatz, auf Deutsch.')
    await titles.first().scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(ARTIFACTS, 'editor-translation.png') })
    await save()

    await expect.poll(() => readdir(join(project.root, BLOG)), { timeout: 15_000 }).toContain('existing.de.md')
    // As a translator writes it beside the item: its related item is the German one (npm run new -- --translate does the same).
    expect(await read(`${BLOG}/existing.de.md`)).toBe(
      post('Ein bestehender Beitrag', { related: 'blog-posts/ubersetzt', body: 'Der erste Absatz, auf Deutsch.' }),
    )
    expect(await read(`${BLOG}/existing.md`)).toBe(original)
    // Nobody wrote French: no file.
    expect((await readdir(join(project.root, BLOG))).filter((n) => n.endsWith('.fr.md'))).toEqual([])
    await expect(checkContent(project.root)).resolves.toEqual({ files: 7, withheld: [] })
    await dev.settled()
    const response = await fetch(`${dev.url}/api/blog-posts/existing?locale=de`)
    expect(response.headers.get('content-language')).toBe('de')
    expect(await response.json()).toMatchObject({
      slug: 'existing',
      locale: 'de',
      title: 'Ein bestehender Beitrag',
      related: [{ collection: 'blog-posts', slug: 'ubersetzt', title: 'Ein übersetzter Beitrag' }],
    })
    // The preview shows each locale's version of the slug they share, and lists the translation by its locale.
    const previewOf = async (path: string) => (await fetch(`${dev.url}${path}`)).text()
    expect(await previewOf('/preview/blog-posts/existing')).toContain('<h1>An existing post')
    expect(await previewOf('/preview/blog-posts/existing?locale=de')).toContain('<h1>Ein bestehender Beitrag')
    expect(await previewOf('/preview/')).toContain('href="/preview/blog-posts/existing?locale=de"')
    // A slug only a translation has needs no ?locale=.
    expect(await previewOf('/preview/blog-posts/ubersetzt')).toContain('<h1>Ein übersetzter Beitrag')
  })

  it('creates a new item in the default language alone: its form alone, one file, none for the other languages', async () => {
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByText('Writing in EN').waitFor({ timeout: 20_000 })
    // One form, in the default locale, beside the preview: no German form whose required fields look required.
    await page.frameLocator('iframe').first().locator('body').waitFor({ timeout: 10_000 })
    expect(await page.getByText('Writing in DE').count()).toBe(0)
    expect(await page.getByLabel('Title', { exact: true }).count()).toBe(1)
    expect(await page.getByLabel('Published at', { exact: true }).count()).toBe(1)
    await page.screenshot({ path: join(ARTIFACTS, 'editor-new-translated-site.png') })
    await page.getByLabel('Title', { exact: true }).first().fill('A new post in English')
    await page.getByLabel('Published at', { exact: true }).first().fill('2026-03-14')
    await page
      .getByRole('button', { name: /Add authors/ })
      .first()
      .click()
    await page.locator('input[id^="name-field"]').first().fill('Ada Author')
    await save()
    await expect
      .poll(() => read(`${BLOG}/a-new-post-in-english.md`).catch(() => ''), { timeout: 15_000 })
      .toBe('---\ntitle: A new post in English\npublished_at: 2026-03-14\nauthors:\n  - name: Ada Author\n---\n')
    expect((await readdir(join(project.root, BLOG))).filter((n) => n.startsWith('a-new-post'))).toEqual([
      'a-new-post-in-english.md',
    ])
  })

  it('edits an item in a folder of its own in place, and links the preview of the translation shown', async () => {
    const english = await read(`${BLOG}/in-a-folder/index.md`)
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/entries/in-a-folder`)
    await page.getByText('Writing in DE').waitFor({ timeout: 20_000 })
    await page.getByLabel('Title', { exact: true }).last().fill('Ein Beitrag in seinem Ordner')
    await save()
    await expect
      .poll(() => read(`${BLOG}/in-a-folder/index.de.md`), { timeout: 15_000 })
      .toBe(post('Ein Beitrag in seinem Ordner'))
    expect(await read(`${BLOG}/in-a-folder/index.md`)).toBe(english)
    expect((await readdir(join(project.root, BLOG))).filter((n) => n.startsWith('in-a-folder'))).toEqual([
      'in-a-folder',
    ])

    // The preview pane shows the left pane's locale: switched to German, its link opens the German page.
    await page.getByText('Writing in EN').click()
    await page.getByRole('menuitem', { name: 'de', exact: true }).click()
    await page.getByTitle('Toggle preview').click()
    const link = page
      .frameLocator('iframe')
      .first()
      .getByRole('link', { name: 'Open the saved version in the preview' })
    await expect
      .poll(() => link.getAttribute('href'), { timeout: 10_000 })
      .toBe('/preview/blog-posts/in-a-folder?locale=de')
    await dev.settled()
    const preview = await (await fetch(`${dev.url}/preview/blog-posts/in-a-folder?locale=de`)).text()
    expect(preview).toContain('<h1>Ein Beitrag in seinem Ordner')
  })

  it('offers a translation the items of its locale as related items', async () => {
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/entries/translated`)
    await page.getByText('Writing in DE').waitFor({ timeout: 20_000 })
    const options = async (pane: number) => {
      await page.locator('[id^="related-field"]').nth(pane).click()
      // react-select's menu (the offsets of the date fields are options too, of <select>s).
      const shown = await page.locator('[id^="react-select-"][id*="-option-"]').allTextContents()
      await page.keyboard.press('Escape')
      return shown.sort()
    }
    expect(await options(0)).toEqual([
      'Blog post: A new post in English',
      'Blog post: A post in a folder',
      'Blog post: A translated post',
      'Blog post: An English-only post',
      'Blog post: An existing post',
    ])
    // German: the German translations (those the tests above saved among them), and the English items German falls back to.
    expect(await options(1)).toEqual([
      'Blog post: A new post in English (en)',
      'Blog post: An English-only post (en)',
      'Blog post: Ein Beitrag in seinem Ordner',
      'Blog post: Ein bestehender Beitrag',
      'Blog post: Ein übersetzter Beitrag',
    ])
  })

  it('refuses an incomplete translation with the form’s messages, writing nothing', async () => {
    const before = await readdir(join(project.root, BLOG))
    await page.goto(`${dev.url}/admin/#/collections/blog-posts/entries/translated`)
    await page.getByText('Writing in DE').waitFor({ timeout: 20_000 })
    // French in the left pane (the right one shows German).
    await page.getByText('Writing in EN').click()
    await page.getByRole('menuitem', { name: 'fr', exact: true }).click()
    await page.getByLabel('Summary').first().fill('Un résumé, et rien d’autre.')
    await save()
    await page
      .getByText('The FR version is not complete (Title: is required; Published at: is required; Authors: is required)')
      .waitFor({ timeout: 10_000 })
    expect(await readdir(join(project.root, BLOG))).toEqual(before)
  })
})
