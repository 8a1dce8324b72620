/**
 * The state store and the runtime-data files on a file system that fails,
 * as a real one does: a small tmpfs the test mounts (it needs root; without,
 * it is skipped and says why), filled to the last byte, then made read-only.
 * Every route that writes answers 503 with Retry-After — a problem for
 * programs, an accessible page on the browser's sign-in steps — the keys CLI
 * says so in one line and exits 1, nothing is logged as done that was not, the
 * log has one JSON line naming the store and the reason (no stack trace), no
 * temporary file or lock is left behind, and all of it works again once there
 * is room (or the volume is writable) again.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { open, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { MCP_HEADERS, startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { UserAgent, type Step } from './user-agent.ts'

const MOUNT = mkdtempSync(join(tmpdir(), 'full-disk-'))
/** Why the file system cannot be mounted here (not root, no capability), or undefined once it is. */
const cannotMount = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', MOUNT], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    const reason = `cannot mount a tmpfs (${(error as Error).message.split('\n')[0]}): the full-disk tests are skipped`
    console.warn(reason)
    return reason
  }
})()

const ADA = { email: 'ada@example.com', password: 'the analytical engine' }
const REDIRECT = 'http://127.0.0.1:9/cb'

let project: TempProject
let gateway: TestGateway
let clientId: string
beforeAll(async () => {
  if (cannotMount) return
  project = await copyOfFixtureContent()
  await buildSite({ root: project.root })
  gateway = await startGateway(project.dist, {
    filesDir: MOUNT,
    stateDir: join(MOUNT, 'state'),
    people: { ada: ADA },
    keys: { agent: 'agent.mcp' },
    env: { RATE_LIMIT_PER_MINUTE: '0' },
  })
  const registered = await register()
  expect(registered.status).toBe(201)
  clientId = ((await registered.json()) as { client_id: string }).client_id
})
afterAll(async () => {
  await gateway?.close()
  await project?.remove()
  if (!cannotMount) execFileSync('umount', [MOUNT])
  await rm(MOUNT, { recursive: true, force: true })
})

const register = () =>
  fetch(`${gateway.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'Full disk' }),
  })

function authorizeUrl(): string {
  const params = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'mcp.tools.invoke',
    resource: `${gateway.url}/mcp`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  })
  return `${gateway.url}/oauth/authorize?${params}`
}

async function signInPage(agent: UserAgent): Promise<Step> {
  const page = await agent.openSignIn(authorizeUrl())
  if (page instanceof URL || page.status !== 200) throw new Error(`expected the sign-in page, got ${String(page)}`)
  return page
}

async function keys(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const env = {
    KEYS_FILE: join(MOUNT, 'keys.json'),
    OAUTH_CLIENTS_FILE: join(MOUNT, 'clients.json'),
    STATE_STORE: 'files',
    OAUTH_STORE_DIR: join(MOUNT, 'state'),
  }
  const code = await runKeysCli(args, { env, cwd: MOUNT, out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** Fill the file system to its last byte. */
async function fill(): Promise<void> {
  const file = await open(join(MOUNT, 'filler'), 'w')
  const chunk = Buffer.alloc(64 * 1024, 1)
  try {
    for (;;) await file.write(chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    await file.close()
  }
}

/** Every file and folder left on the volume that is neither a record, a runtime-data file, nor the filler. */
async function leftovers(): Promise<string[]> {
  const entries = await readdir(MOUNT, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => (e.isFile() ? !e.name.endsWith('.json') && e.name !== 'filler' : e.name.endsWith('.lock')))
    .map((e) => join(e.parentPath, e.name))
}

async function expectUnavailableProblem(response: Response): Promise<void> {
  expect(response.status).toBe(503)
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(((await response.json()) as { type: string }).type).toMatch(/\/problems\/unavailable$/)
}

async function expectUnavailablePage(response: Response): Promise<void> {
  expect(response.status).toBe(503)
  expect(response.headers.get('content-type')).toMatch(/^text\/html/)
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  const html = await response.text()
  expect(html).toMatch(/<html lang="en">/)
  expect(html).toMatch(/<title>[^<]*unavailable[^<]*<\/title>/i)
  expect(html).toMatch(/<h1>[^<]*unavailable[^<]*<\/h1>/i)
  expect(html).toContain('role="alert"')
}

describe.skipIf(cannotMount)('a full file system under the state store', () => {
  it('answers 503 everywhere it writes, says why once, leaves nothing behind, and recovers when space returns', async () => {
    const errors = vi.spyOn(console, 'error')
    const signingIn = new UserAgent()
    const page = await signInPage(signingIn)
    const logsBefore = gateway.logs.length
    await fill()

    await expectUnavailableProblem(await register())
    await expectUnavailablePage(await new UserAgent().request(authorizeUrl()))
    await expectUnavailablePage(await signingIn.submitSignIn(page, ADA))
    // A wrong password whose failure cannot be counted: refused (never let through), with the page too.
    await expectUnavailablePage(await signingIn.submitSignIn(page, { ...ADA, password: 'not the right password' }))
    for (const args of [
      ['create', '--role', 'agent.mcp', '--label', 'full'],
      ['client', 'create', '--id', 'full-disk', '--scopes', 'api.read', '--label', 'full'],
    ]) {
      const refused = await keys(...args)
      expect(refused.code, args.join(' ')).toBe(1)
      expect(refused.out).toBe('')
      expect(refused.err).toMatch(/^✗ the state store \(.+\) cannot be used: ENOSPC \(no space left on device\)[^\n]*$/)
    }
    expect(await leftovers()).toEqual([])

    const logs = gateway.logs.slice(logsBefore).map((line) => JSON.parse(line) as Record<string, string>)
    expect(logs.map((l) => l.msg)).not.toContain('signed in')
    const faults = logs.filter((l) => l.msg === 'state store unavailable')
    // One line a request: the registration, the authorization request, the two sign-ins.
    expect(faults).toHaveLength(4)
    for (const fault of faults) {
      expect(fault.store).toBe(`files in ${join(MOUNT, 'state')}`)
      expect(fault.error).toMatch(/^ENOSPC/)
    }
    expect(logs.filter((l) => l.level === 'error')).toEqual(faults)
    expect(errors).not.toHaveBeenCalled()

    await rm(join(MOUNT, 'filler'))
    expect((await register()).status).toBe(201)
    const resumed = await signingIn.submitSignIn(page, ADA)
    expect(resumed.status).toBe(303)
    expect(gateway.logs.some((line) => (JSON.parse(line) as { msg: string }).msg === 'signed in')).toBe(true)
    expect(await new UserAgent().openSignIn(authorizeUrl())).toMatchObject({ status: 200 })
    const created = await keys('create', '--role', 'agent.mcp', '--label', 'after')
    expect(created.code, created.err).toBe(0)
    const mcp = await fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${created.out.trim()}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(mcp.status).toBe(200)
    errors.mockRestore()
  })

  it('answers 503 on a read-only volume too, and recovers when it is writable again', async () => {
    execFileSync('mount', ['-o', 'remount,ro', MOUNT])
    try {
      await expectUnavailableProblem(await register())
      const refused = await keys('revoke', 'key_nothing')
      expect(refused.code).toBe(1)
      expect(refused.err).toMatch(/cannot be used: EROFS \(read-only file system\)/)
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', MOUNT])
    }
    expect((await register()).status).toBe(201)
    expect(await leftovers()).toEqual([])
  })
})
