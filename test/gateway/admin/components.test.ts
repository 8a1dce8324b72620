/**
 * Components in the editor (issue 50), in Chromium: the body's editor offers
 * the built-in components and the site's own with their attribute forms
 * (build/emit/admin-components.ts, admin/components.js); an author inserts a
 * callout through its form, the preview pane shows it as the API renders it,
 * and the saved file holds the directive the build reads, which the API
 * serves as a component node.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkContent } from '../../../build/compiler/build.ts'
import type { BodyTree } from '../../../contract/body-tree.ts'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { connectChromium } from '../../helpers/chromium.ts'
import { openEditor } from '../../helpers/editor.ts'
import { createProject, SITE_YAML, validPost, type TempProject } from '../../helpers/project.ts'

const SLUG = 'a-post-with-a-callout'
const SITE = `${SITE_YAML}components:
  pricing-table:
    kind: leaf
    attributes:
      plan: { type: string, enum: [starter, team] }
    required: [plan]
`

describe('components in the editor', () => {
  let project: TempProject
  let dev: DevServer
  let browser: Browser

  beforeAll(async () => {
    project = await createProject({
      'content/site.yaml': SITE,
      'content/blog-posts/existing.md': validPost('An existing post'),
    })
    dev = await startDev({ root: project.root, port: 0, print: () => {} })
    browser = await connectChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await project?.remove()
  })

  it('declares the components with their forms; one inserted through its form is previewed as the API renders it and saved as a directive', async () => {
    const editor = await openEditor(browser, dev.url, 'An existing post')
    const { page } = editor
    // The page declares each block component with its attribute form.
    const declared = JSON.parse((await page.locator('#admin-components').textContent()) ?? '[]') as {
      name: string
      fields: { name: string; widget: string; options?: string[]; required: boolean }[]
    }[]
    expect(declared.map((c) => c.name)).toEqual(['callout', 'video', 'cta', 'quote', 'pricing-table'])
    expect(declared.find((c) => c.name === 'pricing-table')!.fields).toEqual([
      { name: 'plan', label: 'Plan', widget: 'select', options: ['starter', 'team'], required: true },
    ])

    await page.goto(`${dev.url}/admin/#/collections/blog-posts/new`)
    await page.getByLabel('Title', { exact: true }).fill('A post with a callout')
    await page.getByLabel('Published at', { exact: true }).fill('2026-03-14')
    await page.getByRole('button', { name: /Add authors/ }).click()
    await page.locator('input[id^="name-field"]').first().fill('Ada Author')
    await page.locator('[data-slate-editor="true"]').last().click()
    await page.keyboard.insertText('Before the callout.')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Add Component' }).click()
    // Every declared component is on offer, the site's own among them.
    for (const label of ['Callout', 'Video', 'CTA', 'Quote', 'Pricing table'])
      await expect.poll(() => page.getByRole('menuitem', { name: label, exact: true }).count()).toBeGreaterThan(0)
    await page.getByRole('menuitem', { name: 'Callout', exact: true }).click()
    await page.locator('input[id^="title-field"]').last().fill('Mind the gap')
    await page.locator('textarea[id^="component_content-field"]').last().fill('Back up first.')
    // The tone's form field is a choice of the schema's values.
    const tone = page.locator('input[id^="tone-field"]').last()
    await tone.focus()
    await page.keyboard.type('warning')
    await page.keyboard.press('Enter')

    // The preview pane: the build's renderer, the component's documented markup.
    const callout = page.frameLocator('iframe').first().locator('.body aside.component-callout')
    await callout.waitFor({ timeout: 15_000 })
    // The pane renders as the author types: it may show the default tone before the choice lands.
    await expect.poll(() => callout.getAttribute('data-tone'), { timeout: 15_000 }).toBe('warning')
    await expect
      .poll(() => callout.locator('.component-callout-title').textContent(), { timeout: 15_000 })
      .toBe('Mind the gap')

    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Publish now').click()
    await expect
      .poll(() => readdir(join(project.root, 'content/blog-posts')), { timeout: 15_000 })
      .toContain(`${SLUG}.md`)
    const saved = await readFile(join(project.root, `content/blog-posts/${SLUG}.md`), 'utf8')
    expect(saved).toContain(
      'Before the callout.\n\n:::callout{tone="warning" title="Mind the gap"}\nBack up first.\n:::\n',
    )
    await expect(checkContent(project.root)).resolves.toEqual({ files: 2, withheld: [] })
    await dev.settled()
    const record = (await (await fetch(`${dev.url}/api/blog-posts/${SLUG}`)).json()) as { body: { tree: BodyTree } }
    expect(record.body.tree.children.find((node) => node.type === 'component')).toMatchObject({
      name: 'callout',
      attributes: { tone: 'warning', title: 'Mind the gap' },
    })
    expect(editor.thirdParty(new URL(dev.url).origin)).toEqual([])
    expect(editor.pageErrors).toEqual([])
    await page.close()
  }, 120_000)
})
