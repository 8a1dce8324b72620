/**
 * Share links (issue 52): `npm run keys -- preview-link` makes a link that
 * opens in Chromium without any credential and shows the draft as the API
 * renders it, with its state and its translations; it opens no other item;
 * revoked or expired it is a 410 page saying which, at once, on every
 * gateway sharing the state store (files here, a real Redis below); opening
 * is rate-limited; only the token's hash is stored.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { runCommand } from '../../helpers/commands.ts'
import { connectChromium } from '../../helpers/chromium.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfLocaleFixture, type TempProject } from '../../helpers/project.ts'
import { HAVE_REDIS, startRedis, type RedisServer } from '../../helpers/redis-server.ts'
import { DRAFT, RELEASE, SCHEDULED, writePreviewPosts } from './preview-posts.ts'

const GERMAN = {
  slug: 'quokka-sperrfrist-entwurf',
  title: 'Quokka Sperrfrist Entwurf',
  phrase: 'Mandarinen Leuchtturm',
}

let project: TempProject
let gateway: TestGateway
let browser: Browser

beforeAll(async () => {
  project = await copyOfLocaleFixture()
  await project.write(
    `content/blog-posts/${DRAFT.slug}.de.md`,
    `---\ntitle: ${GERMAN.title}\nslug: ${GERMAN.slug}\nsummary: Unter Sperrfrist.\npublished_at: 2027-11-02\ntags: [product-update]\nauthors:\n  - name: Zoë Brønsted\n---\n\nNur für Prüfer: ${GERMAN.phrase}.\n`,
  )
  await writePreviewPosts(project)
  gateway = await startGateway(project.dist, { filesDir: project.root })
  browser = await connectChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await gateway?.close()
  await project?.remove()
})

/** `npm run keys` in process, against `env`'s store (the test gateway's files by default), as of `now`. */
async function keys(args: string[], options: { now?: Date; env?: Record<string, string> } = {}) {
  const out: string[] = []
  const err: string[] = []
  const code = await runKeysCli(args, {
    env: options.env ?? { STATE_STORE: 'files', OAUTH_STORE_DIR: gateway.stateDir, PUBLIC_URL: gateway.url },
    cwd: project.root,
    now: () => options.now ?? new Date(),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

async function makeLink(item: string, expires = '72h', now?: Date): Promise<string> {
  const made = await keys(['preview-link', item, '--expires', expires, '--root', project.root], { now })
  expect(made.code, made.err).toBe(0)
  return made.out.trim()
}

describe('a share link', () => {
  let link: string

  it('is made by npm run keys -- preview-link, printed once; only its hash is stored', async () => {
    const made = await runCommand(
      'keys',
      ['preview-link', `blog-posts/${DRAFT.slug}`, '--expires', '72h', '--root', project.root],
      {
        STATE_STORE: 'files',
        OAUTH_STORE_DIR: gateway.stateDir,
        PUBLIC_URL: gateway.url,
      },
    )
    expect(made.code, made.stderr).toBe(0)
    expect(made.stderr).toMatch(
      /created pvl_[0-9a-f]{12} for blog-posts\/quokka-embargo-draft \(draft; expires in 3 days/,
    )
    link = made.stdout.trim()
    expect(link).toMatch(new RegExp(`^${gateway.url}/review/pvl_[0-9a-f]{12}_[0-9A-Za-z]{32}$`))
    const token = link.split('/').at(-1)!
    const stored = await Promise.all(
      (await readdir(join(gateway.stateDir), { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => readFile(join(e.parentPath, e.name), 'utf8')),
    )
    expect(stored.some((text) => text.includes(token.slice(0, 16)))).toBe(true)
    expect(stored.some((text) => text.includes(token.slice(17)))).toBe(false)
  })

  it('opens in Chromium without credentials, showing the draft, its state and its translations', async () => {
    const page = await browser.newPage()
    try {
      const response = await page.goto(link)
      expect(response!.status()).toBe(200)
      const headers = response!.headers()
      expect(headers['x-robots-tag']).toMatch(/noindex/)
      expect(headers['referrer-policy']).toBe('no-referrer')
      expect(headers['cache-control']).toBe('private, no-store')
      const text = await page.locator('main').innerText()
      expect(text).toContain(DRAFT.title)
      expect(text).toContain(DRAFT.phrase)
      expect(text).toMatch(/draft: not published/)
      // The same link opens the item's translation.
      await page.getByRole('link', { name: 'de' }).click()
      await page.waitForURL(/\?locale=de$/)
      expect(await page.locator('main').innerText()).toContain(GERMAN.phrase)
    } finally {
      await page.close()
    }
  })

  it("shows a scheduled item's release time, and opens no other item", async () => {
    const scheduled = await makeLink(`blog-posts/${SCHEDULED.slug}`)
    const page = await (await fetch(scheduled)).text()
    expect(page).toContain(SCHEDULED.phrase)
    expect(page).toContain(`scheduled: publishes <time datetime="${RELEASE}">${RELEASE}</time>`)
    expect(page).not.toContain(DRAFT.phrase)
    const draftPage = await (await fetch(`${link}?locale=en`)).text()
    expect(draftPage).not.toContain(SCHEDULED.phrase)
    // One link's id with another's secret, or a changed character, opens nothing.
    const [draftId, scheduledSecret] = [link.split('/').at(-1)!.slice(0, 16), scheduled.split('/').at(-1)!.slice(17)]
    for (const forged of [`${draftId}_${scheduledSecret}`, `${link.slice(0, -1)}${link.endsWith('a') ? 'b' : 'a'}`]) {
      const res = await fetch(forged.startsWith('http') ? forged : `${gateway.url}/review/${forged}`)
      expect(res.status).toBe(404)
      expect(await res.text()).not.toMatch(/tangerine|cobalt/)
    }
  })

  it('is a 410 page at once once revoked, by its link or its id, never a stack trace', async () => {
    const other = await makeLink(`blog-posts/${DRAFT.slug}`)
    expect((await fetch(other)).status).toBe(200)
    expect((await keys(['preview-link', 'revoke', link])).code).toBe(0)
    const id = other.split('/').at(-1)!.slice(0, 16)
    expect((await keys(['preview-link', 'revoke', id])).code).toBe(0)
    const page = await browser.newPage()
    try {
      for (const url of [link, other]) {
        const response = await page.goto(url)
        expect(response!.status()).toBe(410)
        const text = await page.locator('main').innerText()
        expect(text).toMatch(/This review link was revoked/)
        expect(text).not.toContain(DRAFT.phrase)
      }
    } finally {
      await page.close()
    }
    const listed = await keys(['preview-link', 'list'])
    expect(listed.out).toMatch(new RegExp(`${id}\\tblog-posts/${DRAFT.slug}\\trevoked `))
  })

  it('is a 410 page once expired', async () => {
    const past = new Date(Date.now() - 3 * 3600_000)
    const expired = await makeLink(`blog-posts/${DRAFT.slug}`, '1h', past)
    const res = await fetch(expired)
    expect(res.status).toBe(410)
    const text = await res.text()
    expect(text).toMatch(/This review link expired/)
    expect(text).not.toContain(DRAFT.phrase)
  })

  it('names only items of the build, and needs an expiry', async () => {
    const unknown = await keys(['preview-link', 'blog-posts/no-such-post', '--expires', '72h', '--root', project.root])
    expect(unknown.code).not.toBe(0)
    expect(unknown.err).toMatch(/no item blog-posts\/no-such-post/)
    const endless = await keys(['preview-link', `blog-posts/${DRAFT.slug}`, '--root', project.root])
    expect(endless.err).toMatch(/--expires is needed/)
  })

  it('is rate-limited when opened', async () => {
    const limited = await startGateway(project.dist, {
      filesDir: join(project.root, 'limited'),
      stateDir: gateway.stateDir,
      env: { COMPUTED_RATE_LIMIT_PER_MINUTE: '3' },
    })
    try {
      const url = (await makeLink(`blog-posts/${DRAFT.slug}`)).replace(gateway.url, limited.url)
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) statuses.push((await fetch(url)).status)
      expect(statuses).toEqual([200, 200, 200, 429, 429])
    } finally {
      await limited.close()
    }
  })
})

describe.skipIf(!HAVE_REDIS)('share links in Redis', () => {
  let redis: RedisServer
  let first: TestGateway
  let second: TestGateway
  let env: Record<string, string>

  beforeAll(async () => {
    redis = await startRedis()
    env = { STATE_STORE: 'redis', REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'share-test:' }
    first = await startGateway(project.dist, { filesDir: join(project.root, 'first'), env })
    second = await startGateway(project.dist, { filesDir: join(project.root, 'second'), env })
  }, 60_000)

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()])
    await redis?.close()
  })

  it('opens on every gateway sharing the store, and is revoked on all of them at once', async () => {
    const made = await keys(['preview-link', `blog-posts/${DRAFT.slug}`, '--expires', '7d', '--root', project.root], {
      env: { ...env, PUBLIC_URL: first.url },
    })
    expect(made.code, made.err).toBe(0)
    const token = made.out.trim().split('/').at(-1)!
    for (const g of [first, second]) expect((await fetch(`${g.url}/review/${token}`)).status).toBe(200)
    expect((await keys(['preview-link', 'revoke', token], { env })).code).toBe(0)
    for (const g of [first, second]) {
      const res = await fetch(`${g.url}/review/${token}`)
      expect(res.status).toBe(410)
      expect(await res.text()).toMatch(/was revoked/)
    }
  })
})
