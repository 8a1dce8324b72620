/**
 * Deploy parity: the built site under Netlify's own local emulation (static
 * files, the generated _redirects and _headers, the gateway as a function)
 * answers a matrix of requests exactly as the self-hosted gateway does.
 */
import { copyFile, readdir, readFile } from 'node:fs/promises'
import { isBuiltin } from 'node:module'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { MANIFEST_FILE } from '../../../contract/paths.ts'
import { CHANGES_FILE } from '../../../contract/changes.ts'
import type { Manifest } from '../../../contract/manifest.ts'
import { bundledFunctions } from './functions.ts'
import { FUNCTIONS_DIR, SIDE_FUNCTIONS } from '../../../build/deploy/netlify-function.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture, REPO_ROOT, type TempProject } from '../../helpers/project.ts'
import { API_VERSION } from '../../../contract/lifecycle.ts'
import { startEmulator, type Emulator } from './emulator.ts'
import { generateApiKey, hashApiKey } from '../../../gateway/auth/api-key.ts'
import { newKeyId, writeKeysFile } from '../../../gateway/auth/keys-file.ts'
import {
  API_CATALOG_PATH,
  AUTHORIZATION_SERVER_PATH,
  CHANGES_PATH,
  DOCS_PATH,
  FUNCTION_NAME,
  HEALTH_PATH,
  LLMS_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  PROTECTED_RESOURCE_PATH,
  SEARCH_PATH,
} from '../../../contract/public-paths.ts'

/** Headers both must send alike (ETag and request ids are each side's own). */
const COMPARED_HEADERS = [
  'www-authenticate',
  'allow',
  'content-type',
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-content-type-options',
  'content-security-policy',
  'x-total-count',
  'link',
]

interface Answer {
  status: number
  headers: Record<string, string | null>
  body: string
}

async function ask(base: string, path: string, init?: RequestInit): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init })
  const headers: Record<string, string | null> = {}
  for (const name of COMPARED_HEADERS) headers[name] = response.headers.get(name)
  const body = await response.text()
  // Health names each side's own state store (files here, Netlify Blobs there): the one difference it may show.
  return {
    status: response.status,
    headers,
    body: path === HEALTH_PATH ? body.replace(/"store":"[^"]*"/, '"store":"…"') : body,
  }
}

