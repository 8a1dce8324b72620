/**
 * The media cache answers only what the current settings would make: after
 * a change of a recipe's widths, an encoder's quality, sharp's (or libvips')
 * version or MEDIA_VERSION, a warm .cache/media-v1 (as CI restores one from
 * an older run) must not give back the old files. The settings are code
 * (build/media/recipes.ts), so each build here loads another definition of
 * them, as a changed checkout or dependency would; a change to one recipe
 * leaves the other's files alone.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { mediaSettings, type MediaSettings } from '../../../build/media/recipes.ts'
import type { ImageObject } from '../../../contract/media.ts'
import { photo } from '../../helpers/images.ts'
import { createProject, type TempProject } from '../../helpers/project.ts'

const POST = `---
title: A post with a picture
published_at: 2026-01-05
image: { url: cover.jpg, alt: A gradient }
authors:
  - name: Ada Author
    avatar_url: ada.png
---
First paragraph.
`

let project: TempProject

async function writeBytes(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(join(project.root, path)), { recursive: true })
  await writeFile(join(project.root, path), bytes)
}

/** Build with `settings` (forced: the inputs are the same, as they are when only the code changed) and read the images. */
async function buildWith(settings: MediaSettings): Promise<{ image: ImageObject; avatar: ImageObject }> {
  await buildSite({ root: project.root, force: true, mediaSettings: settings })
  const record = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/post.json'), 'utf8')) as {
    image: ImageObject
    authors: { avatar: ImageObject }[]
  }
  return { image: record.image, avatar: record.authors[0]!.avatar }
}

const MEDIA = mediaSettings()
const names = (image: ImageObject) => image.sources.map((s) => s.url.slice(s.url.lastIndexOf('/') + 1))
/** The file name of an image's widest JPEG. */
const largestJpeg = (image: ImageObject) => {
  const url = image.sources.filter((s) => s.format === 'jpeg').at(-1)!.url
  return url.slice(url.lastIndexOf('/') + 1)
}
const cacheFile = (name: string) => join(project.root, '.cache', 'media-v1', 'files', name)
const mtimes = async (image: ImageObject) =>
  Promise.all(names(image).map(async (n) => (await stat(cacheFile(n))).mtimeMs))

describe('the media cache after a change of settings', () => {
  let first: { image: ImageObject; avatar: ImageObject }
  let firstJpegBytes: number

  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/post.md': POST })
    await writeBytes('content/blog-posts/cover.jpg', await photo(2000, 1400))
    await writeBytes('content/blog-posts/ada.png', await photo(400, 400, { format: 'png' }))
    first = await buildWith(MEDIA)
    firstJpegBytes = (await readFile(cacheFile(largestJpeg(first.image)))).byteLength
  })
  afterAll(() => project?.remove())

  it('reprocesses at a recipe’s new widths, and leaves the other recipe’s files as they were', async () => {
    const avatarTimes = await mtimes(first.avatar)
    const widths = { ...MEDIA.recipes.image, widths: [400, 800] }
    const { image, avatar } = await buildWith({
      ...MEDIA,
      recipes: { ...MEDIA.recipes, image: widths },
    })
    expect([...new Set(image.sources.map((s) => s.width))]).toEqual([400, 800])
    expect(image.width).toBe(800)
    expect(names(avatar)).toEqual(names(first.avatar))
    expect(await mtimes(avatar)).toEqual(avatarTimes)
  })

  it('reprocesses with an encoder’s new quality: other bytes under other names', async () => {
    const { image } = await buildWith({
      ...MEDIA,
      encoders: { ...MEDIA.encoders, jpeg: { ...MEDIA.encoders.jpeg, quality: 30 } },
    })
    const name = largestJpeg(image)
    expect(name).not.toBe(largestJpeg(first.image))
    expect((await readFile(cacheFile(name))).byteLength).toBeLessThan(firstJpegBytes)
  })

  it.each([
    ['sharp’s version', { ...MEDIA, libraries: { ...MEDIA.libraries, sharp: '0.0.0-other' } }],
    ['libvips’ version', { ...MEDIA, libraries: { ...MEDIA.libraries, vips: '0.0.0-other' } }],
    ['MEDIA_VERSION', { ...MEDIA, version: MEDIA.version + 1 }],
  ])('reprocesses every image after a change of %s', async (_what, settings) => {
    const { image, avatar } = await buildWith(settings)
    for (const [now, then] of [
      [image, first.image],
      [avatar, first.avatar],
    ] as const) {
      expect(now.sources.map((s) => `${s.format} ${s.width}`)).toEqual(
        then.sources.map((s) => `${s.format} ${s.width}`),
      )
      for (const name of names(now)) expect(names(then)).not.toContain(name)
    }
  })

  it('gives the first build’s names and bytes again with the first settings', async () => {
    const { image } = await buildWith(MEDIA)
    expect(names(image)).toEqual(names(first.image))
  })
})
