/**
 * /docs/ in a real browser (Debian chromium via playwright-core): it renders
 * every endpoint path and webhook of the OpenAPI document and the webhooks'
 * verification example, logs no errors and asks no
 * other host for anything. A screenshot goes to test-artifacts/ (git-ignored).
 */
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { connectChromium } from '../../helpers/chromium.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SANDBOX_KEY } from '../../../contract/sandbox.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture, REPO_ROOT } from '../../helpers/project.ts'

const ctx = useBuiltGateway(copyOfBuiltFixture)
let browser: Browser

beforeAll(async () => {
  browser = await connectChromium()
})
afterAll(() => browser?.close())

describe('/docs/ in headless Chromium', () => {
  it('shows every endpoint, the quick start and the sandbox key, with no console error and no other host', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    const problems: string[] = []
    const requests: string[] = []
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('request', (request) => requests.push(request.url()))
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`))
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`)
    })

    const response = await page.goto(`${ctx.gateway.url}/docs/`, { waitUntil: 'load' })
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toMatch(/default-src 'none'/)
    const doc = JSON.parse(await readFile(join(ctx.project.dist, 'openapi.json'), 'utf8')) as {
      paths: Record<string, unknown>
    }
    const paths = Object.keys(doc.paths)
    // Redoc renders after load; the last operation's path appearing means it is done.
    await page.waitForFunction((last) => document.body.innerText.includes(last), paths.at(-1)!, { timeout: 20_000 })
    const text = await page.evaluate(() => document.body.innerText)
    for (const path of paths) expect(text, `path ${path} on the page`).toContain(path)
    expect(text).toContain('Quick start')
    expect(text).toContain(SANDBOX_KEY)
    expect(text).toContain('llms-full.txt')
    // The webhooks: the guide with its verification example, and each event Redoc lists under Webhooks.
    expect(text).toContain("import { Webhook } from 'standardwebhooks'")
    expect(text).toContain('const event = webhook.verify(rawBody, request.headers)')
    const webhooks = Object.keys((doc as { webhooks?: Record<string, unknown> }).webhooks ?? {})
    expect(webhooks).toEqual(['content.published', 'content.updated', 'content.removed'])
    for (const type of webhooks)
      expect(text, `webhook ${type} on the page`).toMatch(new RegExp(`^${type} Webhook$`, 'm'))

    await mkdir(join(REPO_ROOT, 'test-artifacts'), { recursive: true })
    await page.screenshot({ path: join(REPO_ROOT, 'test-artifacts', 'docs.png') })

    const origin = new URL(ctx.gateway.url).origin
    const foreign = requests.filter(
      (url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'),
    )
    expect(foreign).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  })
})