describe('Netlify deploy parity', () => {
  let project: TempProject
  let gateway: TestGateway
  let netlify: Emulator
  let manifest: Manifest
  /** The change feed's first page, for a cursor to ask with. */
  let firstChanges: { meta: { next_cursor: string } }
  let agentKey: string

  beforeAll(async () => {
    project = await copyOfBuiltFixture()
    await buildSite({ root: project.root })
    await bundledFunctions(project.root)
    await copyFile(join(REPO_ROOT, 'netlify.toml'), join(project.root, 'netlify.toml'))
    manifest = JSON.parse(await readFile(join(project.dist, MANIFEST_FILE), 'utf8')) as Manifest
    firstChanges = JSON.parse(await readFile(join(project.dist, CHANGES_FILE), 'utf8')) as typeof firstChanges
    // One settings environment for both: an API key for /mcp, the same keys file.
    agentKey = generateApiKey('live')
    await writeKeysFile(join(project.root, 'keys.json'), {
      version: 1,
      keys: [
        {
          id: newKeyId(),
          hash: hashApiKey(agentKey),
          role: 'agent.mcp',
          label: 'parity',
          created_at: new Date().toISOString(),
        },
      ],
    })
    // A public URL, or each side would name its own address in the OAuth metadata; one signing
    // key, which the function requires (its instances cannot share a generated one).
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    const env = {
      KEYS_FILE: join(project.root, 'keys.json'),
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'https://content.example.test',
      OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
    }
    gateway = await startGateway(project.dist, { keysFile: env.KEYS_FILE, env })
    netlify = await startEmulator(project.root, env)
  }, 600_000)

  afterAll(async () => {
    await netlify?.stop()
    await gateway?.close()
    await project?.remove()
  })

  /**
   * Pre-rendered answers for every collection; the long tail and the errors
   * (each a function call, seconds apiece in the emulation) spread over them.
   */
  function matrix(): string[] {
    const paths = [
      HEALTH_PATH,
      '/api/nope',
      '/api/blog-posts/a/b',
      API_CATALOG_PATH,
      OPENAPI_PATH,
      LLMS_PATH,
      DOCS_PATH,
      PROTECTED_RESOURCE_PATH,
      '/.well-known/oauth-protected-resource/mcp',
      AUTHORIZATION_SERVER_PATH,
      MCP_PATH,
      // Feeds and calendars (static files), search and the change feed (the function, but for its first page).
      '/feeds/all.xml',
      '/feeds/all.atom',
      '/feeds/all.json',
      '/feeds/events.xml',
      '/calendar/events.ics',
      '/calendar/webinars.ics',
      '/api/search?q=lineage',
      SEARCH_PATH,
      '/api/search?q=data&collection=events&limit=2',
      CHANGES_PATH,
      '/api/changes?limit=3',
      '/api/changes?since=abc',
      '/api/blog-posts?updated_since=2026-01-01T00:00:00Z',
      '/api/events?updated_since=yesterday',
      // The list queries of issue 31: computed by the function, the same bytes and headers as the gateway's.
      '/api/blog-posts?author=jose-nunez&sort=title&fields=title,slug',
      '/api/case-studies?tag=finops,lineage&exclude=cobalt-and-pine-finops',
      '/api/events?when=upcoming&sort=starts_at&limit=3',
      '/api/webinars?published_after=2025-12-31&published_before=2027-01-01',
      '/api/events?sort=rank',
      `/api/blog-posts/${manifest.collections['blog-posts']![0]!.slug}?fields=title,body`,
      `/api/changes?since=${firstChanges.meta.next_cursor}`,
    ]
    const tail = [
      '?page=2',
      '?limit=5&page=2',
      '?limit=5&page=1',
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?limit=',
      '?limit=05',
      '?page=0',
      '?tag=Bad!',
    ]
    COLLECTION_NAMES.forEach((c, i) => {
      const items = manifest.collections[c]!
      const tag = items.flatMap((item) => item.tags)[0] ?? 'none'
      paths.push(...['', '?limit=1', '?limit=10', '?limit=100', '?limit=5&utm_source=x'].map((q) => `/api/${c}${q}`))
      if (items[0]) paths.push(`/api/${c}/${items[0].slug}`)
      if (items[0] && (c === 'events' || c === 'webinars')) paths.push(`/calendar/${c}/${items[0].slug}.ics`)
      paths.push(
        ...[`/no-such-item`, `?limit=2&tag=${tag}`, ...tail]
          .filter((_, j) => j % COLLECTION_NAMES.length === i)
          .map((q) => `/api/${c}${q}`),
      )
    })
    return paths
  }

  it('answers every request of the matrix with the same status, headers and body', async () => {
    const differences: string[] = []
    const queue = matrix()
    const worker = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const [ours, theirs] = await Promise.all([ask(gateway.url, path), ask(netlify.url, path)])
        if (!isDeepStrictEqual(theirs, ours)) {
          differences.push(
            `${path}\n  gateway: ${JSON.stringify({ ...ours, body: ours.body.slice(0, 160) })}\n  netlify: ${JSON.stringify({ ...theirs, body: theirs.body.slice(0, 160) })}`,
          )
        }
      }
    }
    // The emulation starts a worker per function call: a few at a time.
    await Promise.all([worker(), worker(), worker(), worker()])
    expect(differences, `${differences.join('\n')}\n--- emulator log ---\n${netlify.log().slice(-3000)}`).toEqual([])
  }, 300_000)

  it('answers an MCP initialize with an agent key alike', async () => {
    const init = {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${agentKey}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'parity', version: '1' } },
      }),
    }
    const ours = await ask(gateway.url, MCP_PATH, init)
    expect(ours.status).toBe(200)
    expect(JSON.parse(ours.body)).toMatchObject({ result: { serverInfo: { version: API_VERSION } } })
    expect(await ask(netlify.url, MCP_PATH, init)).toEqual(ours)
    // Without the key: the same 401 challenge.
    const anonymous = { ...init, headers: { ...init.headers, authorization: '' } }
    expect(await ask(netlify.url, MCP_PATH, anonymous)).toEqual(await ask(gateway.url, MCP_PATH, anonymous))
  }, 60_000)

  it('answers a 2026-07-28 request (no handshake, envelope in _meta) with an agent key alike', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'parity', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    }
    const call = {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${agentKey}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'fetch',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'fetch', arguments: { id: 'case-studies/meridian-mutual-ledger-reconciliation' }, _meta: meta },
      }),
    }
    const ours = await ask(gateway.url, MCP_PATH, call)
    expect(ours.status).toBe(200)
    expect(JSON.parse(ours.body)).toMatchObject({
      result: { structuredContent: { id: 'case-studies/meridian-mutual-ledger-reconciliation' } },
    })
    expect(await ask(netlify.url, MCP_PATH, call)).toEqual(ours)
  }, 60_000)

  it('serves the pre-rendered lists and items from files and the rest from the function', async () => {
    const kind = async (path: string) => (await fetch(`${netlify.url}${path}`)).headers.get('x-emulator-type')
    expect(await kind('/api/blog-posts?limit=7')).toBe('redirect')
    expect(await kind('/api/blog-posts')).toBe('redirect')
    expect(await kind(`/api/blog-posts/${manifest.collections['blog-posts']![0]!.slug}`)).toBe('redirect')
    expect(await kind(API_CATALOG_PATH)).toBe('redirect')
    expect(await kind(OPENAPI_PATH)).toBe('static')
    expect(await kind('/api/blog-posts?limit=7&page=2')).toBe('function')
    expect(await kind(HEALTH_PATH)).toBe('function')
    expect(await kind(CHANGES_PATH)).toBe('redirect')
    expect(await kind('/api/changes?limit=3')).toBe('function')
    expect(await kind('/api/search?q=lineage')).toBe('function')
    expect(await kind('/api/blog-posts?updated_since=2026-01-01T00:00:00Z')).toBe('function')
    expect(await kind('/api/blog-posts?sort=title')).toBe('function')
    expect(await kind('/api/events?when=upcoming')).toBe('function')
    expect(await kind(`/api/blog-posts/${manifest.collections['blog-posts']![0]!.slug}?fields=title`)).toBe('function')
    expect(await kind('/feeds/all.atom')).toBe('static')
    expect(await kind('/calendar/events.ics')).toBe('static')
  }, 60_000)

  it('deploys functions that import nothing but Node\'s own modules, as node_bundler = "none" copies them', async () => {
    // Deployed as they are: each is one file that must not need a node_modules/ beside it. (The emulation
    // runs them from a copy in a project without node_modules/, so every test here that calls one shows it too.)
    expect(await readFile(join(REPO_ROOT, 'netlify.toml'), 'utf8')).toMatch(
      /^\[functions\]\n(?:.*\n)*?\s*node_bundler = "none"$/m,
    )
    const dir = join(project.root, FUNCTIONS_DIR)
    const names = (await readdir(dir)).filter((name) => name.endsWith('.mjs')).sort()
    expect(names).toEqual([`${FUNCTION_NAME}.mjs`, ...Object.keys(SIDE_FUNCTIONS).map((n) => `${n}.mjs`)].sort())
    for (const name of names) {
      // The bundler writes a module's imports as statements of their own at the start of a line.
      const code = await readFile(join(dir, name), 'utf8')
      const imported = [...code.matchAll(/^import\b[^;'"]*?["']([^"']+)["'];?/gm)].map((m) => m[1]!)
      expect(imported.length, name).toBeGreaterThan(0)
      expect(
        imported.filter((specifier) => !isBuiltin(specifier)),
        name,
      ).toEqual([])
    }
  })

  it('answers HEAD on a pre-rendered list without a body', async () => {
    const head = await fetch(`${netlify.url}/api/events?limit=3`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await head.text()).toBe('')
  })

  it('documents the queries Netlify cannot see as malformed: a repeated or value-less parameter', async () => {
    // The gateway says 400; Netlify's rule matcher takes a repeated parameter's last
    // value and ignores one without `=`, so the CDN serves the matching file.
    for (const [query, file] of [
      ['?limit=5&limit=6', 6],
      ['?limit=5&page', 5],
    ] as const) {
      expect((await ask(gateway.url, `/api/webinars${query}`)).status).toBe(400)
      const cdn = await ask(netlify.url, `/api/webinars${query}`)
      expect(cdn.status).toBe(200)
      expect(cdn.body).toBe((await ask(gateway.url, `/api/webinars?limit=${file}`)).body)
    }
  })
})
