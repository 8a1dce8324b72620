/**
 * `npm run keys` run many times at once beside a running gateway, as the
 * issue's probe did (20 creates left 7 keys; a revoke racing creates was
 * lost): 20 key creates, 10 client creates and a revoke racing 5 creates,
 * all at once. Every key and client they print is stored and works (a key
 * answers 200 on /mcp, a client gets a token) and the revoked key is refused,
 * in every round; `keys audit` then shows each of those creates and revokes.
 *
 * One round as real processes (`node build/run.mjs keys`, what `npm run keys`
 * runs), where processes are the point; the other 20 rounds run the same CLI
 * in this process, concurrently, where its writes interleave just as badly.
 * The runtime data lives on a memory file system where there is one: what is
 * tested is that no writer loses another's change, not how fast the disk
 * syncs (every write still syncs, and the full-disk test has a real volume).
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { MCP_HEADERS, startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, REPO_ROOT, type TempProject } from '../../helpers/project.ts'

interface Run {
  code: number | null
  out: string
  err: string
}
type Runner = (args: string[]) => Promise<Run>

let project: TempProject
let runtime: string
let gateway: TestGateway
let env: Record<string, string>
beforeAll(async () => {
  project = await copyOfFixtureContent()
  runtime = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'concurrent-writes-'))
  await buildSite({ root: project.root })
  // Each round calls from an address of its own: the revoked key's 401s never add up to the failure limit.
  gateway = await startGateway(project.dist, {
    filesDir: runtime,
    stateDir: join(runtime, 'state'),
    env: { RATE_LIMIT_PER_MINUTE: '0', TRUST_PROXY: 'x-forwarded-for' },
  })
  env = {
    KEYS_FILE: join(runtime, 'keys.json'),
    OAUTH_CLIENTS_FILE: join(runtime, 'clients.json'),
    STATE_STORE: 'files',
    OAUTH_STORE_DIR: gateway.stateDir,
    LOG_LEVEL: 'silent',
  }
})
afterAll(async () => {
  await gateway?.close()
  await project?.remove()
  if (runtime) await rm(runtime, { recursive: true, force: true })
})

const inProcess: Runner = async (args) => {
  const out: string[] = []
  const err: string[] = []
  const code = await runKeysCli(args, { env, cwd: project.root, out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** `npm run keys -- …` without npm: the prebuilt command the test set-up bundled. */
const asProcess: Runner = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'build', 'run.mjs'), 'keys', ...args], {
      cwd: project.root,
      env: { ...process.env, ...env },
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    // 'close', not 'exit': the process may end before all it wrote has been read.
    child.on('close', (code) => resolve({ code, out, err }))
  })

/** An answer's status, its body read away. */
async function statusOf(response: Response): Promise<number> {
  await response.body?.cancel()
  return response.status
}

const createdId = (run: Run) => /^created (?:client )?(\S+) /m.exec(run.err)?.[1] ?? ''

/** What one round made and revoked, for the audit trail. */
interface Round {
  keys: string[]
  clients: string[]
  revoked: string
}

async function round(run: Runner, n: number): Promise<Round> {
  const address = `10.45.${Math.floor(n / 250)}.${n % 250}`
  const key = (label: string) => ['create', '--role', 'agent.mcp', '--label', `round ${n} ${label}`]
  const target = await run(key('target'))
  expect(target.code, target.err).toBe(0)
  const revoked = createdId(target)
  const clientIds = Array.from({ length: 10 }, (_, i) => `round-${n}-client-${i}`)
  const [creates, clients, [revoke, ...racing]] = await Promise.all([
    Promise.all(Array.from({ length: 20 }, (_, i) => run(key(`key ${i}`)))),
    Promise.all(
      clientIds.map((id) =>
        run(['client', 'create', '--id', id, '--scopes', 'mcp.tools.invoke', '--label', `round ${n}`]),
      ),
    ),
    Promise.all([run(['revoke', revoked]), ...Array.from({ length: 5 }, (_, i) => run(key(`racing ${i}`)))]),
  ])
  for (const r of [...creates, ...clients, revoke!, ...racing]) expect(r.code, r.err).toBe(0)
  expect(revoke!.err).toContain(`revoked ${revoked}`)
  const made = [...creates, ...racing]

  const mcp = (token: string) =>
    fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'x-forwarded-for': address },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    }).then(statusOf)
  const statuses = await Promise.all(made.map((r) => mcp(r.out.trim())))
  const refused = made.filter((_, i) => statuses[i] !== 200).map((r) => ({ ...r, status: statuses[made.indexOf(r)] }))
  expect(refused).toEqual([])
  expect(await mcp(target.out.trim())).toBe(401)
  const tokens = await Promise.all(
    clients.map((r, i) =>
      fetch(`${gateway.url}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientIds[i]}:${r.out.trim()}`).toString('base64')}`,
          'x-forwarded-for': address,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: 'mcp.tools.invoke',
          resource: `${gateway.url}/mcp`,
        }),
      }).then(statusOf),
    ),
  )
  expect(clientIds.map((id, i) => `${id} ${tokens[i]}`).filter((s) => !s.endsWith(' 200'))).toEqual([])
  return { keys: [revoked, ...made.map(createdId)], clients: clientIds, revoked }
}

describe('keys CLI runs at once beside a running gateway', () => {
  const rounds: Round[] = []

  it('keeps every key and client and the revocation, as real processes', async () => {
    rounds.push(await round(asProcess, 0))
  }, 120_000)

  it('keeps every key and client and the revocation in each of 20 rounds', async () => {
    for (let n = 1; n <= 20; n++) rounds.push(await round(inProcess, n))
  }, 180_000)

  it('`keys audit` shows each of those creates and revokes, from the CLI, with no secret in the trail', async () => {
    const audit = await asProcess(['audit', '--limit', '1000', '--json'])
    expect(audit.code, audit.err).toBe(0)
    const entries = audit.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; subject: string; id: string; via: string })
    const has = (action: string, subject: string, id: string) =>
      entries.some((e) => e.action === action && e.subject === subject && e.id === id && e.via === 'cli')
    for (const r of rounds) {
      for (const id of r.keys) expect(has('create', 'key', id), id).toBe(true)
      for (const id of r.clients) expect(has('create', 'client', id), id).toBe(true)
      expect(has('revoke', 'key', r.revoked), r.revoked).toBe(true)
    }
    const trail = join(gateway.stateDir, 'audit')
    const text = (await Promise.all((await readdir(trail)).map((f) => readFile(join(trail, f), 'utf8')))).join('\n')
    expect(text).not.toMatch(/tw_live_|tw_cs_|sha256:/)
  }, 60_000)
})
