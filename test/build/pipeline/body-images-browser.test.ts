/**
 * A body image in Chromium: the item's HTML as the API publishes it, on a
 * page of the marketing site, loads the image from its srcset (AVIF at the
 * width `sizes` asks for), fetched from the gateway under the absolute
 * api_url of site.yaml.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Browser } from 'playwright-core'
import { connectChromium } from '../../helpers/chromium.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import type { FullRecord } from '../../../contract/records.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { photo } from '../../helpers/images.ts'
import { createProject, SITE_YAML, type TempProject } from '../../helpers/project.ts'

const API = 'https://api.fixture.example'
const SITE = 'https://www.fixture.example'

describe('a body image in the browser', () => {
  let project: TempProject
  let gateway: TestGateway
  let browser: Browser

  beforeAll(async () => {
    project = await createProject({
      'content/site.yaml': SITE_YAML.replace(`url: ${SITE}`, `url: ${SITE}\napi_url: ${API}`),
      'content/blog-posts/pictured.md': `---
title: Pictured
published_at: 2026-01-05
authors:
  - name: Ada
---
Intro.

![A wide gradient](wide.jpg)
`,
    })
    await mkdir(dirname(join(project.root, 'content/blog-posts/wide.jpg')), { recursive: true })
    await writeFile(join(project.root, 'content/blog-posts/wide.jpg'), await photo(2000, 1000))
    await buildSite({ root: project.root, cache: false })
    gateway = await startGateway(project.dist)
    browser = await connectChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await gateway?.close()
    await project?.remove()
  })

  it('loads it from its srcset at the width sizes asks for', async () => {
    const record = (await (await fetch(`${gateway.url}/api/blog-posts/pictured`)).json()) as FullRecord
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })
    const requested: string[] = []
    // The marketing site's page is the body's HTML; the API's host is this gateway.
    await page.route(`${SITE}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><main>${record.body.html}</main>` }),
    )
    await page.route(`${API}/**`, async (route) => {
      requested.push(route.request().url())
      const response = await route.fetch({ url: route.request().url().replace(API, gateway.url) })
      await route.fulfill({ response })
    })
    await page.goto(`${SITE}/blog/pictured`)
    const img = page.locator('main img')
    await img.scrollIntoViewIfNeeded()
    await page.waitForFunction(() => {
      const element = document.querySelector('main img') as HTMLImageElement
      return element.complete && element.naturalWidth > 0
    })
    const loaded = await img.evaluate((element: HTMLImageElement) => ({
      currentSrc: element.currentSrc,
      naturalWidth: element.naturalWidth,
      width: element.getAttribute('width'),
      height: element.getAttribute('height'),
    }))
    // An 800-pixel slot at 1x: the 960 step of the ladder, in the first format the browser takes.
    expect(loaded.currentSrc).toMatch(new RegExp(`^${API}/media/blog-posts/wide-[0-9a-f]{12}-960\\.avif$`))
    // Density-corrected: the 960-pixel file shown in the 800-pixel slot.
    expect(loaded.naturalWidth).toBe(800)
    expect([loaded.width, loaded.height]).toEqual(['1600', '800'])
    expect(requested).toContain(loaded.currentSrc)
    expect(record.body.html).toContain(`${loaded.currentSrc} 960w`)
    await page.close()
  })
})
