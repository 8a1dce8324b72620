/**
 * The one Chromium of a test run: Debian's (playwright-core, never a
 * downloaded browser), started once by test/global-setup.ts as a browser
 * server; each test file connects to it and opens its own pages, each page in
 * a context of its own (cookies, storage and routes are never shared). A
 * browser per file cost every file that uses one the browser's start-up.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserServer } from 'playwright-core'
import { inject } from 'vitest'
import { REPO_ROOT } from './project.ts'

/** The name under which test/global-setup.ts provides the browser server's WebSocket endpoint. */
export const CHROMIUM_KEY = 'chromiumEndpoint'

/** Where the Chromium tests write their screenshots (docs/images/editor-*.png are copied from here). */
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts')

/** For test/global-setup.ts: the browser server every test file connects to. */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

/**
 * A connection to the run's Chromium. Its `close()` closes the contexts this
 * file opened and disconnects; the browser goes on serving the other files.
 */
export async function connectChromium(): Promise<Browser> {
  await mkdir(ARTIFACTS, { recursive: true })
  return chromium.connect(inject(CHROMIUM_KEY))
}
