/**
 * The reviewers' preview under Netlify's own local emulation: the preview
 * API and share links are answered by the gateway function, which finds the
 * preview the build wrote beside dist/ in its bundle (netlify.toml's
 * included_files); the CDN, serving dist/ alone, has no file of it, and
 * no preview answer may be kept (Netlify-CDN-Cache-Control). The share link
 * lives in the site's Blobs, where the keys CLI writes it.
 */
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey, hashApiKey } from '../../../gateway/auth/api-key.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { newKeyId, writeKeysFile } from '../../../gateway/auth/keys-file.ts'
import { copyOfFixtureContent, REPO_ROOT, type TempProject } from '../../helpers/project.ts'
import { DRAFT, SCHEDULED, writePreviewPosts } from '../preview/preview-posts.ts'
import { bundledFunctions } from './functions.ts'
import { startEmulator, withBlobs, type Emulator } from './emulator.ts'

let project: TempProject
let netlify: Emulator
let reviewerKey: string

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await writePreviewPosts(project)
  await bundledFunctions(project.root)
  await copyFile(join(REPO_ROOT, 'netlify.toml'), join(project.root, 'netlify.toml'))
  reviewerKey = generateApiKey('live')
  const created_at = new Date().toISOString()
  await writeKeysFile(join(project.root, 'keys.json'), {
    version: 1,
    keys: [{ id: newKeyId(), hash: hashApiKey(reviewerKey), role: 'preview.read', label: 'reviewer', created_at }],
  })
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  netlify = await startEmulator(project.root, {
    OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
    KEYS_FILE: join(project.root, 'keys.json'),
    PUBLIC_URL: 'https://content.example.test',
    // Not the project's dist/: the function finds the build, and the preview beside it, in its own bundle.
    DIST_DIR: join(project.root, 'no-such-dist'),
  })
}, 600_000)

afterAll(async () => {
  await netlify?.stop()
  await project?.remove()
})

const get = (path: string, key?: string) =>
  fetch(`${netlify.url}${path}`, {
    ...(key && { headers: { authorization: `Bearer ${key}` } }),
    signal: AbortSignal.timeout(150_000),
  })

describe('the preview on Netlify', () => {
  it('is answered by the gateway function, drafts included, and kept by no cache', async () => {
    const list = await get('/api/preview/blog-posts?limit=100', reviewerKey)
    expect(list.status, netlify.log()).toBe(200)
    // The function's answer: the gateway's request id and API version, which no file of the CDN carries.
    expect(list.headers.get('x-request-id')).toMatch(/\S/)
    expect(list.headers.get('api-version')).toMatch(/\S/)
    expect(list.headers.get('cache-control')).toBe('private, no-store')
    expect(list.headers.get('netlify-cdn-cache-control')).toBe('no-store')
    const slugs = ((await list.json()) as { data: { slug: string; state: string }[] }).data.map(
      (r) => `${r.slug} ${r.state}`,
    )
    expect(slugs).toEqual(expect.arrayContaining([`${DRAFT.slug} draft`, `${SCHEDULED.slug} scheduled`]))
    const item = await get(`/api/preview/blog-posts/${SCHEDULED.slug}`, reviewerKey)
    expect(((await item.json()) as { state: string }).state).toBe('scheduled')
    const refused = await get('/api/preview/blog-posts')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('cache-control')).toBe('private, no-store')
  })

  it('has no file on the CDN: neither the preview nor the draft is published', async () => {
    for (const path of ['/dist-preview/preview.json', '/preview.json', `/api/blog-posts/${DRAFT.slug}.json`]) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect(await res.text(), path).not.toContain(DRAFT.phrase)
    }
    expect((await get(`/api/blog-posts/${DRAFT.slug}`, reviewerKey)).status).toBe(404)
  })

  it('opens a share link the keys CLI stored in the Blobs, and not once revoked', async () => {
    const io = (out: string[]) => ({
      env: { STATE_STORE: 'netlify-blobs', PUBLIC_URL: netlify.url },
      cwd: project.root,
      out: (l: string) => out.push(l),
      err: () => {},
    })
    const out: string[] = []
    const code = await withBlobs(netlify, () =>
      runKeysCli(['preview-link', `blog-posts/${DRAFT.slug}`, '--expires', '72h', '--root', project.root], io(out)),
    )
    expect(code).toBe(0)
    const path = new URL(out[0]!).pathname
    const page = await get(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('x-robots-tag')).toMatch(/noindex/)
    expect(await page.text()).toContain(DRAFT.phrase)
    expect(await withBlobs(netlify, () => runKeysCli(['preview-link', 'revoke', out[0]!], io([])))).toBe(0)
    expect((await get(path)).status).toBe(410)
  })
})
