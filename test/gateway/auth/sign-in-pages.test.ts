/**
 * The sign-in and consent pages and the people behind them: the HTML a
 * person and a screen reader get, password guessing throttled per address
 * and per account (429 with Retry-After), forged and stale form posts
 * refused, scopes limited to what a person may grant, and `npm run keys --
 * user …` creating, listing and disabling people in the running gateway's
 * store.
 */
import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { FAILURE_POLICIES } from '../../../gateway/auth/failed-auth.ts'

import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { readForm, UserAgent, type Step } from './user-agent.ts'

const LOGIN_THROTTLE = {
  perAccount: FAILURE_POLICIES['sign-in'].perIdentifier,
  perAddress: FAILURE_POLICIES['sign-in'].perAddress,
  windowSeconds: FAILURE_POLICIES['sign-in'].windowSeconds,
}

const REDIRECT = 'http://127.0.0.1:9/cb'
const ALAN = { email: 'alan@example.com', password: 'on computable numbers' }
const KATHERINE = {
  email: 'katherine@example.com',
  password: 'trajectories for apollo',
  scopes: ['openid', 'api.read'] as const,
}

let t: BuiltGateway
let clientId: string

beforeAll(async () => {
  t = await startBuiltGateway({ people: { alan: ALAN, katherine: KATHERINE }, env: { TRUST_PROXY: 'x-forwarded-for' } })
  const registered = await fetch(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      client_name: 'Pages test',
    }),
  })
  clientId = ((await registered.json()) as { client_id: string }).client_id
})
afterAll(() => t?.close())

const verifier = () => randomBytes(32).toString('base64url')
const challenge = (v: string) => createHash('sha256').update(v).digest('base64url')

function authorizeUrl(scope = 'mcp.tools.invoke', v = verifier()): string {
  const params = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope,
    resource: `${t.url}/mcp`,
    code_challenge: challenge(v),
    code_challenge_method: 'S256',
    state: 'x',
  })
  return `${t.url}/oauth/authorize?${params}`
}

async function signInPage(agent: UserAgent): Promise<Step> {
  const page = await agent.openSignIn(authorizeUrl())
  if (page instanceof URL) throw new Error('expected a page')
  return page
}

