/**
 * The audit trail as an operator and a security team read it: each creation,
 * revocation and rotation of a key, client, person and webhook subscription
 * made with `npm run keys` is recorded — what, which id, when, from the CLI
 * and by whom — appended and never rewritten, with no secret in it, in the
 * files store and in Netlify Blobs; `keys audit` lists it newest first, by
 * type, id, time and count, or as JSON lines.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { openKeyStore } from '../../../gateway/auth/key-store.ts'
import { keysDocument } from '../../../gateway/auth/keys-file.ts'
import { openBlobsStore } from '../../../gateway/auth/store/blobs-store.ts'
import { BLOBS_STORE_NAME } from '../../../gateway/auth/store/open-store.ts'
import { generateSecretsKey } from '../../../gateway/webhooks/secrets.ts'
import { startLocalBlobs, type LocalBlobs } from '../../helpers/local-blobs.ts'
import { until } from '../../helpers/until.ts'

let dir: string
let blobs: LocalBlobs
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'audit-trail-'))
  blobs = await startLocalBlobs(dir, 'audit-site')
})
afterAll(async () => {
  await blobs?.stop()
  await rm(dir, { recursive: true, force: true })
})

function cliWith(env: Record<string, string>) {
  return async (...args: string[]) => {
    const stdinText = args[0] === '--stdin' ? args.splice(0, 2)[1]! : undefined
    const out: string[] = []
    const err: string[] = []
    const code = await runKeysCli(args, {
      env,
      cwd: dir,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      stdin: stdinText === undefined ? undefined : async () => stdinText,
    })
    return { code, out: out.join('\n'), err: err.join('\n') }
  }
}

const createdId = (err: string) => /^created (?:client )?(\S+) /m.exec(err)?.[1] ?? ''

describe('the audit trail in the files store', () => {
  const state = () => join(dir, 'files-state')
  const cli = () => cliWith({ OAUTH_STORE_DIR: state(), WEBHOOK_SECRETS_KEY: SECRETS_KEY })
  const SECRETS_KEY = generateSecretsKey()
  const secrets: string[] = []
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    const keys = cli()
    const ok = async (...args: string[]) => {
      const result = await keys(...args)
      expect(result.code, result.err).toBe(0)
      if (result.out) secrets.push(result.out)
      return result
    }
    ids.key = createdId((await ok('create', '--role', 'agent.mcp', '--label', 'ci agent', '--expires', '90d')).err)
    await ok('revoke', ids.key)
    await ok('client', 'create', '--id', 'billing-sync', '--scopes', 'api.read', '--label', 'billing')
    await ok('client', 'revoke', 'billing-sync')
    ids.user = (
      await ok(
        '--stdin',
        'a long enough password',
        'user',
        'create',
        '--email',
        'grace@example.com',
        '--name',
        'Grace',
        '--password-stdin',
      )
    ).out
    secrets.pop()
    await ok('user', 'disable', ids.user)
    ids.webhook = /^created (wh_\w+)/m.exec(
      (await ok('webhook', 'create', '--url', 'http://127.0.0.1:9/h', '--events', 'all')).err,
    )![1]!
    for (const command of ['rotate', 'pause', 'resume', 'remove']) await ok('webhook', command, ids.webhook)
  })

  it('records each change, newest first, from the CLI by this user on this host', async () => {
    const audit = await cli()('audit')
    expect(audit.code, audit.err).toBe(0)
    const lines = audit.out.split('\n').map((line) => line.split('\t'))
    expect(lines.map(([, action, subject, id]) => `${action} ${subject} ${id}`)).toEqual([
      `remove webhook ${ids.webhook}`,
      `resume webhook ${ids.webhook}`,
      `pause webhook ${ids.webhook}`,
      `rotate webhook ${ids.webhook}`,
      `create webhook ${ids.webhook}`,
      `disable user ${ids.user}`,
      `create user ${ids.user}`,
      'revoke client billing-sync',
      'create client billing-sync',
      `revoke key ${ids.key}`,
      `create key ${ids.key}`,
    ])
    for (const [at, , , , via, by] of lines) {
      expect(Date.parse(at!)).toBeGreaterThan(Date.now() - 600_000)
      expect(via).toBe('cli')
      expect(by).toMatch(new RegExp(`@${hostname().replace(/\./g, '\\.')}$`))
    }
    expect(lines.at(-1)![6]).toMatch(/^role=agent\.mcp label=ci agent expires_at=\d{4}-/)
  })

  it('filters by type, id, time and count, and prints JSON lines', async () => {
    const keys = cli()
    const ofType = (await keys('audit', '--type', 'client')).out.split('\n')
    expect(ofType.map((l) => l.split('\t')[1])).toEqual(['revoke', 'create'])
    const ofId = (await keys('audit', '--id', ids.user!)).out.split('\n')
    expect(ofId.map((l) => l.split('\t')[1])).toEqual(['disable', 'create'])
    expect((await keys('audit', '--limit', '2')).out.split('\n')).toHaveLength(2)
    expect((await keys('audit', '--since', '1h')).out.split('\n')).toHaveLength(11)
    const future = await keys('audit', '--since', '2999-01-01')
    expect(future.out).toBe('')
    expect(future.err).toContain('no audit entries match')
    const json = (await keys('audit', '--json', '--limit', '1')).out
    expect(JSON.parse(json)).toMatchObject({ action: 'remove', subject: 'webhook', id: ids.webhook, via: 'cli' })
    for (const wrong of [
      ['--type', 'password'],
      ['--limit', '0'],
      ['--since', 'yesterday'],
    ]) {
      const refused = await keys('audit', ...wrong)
      expect(refused.code, wrong.join(' ')).toBe(2)
      expect(refused.err).toMatch(/^✗ --(type|limit|since) .*\nusage: npm run keys -- audit/)
    }
  })

  it('keeps one record per entry, never rewritten, with no secret, hash or password in any', async () => {
    const folder = join(state(), 'audit')
    const before = await readdir(folder)
    const contents = await Promise.all(before.map((f) => readFile(join(folder, f), 'utf8')))
    expect((await cli()('create', '--role', 'agent.mcp', '--label', 'one more')).code).toBe(0)
    const after = await readdir(folder)
    expect(after).toHaveLength(before.length + 1)
    expect(await Promise.all(before.map((f) => readFile(join(folder, f), 'utf8')))).toEqual(contents)
    const trail = contents.join('\n')
    expect(secrets.length).toBeGreaterThan(3)
    for (const secret of secrets) expect(trail).not.toContain(secret)
    expect(trail).not.toMatch(/sha256:|scrypt\$|a long enough password|whsec_/)
  })
})

describe('the audit trail and the keys on Netlify Blobs', () => {
  const cli = cliWith({ STATE_STORE: 'netlify-blobs' })

  it('records there, and a revocation reaches a gateway following the keys there promptly', async () => {
    const created = await cli('create', '--role', 'agent.mcp', '--label', 'production')
    expect(created.code, created.err).toBe(0)
    const keys = await openKeyStore(keysDocument(undefined, () => openBlobsStore({ name: BLOBS_STORE_NAME })))
    expect(await keys.lookup(created.out)).toMatchObject({ ok: true })
    const id = createdId(created.err)
    expect((await cli('revoke', id)).code).toBe(0)
    // The store's record is asked for its version at most every half second (it used to be read every 10 s).
    await until(() => keys.lookup(created.out), {
      holds: (found) => !found.ok && found.reason === 'revoked',
      what: 'the revocation to reach the following gateway',
      timeoutMs: 5_000,
    })
    const audit = await cli('audit', '--type', 'key')
    expect(audit.out.split('\n').map((l) => l.split('\t').slice(1, 4).join(' '))).toEqual([
      `revoke key ${id}`,
      `create key ${id}`,
    ])
  })
})
