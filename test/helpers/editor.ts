/**
 * The editor at /admin/ of a dev server, in the run's Chromium
 * (helpers/chromium.ts): a page signed in to the local backend, which records
 * every request it and its frames made (and any the page's CSP refused), so a
 * test can check the editor asked no host but the dev server, and every error
 * the page left uncaught.
 */
import type { Browser, Page } from 'playwright-core'

export interface EditorPage {
  page: Page
  /** Every request the page and its frames made, or were refused by the CSP. */
  requests: string[]
  /** The answer to each request, by URL. */
  answers: Map<string, { status: number; type: string | undefined }>
  /** The errors the page left uncaught (thrown, or a rejection nothing handled). */
  pageErrors: string[]
  /** The requests to any host but `origin`'s (data: and blob: URLs aside). */
  thirdParty(origin: string): string[]
}

/**
 * A new page with the editor open at `devUrl`, signed in (the local backend
 * needs no account: Decap's Login goes straight in), once `shown` is on the page.
 */
export async function openEditor(browser: Browser, devUrl: string, shown: string): Promise<EditorPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
  const requests: string[] = []
  const answers = new Map<string, { status: number; type: string | undefined }>()
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.stack ?? String(error.message)))
  page.context().on('request', (request) => requests.push(request.url()))
  // A request the page's CSP refused never starts: Chromium says so on the console instead.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text())) requests.push(message.text())
  })
  page
    .context()
    .on('response', (response) =>
      answers.set(response.url(), { status: response.status(), type: response.headers()['content-type'] }),
    )
  await page.goto(`${devUrl}/admin/`)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.getByText(shown).first().waitFor({ timeout: 20_000 })
  return {
    page,
    requests,
    answers,
    pageErrors,
    thirdParty: (origin) => requests.filter((url) => !/^(data|blob):/.test(url) && !url.startsWith(`${origin}/`)),
  }
}
