/**
 * The editor's "Share preview link" button (issue 52), in Chromium: on a
 * saved item's edit view, without a preview key it says what it needs in one
 * sentence; with a `preview.read` key it asks the gateway for a share link
 * and shows it with its expiry, and the link opens the item's review page in
 * a browser without any credential.
 *
 * The gateway is the `npm start` one over a built project (its preview
 * beside dist/, which `npm run dev` does not write), with the dev server's
 * local backend mounted so the editor opens without a GitHub account.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NO_KEY } from '../../../build/emit/admin/share-link.js'
import { editorPlugin } from '../../../gateway/preview/editor-routes.ts'
import { connectChromium } from '../../helpers/chromium.ts'
import { openEditor } from '../../helpers/editor.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { FIXTURE_MODEL } from '../../helpers/site.ts'
import { DRAFT, writePreviewPosts } from '../preview/preview-posts.ts'

let project: TempProject
let gateway: TestGateway
let browser: Browser

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await writePreviewPosts(project)
  gateway = await startGateway(project.dist, {
    filesDir: project.root,
    keys: { reviewer: 'preview.read', sandbox: 'sandbox.read' },
    platform: { routes: [editorPlugin(project.root, () => FIXTURE_MODEL.names)] },
  })
  browser = await connectChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await gateway?.close()
  await project?.remove()
})

describe('Share preview link in the editor', () => {
  it('says it needs a key, refuses a sandbox key, and with a preview key shows a link that opens the draft', async () => {
    const editor = await openEditor(browser, gateway.url, 'Customer stories')
    const { page } = editor
    await page.goto(`${gateway.url}/admin/#/collections/blog-posts/entries/${DRAFT.slug}`)
    const pane = page.frameLocator('iframe').first()
    const share = pane.getByRole('button', { name: 'Share preview link' })
    await share.waitFor({ timeout: 20_000 })

    await share.click()
    await expect.poll(() => pane.getByRole('alert').textContent()).toBe(NO_KEY)

    const key = pane.getByLabel('Preview key')
    await key.fill(gateway.keys.sandbox!)
    await share.click()
    await expect
      .poll(() => pane.getByRole('alert').textContent())
      .toMatch(/^This key cannot make share links: .*content\.preview\.read/)

    await key.fill(gateway.keys.reviewer!)
    await pane.getByLabel('Expires in').selectOption('7d')
    await share.click()
    const field = pane.getByLabel('Share link')
    await field.waitFor({ timeout: 15_000 })
    const link = await field.inputValue()
    expect(link).toMatch(new RegExp(`^${gateway.url}/review/pvl_[0-9a-f]{12}_[0-9A-Za-z]{32}$`))
    const expiry = await pane.locator('.share-link time').getAttribute('datetime')
    expect(Math.round((Date.parse(expiry!) - Date.now()) / 86_400_000)).toBe(7)

    // The link, in a browser with no credential of any kind.
    const reviewer = await browser.newContext()
    try {
      const review = await reviewer.newPage()
      const response = await review.goto(link)
      expect(response!.status()).toBe(200)
      const text = await review.locator('main').innerText()
      expect(text).toContain(DRAFT.title)
      expect(text).toContain(DRAFT.phrase)
      expect(text).toMatch(/draft: not published/)
    } finally {
      await reviewer.close()
    }
    expect(editor.thirdParty(gateway.url)).toEqual([])
    expect(editor.pageErrors).toEqual([])
    await page.close()
  }, 120_000)
})
