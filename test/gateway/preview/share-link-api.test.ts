/**
 * The editor's share-link endpoint (issue 52), POST
 * /api/preview/{collection}/{slug}/share-links, on the whole gateway as
 * `npm start` wires it, with real API keys and real tokens of the embedded
 * issuer: RFC 6750 answers without the preview scope, a 201 with a link that
 * opens the review page of that item (only its hash stored, the making in the
 * audit trail), and RFC 9457 problems for every kind of bad input.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey, hashApiKey } from '../../../gateway/auth/api-key.ts'
import { openAuditTrail } from '../../../gateway/auth/audit/audit-trail.ts'
import { newKeyId, writeKeysFile } from '../../../gateway/auth/keys-file.ts'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { DRAFT, RELEASE, SCHEDULED, writePreviewPosts } from './preview-posts.ts'

let project: TempProject
let gateway: TestGateway
const keys = {
  reviewer: generateApiKey('live'),
  sandbox: generateApiKey('sandbox'),
  agent: generateApiKey('live'),
  /** A preview key that ends in two days. */
  brief: generateApiKey('live'),
}
const BRIEF_ENDS = new Date(Date.now() + 2 * 86_400_000).toISOString()

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await writePreviewPosts(project)
  const created_at = new Date().toISOString()
  const entry = (key: string, role: string, label: string, expires_at?: string) => ({
    id: newKeyId(),
    hash: hashApiKey(key),
    role,
    label,
    created_at,
    ...(expires_at && { expires_at }),
  })
  const keysFile = join(project.root, 'keys.json')
  await writeKeysFile(keysFile, {
    version: 1,
    keys: [
      entry(keys.reviewer, 'preview.read', 'reviewer'),
      entry(keys.sandbox, 'sandbox.read', 'sandbox'),
      entry(keys.agent, 'agent.mcp', 'agent'),
      entry(keys.brief, 'preview.read', 'brief', BRIEF_ENDS),
    ],
  } as Parameters<typeof writeKeysFile>[1])
  gateway = await startGateway(project.dist, {
    filesDir: project.root,
    keysFile,
    clients: { legal: ['content.preview.read'], reader: ['api.read', 'mcp.tools.invoke'] },
  })
}, 120_000)

afterAll(async () => {
  await gateway?.close()
  await project?.remove()
})

const PATH = `/api/preview/blog-posts/${DRAFT.slug}/share-links`

function post(
  path: string,
  credential: string | undefined,
  body: string = JSON.stringify({ expires: '72h' }),
  type = 'application/json',
) {
  const headers: Record<string, string> = { 'content-type': type }
  if (credential) headers.authorization = `Bearer ${credential}`
  return fetch(`${gateway.url}${path}`, { method: 'POST', headers, body })
}

async function problemOf(res: Response, status: number, type: string) {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect(res.headers.get('cache-control')).toBe('private, no-store')
  const body = (await res.json()) as { type: string; detail: string; errors?: { parameter: string }[] }
  expect(body.type).toBe(`/problems/${type}`)
  expect(body.detail).not.toMatch(/\n\s+at /)
  return body
}

