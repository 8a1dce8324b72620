/**
 * Runtime data (API keys, machine clients) is never tracked or deployed: by
 * default it lives under the git-ignored gateway/.data/, where `npm run keys`
 * writes it and `npm start` reads it; on Netlify it lives in the site's Blobs,
 * where the keys CLI writes it too. The published sandbox credentials need
 * neither: every gateway knows them (contract/sandbox.ts).
 */
import { execFile, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { BlobsServer } from '@netlify/blobs/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SANDBOX_CLIENT, SANDBOX_KEY } from '../../../contract/sandbox.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { clientsDocument } from '../../../gateway/auth/issuer/clients-file.ts'
import { openKeyStore } from '../../../gateway/auth/key-store.ts'
import { keysDocument } from '../../../gateway/auth/keys-file.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { DEFAULT_CLIENTS_FILE, DEFAULT_KEYS_FILE } from '../../../gateway/auth/runtime-data.ts'
import { openBlobsStore } from '../../../gateway/auth/store/blobs-store.ts'
import { BLOBS_STORE_NAME } from '../../../gateway/auth/store/open-store.ts'
import { type Command, commandArgs } from '../../helpers/commands.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'

const run = promisify(execFile)

/** A command run with `cwd` as the project folder, as its npm script there would (build/run.mjs). */
function script(command: Command, args: string[], cwd: string, env: Record<string, string> = {}) {
  return spawn(process.execPath, commandArgs(command, ...args), {
    cwd,
    env: { ...process.env, KEYS_FILE: '', OAUTH_CLIENTS_FILE: '', STATE_STORE: '', LOG_LEVEL: 'silent', ...env },
  })
}

async function finished(child: ReturnType<typeof spawn>): Promise<{ code: number | null; out: string; err: string }> {
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (err += d))
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, out, err }
}

describe('runtime data in the repository', () => {
  it('is neither tracked nor deployed: its default files are git-ignored, the function ships the build only', async () => {
    const tracked = (await run('git', ['ls-files', 'gateway'], { cwd: REPO_ROOT })).stdout.split('\n')
    expect(tracked.filter((f) => f.endsWith('.json'))).toEqual([])
    for (const file of [DEFAULT_KEYS_FILE, DEFAULT_CLIENTS_FILE]) {
      expect(file.startsWith('gateway/.data/')).toBe(true)
      await run('git', ['check-ignore', '-q', file], { cwd: REPO_ROOT })
    }
    const toml = await readFile(join(REPO_ROOT, 'netlify.toml'), 'utf8')
    // Each function's included files, by the [functions.<name>] section they are in.
    const included = Object.fromEntries(
      toml.split(/^\[functions\.([\w-]+)\]\s*$/m).flatMap((section, i, parts) => {
        const files = /^\s*included_files\s*=\s*(\[.*\])\s*$/m.exec(section)?.[1]
        return i % 2 === 0 && i > 0 && files ? [[parts[i - 1]!, JSON.parse(files) as string[]]] : []
      }),
    )
    // The build only (and the reviewers' preview beside it) (the CDN serves the editor under dist/admin/), for the webhook senders its change logs (each
    // locale's too), for the release check its manifest, and for the sweep nothing: nothing of the runtime data.
    const changeLog = [
      'dist/_build/manifest.json',
      'dist/_build/changes.json',
      'dist/_build/_locales/**',
      'dist/_build/notify.json',
    ]
    expect(included).toEqual({
      gateway: ['dist/**', '!dist/admin/**', 'dist-preview/**'],
      'deploy-succeeded-background': changeLog,
      'webhooks-scheduled': changeLog,
      'oauth-sweep-scheduled': [],
      'publish-scheduled': ['dist/_build/manifest.json'],
    })
  })
})

describe('npm run keys and npm start with the default files', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/one.md': validPost('One') })
    await buildSite({ root: project.root, cache: false })
  })
  afterAll(() => project?.remove())

  it('writes the key into gateway/.data/ (created when missing), where the gateway reads it; the sandbox needs no file', async () => {
    const created = await finished(script('keys', ['create', '--role', 'agent.mcp', '--label', 'local'], project.root))
    expect(created.code, created.err).toBe(0)
    expect(created.err).toContain(`in ${join(project.root, DEFAULT_KEYS_FILE)};`)
    const key = created.out.trim()
    await stat(join(project.root, DEFAULT_KEYS_FILE))

    const server = script('serve', [], project.root, { PORT: '0', DIST_DIR: project.dist })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = ''
        server.stderr!.on('data', (d) => {
          err += d
          const match = /at (http:\/\/\S+)/.exec(err)
          if (match) resolve(match[1]!)
        })
        server.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)))
      })
      const mcp = (token: string) =>
        fetch(`${url}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        })
      expect((await mcp(key)).status).toBe(200)
      // Known (not 401): the sandbox key is built in, and read-only.
      expect((await mcp(SANDBOX_KEY)).status).toBe(403)
      const token = await fetch(`${url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: SANDBOX_CLIENT.id,
          client_secret: SANDBOX_CLIENT.secret,
          scope: 'api.read',
        }),
      })
      expect(token.status).toBe(200)
    } finally {
      server.kill('SIGTERM')
    }
  }, 90_000)
})

describe('on Netlify: the site Blobs', () => {
  let dir: string
  let blobsServer: BlobsServer
  let previous: string | undefined
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runtime-data-'))
    const token = 'local-blobs-token'
    blobsServer = new BlobsServer({ directory: join(dir, 'blobs'), token, logger: () => {} })
    const { port } = await blobsServer.start()
    const edgeURL = `http://127.0.0.1:${port}`
    previous = process.env.NETLIFY_BLOBS_CONTEXT
    // What the function has, and what the CLI resolves NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN to.
    process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
      JSON.stringify({ edgeURL, uncachedEdgeURL: edgeURL, siteID: 'runtime-data-site', token }),
    ).toString('base64')
  })
  afterAll(async () => {
    if (previous === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT
    else process.env.NETLIFY_BLOBS_CONTEXT = previous
    await blobsServer?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it('the keys CLI writes keys and clients there, and the gateway finds them there, with no file', async () => {
    const cli = async (...args: string[]) => {
      const out: string[] = []
      const err: string[] = []
      const code = await runKeysCli(args, {
        env: { STATE_STORE: 'netlify-blobs' },
        cwd: dir,
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      })
      expect(code, err.join('\n')).toBe(0)
      return { out: out.join('\n'), err: err.join('\n') }
    }
    const created = await cli('create', '--role', 'agent.mcp', '--label', 'production agent')
    expect(created.err).toContain(`in Netlify Blobs store "${BLOBS_STORE_NAME}"`)
    await cli('client', 'create', '--id', 'prod-agent', '--scopes', 'api.read', '--label', 'production')
    await expect(stat(join(dir, 'gateway'))).rejects.toThrow()

    const store = () => openBlobsStore({ name: BLOBS_STORE_NAME })
    const keys = await openKeyStore(keysDocument(undefined, store))
    expect(await keys.lookup(created.out.trim())).toMatchObject({ ok: true, key: { role: 'agent.mcp' } })
    expect(await keys.lookup(SANDBOX_KEY)).toMatchObject({ ok: true, key: { role: 'sandbox.read' } })
    const clients = await clientsDocument(undefined, store).read()
    expect(clients.clients.map((c) => c.client_id)).toEqual(['prod-agent'])
    expect((await cli('list')).out).toMatch(
      /^key_sandbox\tsandbox\.read\tactive\t.*\nkey_\w+\tagent\.mcp\tactive\tproduction agent$/,
    )
  })
})
