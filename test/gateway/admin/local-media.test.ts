/**
 * Decap's media actions in the local backend of `npm run dev`, over real
 * HTTP: an author's images are listed, read, uploaded and deleted where the
 * build looks for them (beside the Markdown, in an item's folder, in
 * content/people/), a save writes its images with its file, and everything
 * else is refused with Decap's `{ error }` and nothing written: another
 * origin, a path outside those folders or through a link out of the
 * project, a file that is not an image by its content, an image over the
 * build's size bound, a request over the endpoint's.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEDIA_LIMITS } from '../../../contract/media.ts'
import { ADMIN_LOCAL_BACKEND_PATH } from '../../../contract/public-paths.ts'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { photo } from '../../helpers/images.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { rawRequest } from '../../helpers/raw-http.ts'

interface MediaFile {
  id: string
  name: string
  path: string
  content: string
  encoding: string
}

describe('the local backend’s images', () => {
  let project: TempProject
  let dev: DevServer
  let png: Buffer
  let jpeg: Buffer
  const call = async (action: string, params: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${dev.url}${ADMIN_LOCAL_BACKEND_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: dev.url, ...headers },
      body: JSON.stringify({ action, params }),
    })
    return { status: response.status, body: (await response.json()) as unknown }
  }
  const asset = (path: string, bytes: Buffer) => ({ path, content: bytes.toString('base64'), encoding: 'base64' })
  const exists = (path: string) =>
    readFile(join(project.root, path)).then(
      () => true,
      () => false,
    )

  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/existing.md': validPost('An existing post') })
    png = await photo(64, 48, { format: 'png' })
    jpeg = await photo(64, 64)
    dev = await startDev({ root: project.root, port: 0, distDir: false, print: () => {} })
  })
  afterAll(async () => {
    await dev?.close()
    await project?.remove()
  })

  it('uploads, lists, reads and deletes images beside an item, in its folder and among the shared portraits', async () => {
    const uploaded = await call('persistMedia', { asset: asset('content/blog-posts/existing/cover.png', png) })
    expect(uploaded).toMatchObject({
      status: 200,
      body: { name: 'cover.png', path: 'content/blog-posts/existing/cover.png', content: png.toString('base64') },
    })
    expect(await readFile(join(project.root, 'content/blog-posts/existing/cover.png'))).toEqual(png)
    for (const [path, bytes] of [
      ['content/people/ada.jpg', jpeg],
      ['content/blog-posts/beside.png', png],
    ] as const)
      expect((await call('persistMedia', { asset: asset(path, bytes) })).status, path).toBe(200)

    // A folder lists its images only: not the Markdown beside them, not an item's folder.
    const names = async (folder: string) =>
      ((await call('getMedia', { mediaFolder: folder })).body as MediaFile[]).map((f) => f.path)
    expect(await names('content/blog-posts')).toEqual(['content/blog-posts/beside.png'])
    expect(await names('content/blog-posts/existing')).toEqual(['content/blog-posts/existing/cover.png'])
    expect(await names('content/people/')).toEqual(['content/people/ada.jpg'])
    expect(await names('content/blog-posts/not-yet')).toEqual([])
    const read = (await call('getMediaFile', { path: 'content/people/ada.jpg' })).body as MediaFile
    expect(Buffer.from(read.content, 'base64')).toEqual(jpeg)
    expect(await call('getMediaFile', { path: 'content/people/nobody.jpg' })).toEqual({
      status: 404,
      body: { error: 'there is no image at content/people/nobody.jpg' },
    })
    // Entries are files: an item's folder of images is not an entry.
    const entries = (await call('entriesByFolder', { folder: 'content/blog-posts', extension: 'md', depth: 1 }))
      .body as { file: { path: string } }[]
    expect(entries.map((e) => e.file.path)).toEqual(['content/blog-posts/existing.md'])

    expect((await call('deleteFiles', { paths: ['content/blog-posts/beside.png'] })).status).toBe(200)
    expect(await exists('content/blog-posts/beside.png')).toBe(false)
  })

  it('writes a save’s images with its file', async () => {
    const saved = await call('persistEntry', {
      dataFiles: [{ path: 'content/blog-posts/new-post.md', raw: validPost('New post') }],
      assets: [asset('content/blog-posts/new-post/cover.png', png), asset('content/blog-posts/new-post/b.jpg', jpeg)],
    })
    expect(saved.status).toBe(200)
    expect((await readdir(join(project.root, 'content/blog-posts/new-post'))).sort()).toEqual(['b.jpg', 'cover.png'])
    expect(await readFile(join(project.root, 'content/blog-posts/new-post.md'), 'utf8')).toBe(validPost('New post'))
  })

  it('refuses images outside the collections’ and the people’s folders, and file names the editor never makes', async () => {
    for (const path of [
      'content/site.png',
      'content/other/x.png',
      'content/blog-posts/../../escape.png',
      'content/people/../../escape.png',
      'content/blog-posts/item/deeper/x.png',
      'content/people/team/x.png',
      '/etc/x.png',
      '../x.png',
      'content/blog-posts/.hidden.png',
      'content/blog-posts/item\\x.png',
      'content/blog-posts/x.svg',
      'content/blog-posts/x.md',
      'content/blog-posts/x',
      `content/blog-posts/${'a'.repeat(300)}.png`,
    ]) {
      const response = await call('persistMedia', { asset: asset(path, png) })
      expect(response.status, path).toBe(422)
      expect((response.body as { error: string }).error, path).toMatch(/is not (?:a folder of images|an image)/)
      expect((await call('getMediaFile', { path })).status, path).toBe(422)
    }
    expect((await call('getMedia', { mediaFolder: 'content' })).status).toBe(422)
    expect((await call('getMedia', { mediaFolder: '/tmp' })).status).toBe(422)
    expect((await call('deleteFiles', { paths: ['content/site.yaml'] })).status).toBe(422)
    expect(await exists('escape.png')).toBe(false)
    expect(await readdir(join(project.root, 'content'))).not.toContain('other')
  })

  it('refuses a file that is not an image by its content, or not base64, whatever its name', async () => {
    const text = await call('persistMedia', {
      asset: asset('content/blog-posts/existing/notes.png', Buffer.from('<svg onload="alert(1)"></svg>')),
    })
    expect(text).toEqual({
      status: 422,
      body: {
        error: 'content/blog-posts/existing/notes.png is not a JPEG, PNG, WebP, AVIF or GIF image (by its content)',
      },
    })
    const raw = await call('persistMedia', {
      asset: { path: 'content/blog-posts/existing/raw.png', content: png.toString('latin1'), encoding: 'utf8' },
    })
    expect(raw.status).toBe(422)
    expect(await exists('content/blog-posts/existing/notes.png')).toBe(false)
    expect(await exists('content/blog-posts/existing/raw.png')).toBe(false)
  })

  it('refuses a save with one bad image whole: neither its file nor its other images are written', async () => {
    const saved = await call('persistEntry', {
      dataFiles: [{ path: 'content/blog-posts/half.md', raw: validPost('Half') }],
      assets: [
        asset('content/blog-posts/half/good.png', png),
        asset('content/blog-posts/half/bad.png', Buffer.from('x')),
      ],
    })
    expect(saved.status).toBe(422)
    expect(await exists('content/blog-posts/half.md')).toBe(false)
    expect(await exists('content/blog-posts/half/good.png')).toBe(false)
  })

  it('refuses an image over the build’s size bound, and a request over the endpoint’s', async () => {
    const big = Buffer.alloc(MEDIA_LIMITS.bytes + 1)
    png.copy(big)
    const response = await call('persistMedia', { asset: asset('content/blog-posts/existing/big.png', big) })
    expect(response).toEqual({
      status: 413,
      body: { error: 'content/blog-posts/existing/big.png is larger than 20 MB, the largest image the build accepts' },
    })
    expect(await exists('content/blog-posts/existing/big.png')).toBe(false)
    // Announced larger than any save may be: refused before a byte of it is read.
    const { host } = new URL(dev.url)
    const answer = await rawRequest(
      dev.url,
      `POST ${ADMIN_LOCAL_BACKEND_PATH} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${dev.url}\r\nContent-Type: application/json\r\nContent-Length: ${2 ** 30}\r\nConnection: close\r\n\r\n{`,
    )
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/^This save is larger than \d+ MB/) })
  })

  it('refuses a folder that leads out of the project through a link, and answers only this server’s pages', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'outside-'))
    try {
      await writeFile(join(outside, 'secret.png'), png)
      await symlink(outside, join(project.root, 'content/blog-posts/linked'))
      await mkdir(join(project.root, 'content/blog-posts/linked-file'), { recursive: true })
      await symlink(join(outside, 'secret.png'), join(project.root, 'content/blog-posts/linked-file/secret.png'))
      for (const [action, params] of [
        ['getMedia', { mediaFolder: 'content/blog-posts/linked' }],
        ['getMediaFile', { path: 'content/blog-posts/linked/secret.png' }],
        ['getMediaFile', { path: 'content/blog-posts/linked-file/secret.png' }],
        ['persistMedia', { asset: asset('content/blog-posts/linked/new.png', png) }],
      ] as const) {
        const response = await call(action, params)
        expect(response, action).toMatchObject({
          status: 422,
          body: { error: expect.stringContaining('outside the project') },
        })
      }
      expect(await readdir(outside)).toEqual(['secret.png'])
    } finally {
      await rm(outside, { recursive: true, force: true })
    }
    const upload = { asset: asset('content/blog-posts/existing/x.png', png) }
    expect((await call('persistMedia', upload, { origin: 'https://evil.example' })).status).toBe(403)
    expect(
      (await call('getMediaFile', { path: 'content/people/ada.jpg' }, { 'sec-fetch-site': 'cross-site' })).status,
    ).toBe(403)
    expect(await exists('content/blog-posts/existing/x.png')).toBe(false)
  })
})