async function exchange(code: string, v: string) {
  const res = await fetch(`${t.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: v,
      resource: `${t.url}/mcp`,
    }),
  })
  return (await res.json()) as { access_token?: string; refresh_token?: string; scope?: string; error?: string }
}

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const stdinText = args[0] === '--stdin' ? args.splice(0, 2)[1]! : undefined
  const code = await runKeysCli(args, {
    env: { OAUTH_STORE_DIR: t.stateDir },
    cwd: t.project.root,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stdin: stdinText === undefined ? undefined : async () => stdinText,
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('the sign-in page', () => {
  it('is plain accessible HTML: labelled email and password fields, a submit button, nothing from other hosts', async () => {
    const page = await signInPage(new UserAgent())
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('cache-control')).toBe('no-store')
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/)
    expect(page.headers.get('access-control-allow-origin')).toBeNull()
    const { html } = page
    expect(html).toMatch(/<html lang="en">/)
    expect(html).toMatch(
      /<label for="email">Email address<\/label>\s*<input id="email" name="email" type="email" autocomplete="username" required/,
    )
    expect(html).toMatch(
      /<label for="password">Password<\/label>\s*<input id="password" name="password" type="password" autocomplete="current-password" required/,
    )
    expect(html).toMatch(/<button type="submit"[^>]*>Sign in<\/button>/)
    expect(html).toContain('Pages test')
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
    expect(html).not.toMatch(/<script/)
  })

  it('says so when the password is wrong, and keeps the email', async () => {
    const agent = new UserAgent({ 'x-forwarded-for': '198.51.100.1' })
    const res = await agent.submitSignIn(await signInPage(agent), { email: ALAN.email, password: 'not it at all' })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('role="alert"')
    expect(html).toContain('The email address or password is not right.')
    expect(html).toContain(`value="${ALAN.email}"`)
    expect(html).toContain('aria-describedby="form-error"')
  })
})

describe('password guessing', () => {
  it(`is refused with 429 and Retry-After after ${LOGIN_THROTTLE.perAccount} failures on one account, from any address`, async () => {
    const target = { email: 'victim@example.com', password: 'the right password is long' }
    expect(
      (
        await cli(
          '--stdin',
          target.password,
          'user',
          'create',
          '--email',
          target.email,
          '--name',
          'Victim',
          '--password-stdin',
        )
      ).code,
    ).toBe(0)
    for (let i = 0; i < LOGIN_THROTTLE.perAccount; i++) {
      const agent = new UserAgent({ 'x-forwarded-for': `203.0.113.${10 + i}` })
      expect((await agent.submitSignIn(await signInPage(agent), { ...target, password: `guess ${i}` })).status).toBe(
        400,
      )
    }
    // Even the right password, from a fresh address, waits out the window.
    const agent = new UserAgent({ 'x-forwarded-for': '203.0.113.99' })
    const res = await agent.submitSignIn(await signInPage(agent), target)
    expect(res.status).toBe(429)
    const retryAfter = Number(res.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_THROTTLE.windowSeconds)
    // The same mechanism and fields as bad API keys and client secrets (gateway/auth/failed-auth.ts).
    // (The ordinary limiter's own fields follow.)
    expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"failed-sign-in-account";r=0;t=${retryAfter}(, |$)`))
    expect(res.headers.get('ratelimit-policy')).toContain(
      `"failed-sign-in-account";q=${LOGIN_THROTTLE.perAccount};w=${LOGIN_THROTTLE.windowSeconds}`,
    )
    expect(await res.text()).toContain('Too many failed attempts')
  })

  it(`is refused with 429 after ${LOGIN_THROTTLE.perAddress} failures from one address, whatever the account`, async () => {
    const address = { 'x-forwarded-for': '192.0.2.77' }
    for (let i = 0; i < LOGIN_THROTTLE.perAddress; i++) {
      const agent = new UserAgent(address)
      expect(
        (
          await agent.submitSignIn(await signInPage(agent), {
            email: `nobody${i}@example.com`,
            password: 'whatever it is',
          })
        ).status,
      ).toBe(400)
    }
    const agent = new UserAgent(address)
    const res = await agent.submitSignIn(await signInPage(agent), ALAN)
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another address is not held back.
    const elsewhere = new UserAgent({ 'x-forwarded-for': '192.0.2.78' })
    expect((await elsewhere.submitSignIn(await signInPage(elsewhere), ALAN)).status).toBe(303)
  })
})

describe('forged and stale form posts', () => {
  it("refuses a post without the page's CSRF token, from another origin, or without the interaction cookie", async () => {
    const agent = new UserAgent({ 'x-forwarded-for': '198.51.100.20' })
    const page = await signInPage(agent)
    const form = readForm(page.html, page.url)
    const body = (csrf: string) => new URLSearchParams({ csrf, email: ALAN.email, password: ALAN.password })
    expect((await agent.request(form.action, { form: body('forged') })).status).toBe(403)
    expect(
      (
        await agent.request(form.action, {
          form: body(form.fields.csrf!),
          headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(403)
    // Another browser (no cookie), even with the right token: the interaction is not found.
    const stranger = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body(form.fields.csrf!),
      redirect: 'manual',
    })
    expect(stranger.status).toBe(400)
    expect(await stranger.text()).toContain('This sign-in has expired')
    // The genuine post still works.
    expect((await agent.request(form.action, { form: body(form.fields.csrf!) })).status).toBe(303)
  })

  it('answers 405 to other methods and 400 to an unknown interaction', async () => {
    const page = await signInPage(new UserAgent())
    const form = readForm(page.html, page.url)
    expect((await fetch(form.action)).status).toBe(405)
    expect((await fetch(`${t.url}/oauth/interaction/nope`)).status).toBe(400)
  })
})

describe('what a person may grant', () => {
  it('leaves out the scopes a person may not grant, and says so on the consent page', async () => {
    const v = verifier()
    const agent = new UserAgent({ 'x-forwarded-for': '198.51.100.30' })
    const back = await agent.authorize(authorizeUrl('mcp.tools.invoke api.read', v), KATHERINE, REDIRECT)
    const consent = agent.pages.find((p) => p.html.includes('Allow access?'))!
    expect(consent.html).toContain('which your account cannot grant')
    const tokens = await exchange(back.searchParams.get('code')!, v)
    expect(decodeJwt(tokens.access_token!).scope).toBe('api.read')
    const mcp = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    })
    expect(mcp.status).toBe(403)
  })
})