describe('making a share link through the API', () => {
  it('is a 401 without a credential, naming the scope', async () => {
    const res = await post(PATH, undefined)
    await problemOf(res, 401, 'unauthorized')
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata=".*", scope="content\.preview\.read"$/,
    )
  })

  it('is a 403 insufficient_scope for a sandbox key, an agent key and a token without the preview scope', async () => {
    const token = await gateway.token('reader', ['mcp.tools.invoke'])
    for (const credential of [keys.sandbox, keys.agent, token]) {
      const res = await post(PATH, credential)
      await problemOf(res, 403, 'forbidden')
      expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/)
    }
    // Nothing was made.
    expect(await linkRecords()).toEqual([])
  })

  it('is a 201 with a link for a preview key, which opens the review page of that item; only its hash is kept', async () => {
    const res = await post(PATH, keys.reviewer)
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const made = (await res.json()) as Record<string, string | null>
    expect(made).toMatchObject({ collection: 'blog-posts', slug: DRAFT.slug, state: 'draft', release_at: null })
    expect(made.url).toMatch(new RegExp(`^${gateway.url}/review/pvl_[0-9a-f]{12}_[0-9A-Za-z]{32}$`))
    expect(Math.round((Date.parse(made.expires_at!) - Date.parse(made.created_at!)) / 60_000)).toBe(72 * 60)
    const page = await fetch(made.url!)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(DRAFT.title)
    expect(html).toContain(DRAFT.phrase)
    const secret = made.url!.split('_').at(-1)!
    const stored = await linkRecords()
    expect(stored.some((text) => text.includes(made.id!))).toBe(true)
    expect(stored.some((text) => text.includes(secret))).toBe(false)
    // The audit trail says which key made it.
    const [entry] = await openAuditTrail(openFileStore(gateway.stateDir), { via: 'cli', by: 'test' }).read({
      limit: 1,
      subject: 'share-link',
    })
    expect(entry).toMatchObject({ action: 'create', id: made.id, via: 'gateway' })
    expect(entry!.by).toMatch(/^api key key_/)
  })

  it('is a 201 for an OAuth token with content.preview.read, for a scheduled item too', async () => {
    const token = await gateway.token('legal', ['content.preview.read'])
    const res = await post(`/api/preview/blog-posts/${SCHEDULED.slug}/share-links`, token, '{"expires":"7d"}')
    expect(res.status).toBe(201)
    const made = (await res.json()) as { url: string; state: string; release_at: string }
    expect(made).toMatchObject({ state: 'scheduled', release_at: RELEASE })
    expect(await (await fetch(made.url)).text()).toContain(SCHEDULED.title)
  })
})

describe('bad input', () => {
  it('an unknown item or collection is a 404', async () => {
    await problemOf(await post('/api/preview/blog-posts/no-such-post/share-links', keys.reviewer), 404, 'not-found')
    await problemOf(
      await post(`/api/preview/no-such-things/${DRAFT.slug}/share-links`, keys.reviewer),
      404,
      'not-found',
    )
  })

  it('a missing, unknown or bad expiry, or another member, is a 422 naming it', async () => {
    for (const [body, pattern] of [
      ['{}', /is needed/],
      ['{"expires": 72}', /is needed/],
      ['{"expires": "soon"}', /must be a number of days/],
      ['{"expires": "0h"}', /at once/],
      ['{"expires": "2020-01-01"}', /not in the future/],
      ['{"expires": "72h", "item": "blog-posts/x"}', /takes `expires` only/],
    ] as const) {
      const problem = await problemOf(await post(PATH, keys.reviewer, body), 422, 'invalid-body')
      expect(problem.detail, body).toMatch(pattern)
      expect(problem.errors?.[0]?.parameter, body).toBe(body.includes('item') ? 'item' : 'expires')
    }
  })

  it("a link may not outlive the API key that makes it: 422, and within the key's life a 201", async () => {
    const problem = await problemOf(await post(PATH, keys.brief, '{"expires":"7d"}'), 422, 'invalid-body')
    expect(problem.detail).toContain("the API key's own expiry")
    expect((await post(PATH, keys.brief, '{"expires":"24h"}')).status).toBe(201)
  })

  it('a body that is not a JSON object is a 400, another media type a 415, a large one a 413', async () => {
    await problemOf(await post(PATH, keys.reviewer, 'expires=72h'), 400, 'bad-request')
    await problemOf(await post(PATH, keys.reviewer, '["72h"]'), 400, 'bad-request')
    await problemOf(await post(PATH, keys.reviewer, '{"expires":"72h"}', 'text/plain'), 415, 'unsupported-media-type')
    const large = JSON.stringify({ expires: '72h', pad: 'x'.repeat(10_000) })
    await problemOf(await post(PATH, keys.reviewer, large), 413, 'payload-too-large')
  })

  it('answers POST only', async () => {
    const res = await fetch(`${gateway.url}${PATH}`, { headers: { authorization: `Bearer ${keys.reviewer}` } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
  })
})

/** The share links' records in the state store's files. */
async function linkRecords(): Promise<string[]> {
  const files = await readdir(gateway.stateDir, { recursive: true, withFileTypes: true }).catch(() => [])
  return Promise.all(
    files
      .filter((e) => e.isFile() && join(e.parentPath, e.name).includes('preview-links'))
      .map((e) => readFile(join(e.parentPath, e.name), 'utf8')),
  )
}
