/**
 * `npm run dev` with images: saving a new version of an image recompiles the
 * items that use it (their own file unchanged) and serves the new files at
 * once, from memory and the media cache, without a full rebuild; an edit to
 * another item processes nothing. dist/ then holds what `npm run build` makes.
 */
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import type { ImageObject } from '../../../contract/media.ts'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { hashTree } from '../../helpers/files.ts'
import { photo } from '../../helpers/images.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { until } from '../../helpers/until.ts'

const post = `---
title: Pictured
published_at: 2026-01-05
image: { url: pictured/cover.jpg, alt: The cover }
authors:
  - name: Ada
---
Intro.
`

describe('npm run dev with images', () => {
  let project: TempProject
  let dev: DevServer
  const printed: string[] = []
  const cover = join('content', 'blog-posts', 'pictured', 'cover.jpg')
  const image = async () =>
    ((await (await fetch(`${dev.url}/api/blog-posts/pictured`)).json()) as { image: ImageObject }).image

  beforeAll(async () => {
    project = await createProject({
      'content/blog-posts/pictured.md': post,
      'content/blog-posts/other.md': validPost('Other'),
    })
    await mkdir(dirname(join(project.root, cover)), { recursive: true })
    await writeFile(join(project.root, cover), await photo(800, 600))
    dev = await startDev({ root: project.root, port: 0, settleMs: 50, print: (line) => printed.push(line) })
    await dev.settled()
  })
  afterAll(async () => {
    await dev?.close()
    await project?.remove()
  })

  it('serves a changed image at once under new names, and its files', async () => {
    const before = await image()
    expect(before).toMatchObject({ width: 800, height: 600 })
    await writeFile(join(project.root, cover), await photo(640, 640))
    const after = await until(image, { holds: (now) => now.url !== before.url, what: 'the new image' })
    expect(after).toMatchObject({ width: 640, height: 640 })
    expect(after.sources.map((s) => s.width)).toEqual([480, 640, 480, 640, 480, 640])
    const served = await fetch(`${dev.url}${after.sources[1]!.url}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata()
    expect([meta.width, meta.height]).toEqual([640, 640])
    expect(printed.join('\n')).not.toMatch(/✗/)
  })

  it('processes nothing on an edit to another item, and writes what npm run build writes', async () => {
    const files = join(project.root, '.cache', 'media-v1', 'files')
    const stamps = async () =>
      Object.fromEntries(
        await Promise.all(
          (await readdir(files))
            .filter((n) => n.startsWith('cover-'))
            .map(async (n) => [n, (await stat(join(files, n))).mtimeMs]),
        ),
      )
    await dev.settled()
    const before = await stamps()
    await writeFile(join(project.root, 'content/blog-posts/other.md'), validPost('Other, edited'))
    await until(async () => (await fetch(`${dev.url}/api/blog-posts/other`)).text(), {
      holds: (body) => body.includes('Other, edited'),
      what: 'the edited item',
    })
    await dev.settled()
    expect(await stamps()).toEqual(before)
    const fromDev = await hashTree(project.dist)
    await rm(project.dist, { recursive: true })
    await buildSite({ root: project.root, force: true, apiOrigin: dev.apiOrigin })
    expect(await hashTree(project.dist)).toEqual(fromDev)
  })
})