describe('npm run keys -- user', () => {
  it('creates people with every fixed scope unless narrowed, lists them, and refuses bad input', async () => {
    const made = await cli(
      '--stdin',
      'a long enough password\n',
      'user',
      'create',
      '--email',
      'Mary@Example.com',
      '--name',
      'Mary Jackson',
      '--password-stdin',
    )
    expect(made.code).toBe(0)
    expect(made.out).toMatch(/^usr_[0-9a-f]{16}$/)
    const list = await cli('user', 'list')
    const row = list.out
      .split('\n')
      .find((l) => l.startsWith(made.out))!
      .split('\t')
    expect(row.slice(1, 3)).toEqual(['mary@example.com', 'active'])
    // The fixed scopes: with api.read a person may grant each collection's scope too (consent.ts).
    expect(row[3]!.split(' ')).toEqual(['openid', 'profile', 'email', 'api.read', 'mcp.tools.invoke'])
    expect(
      (
        await cli(
          '--stdin',
          'a long enough password',
          'user',
          'create',
          '--email',
          'mary@example.com',
          '--name',
          'Again',
          '--password-stdin',
        )
      ).err,
    ).toContain('already exists')
    expect(
      (await cli('--stdin', 'short', 'user', 'create', '--email', 'x@example.com', '--name', 'X', '--password-stdin'))
        .code,
    ).toBe(2)
    expect(
      (
        await cli(
          '--stdin',
          'a long enough password',
          'user',
          'create',
          '--email',
          'y@example.com',
          '--name',
          'Y',
          '--password-stdin',
          '--scopes',
          'openid admin',
        )
      ).err,
    ).toContain('unknown scope admin')
    expect((await cli('user', 'create', '--email', 'z@example.com', '--name', 'Z')).code).toBe(2)
  })

  it('disables a person: no sign-in, and their refresh token stops working', async () => {
    const person = { email: 'dorothy@example.com', password: 'vaughan leads the way' }
    const id = (
      await cli(
        '--stdin',
        person.password,
        'user',
        'create',
        '--email',
        person.email,
        '--name',
        'Dorothy Vaughan',
        '--password-stdin',
      )
    ).out
    const v = verifier()
    const back = await new UserAgent({ 'x-forwarded-for': '198.51.100.40' }).authorize(
      authorizeUrl('mcp.tools.invoke', v),
      person,
      REDIRECT,
    )
    const tokens = await exchange(back.searchParams.get('code')!, v)
    expect(tokens.refresh_token).toEqual(expect.any(String))
    expect((await cli('user', 'disable', id)).code).toBe(0)
    expect((await cli('user', 'list')).out).toMatch(new RegExp(`${id}\\t${person.email}\\tdisabled `))
    const refresh = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: clientId,
      }),
    })
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant')
    const agent = new UserAgent({ 'x-forwarded-for': '198.51.100.41' })
    expect((await agent.submitSignIn(await signInPage(agent), person)).status).toBe(400)
  })

  it('stores only scrypt hashes and never logs a password', async () => {
    const files = (await readdir(t.stateDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
    const all = (await Promise.all(files.map((f) => readFile(`${f.parentPath}/${f.name}`, 'utf8')))).join('\n')
    expect(all).toContain('"password_hash":"scrypt$32768$8$1$')
    for (const secret of [ALAN.password, KATHERINE.password, 'a long enough password', 'the right password is long']) {
      expect(all.includes(secret)).toBe(false)
      expect(t.logs.join('\n').includes(secret)).toBe(false)
    }
  })
})
