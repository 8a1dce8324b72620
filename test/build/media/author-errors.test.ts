/**
 * Image errors are author errors like any other: the file, line and column
 * where the image is named, the field, and what to do; every one of a run
 * reported at once with the other errors, by `check` (headers only) and by
 * the build (dist/ left as it was).
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { photo } from '../../helpers/images.ts'
import { createProject, type TempProject } from '../../helpers/project.ts'

const FILE = 'content/blog-posts/broken.md'
const BROKEN = `---
title: Broken images
published_at: 2026-01-05
image: { url: covr.jpg, alt: A cover }
authors:
  - name: Ada
    avatar_url: ../../outside.png
  - name: Bo
    avatar_url: notes.bmp
tags: [Not A Tag]
---
Intro.

![A fake](fake.jpg) and ![](cover.jpg) and ![   ](cover.jpg).

| a | b |
|---|---|
| ![Huge](huge.png) | x |
`

const RAW = `---
title: Raw HTML
published_at: 2026-01-05
authors:
  - name: Ada
---
Intro.

<p><img src="cover.jpg" alt="raw"></p>
`

const EXPECTED = [
  'content/blog-posts/broken.md:4:15 image.url: covr.jpg does not exist (did you mean cover.jpg?)',
  'content/blog-posts/broken.md:7:17 authors[0].avatar_url: ../../outside.png leads outside content/: keep images inside the content folder',
  'content/blog-posts/broken.md:9:17 authors[1].avatar_url: notes.bmp is not an image the build reads (JPEG, PNG, WebP, AVIF or GIF: jpg, jpeg, png, webp, avif, gif)',
  'content/blog-posts/broken.md:10:8 tags[0]: must be lowercase letters, digits and single hyphens, like data-quality: write not-a-tag',
  'content/blog-posts/broken.md:14:1 body: fake.jpg cannot be read as an image (Input buffer contains unsupported image format)',
  'content/blog-posts/broken.md:14:25 body: image cover.jpg needs alt text: ![describe the image](cover.jpg)',
  'content/blog-posts/broken.md:14:44 body: image cover.jpg needs alt text: ![describe the image](cover.jpg)',
  'content/blog-posts/broken.md:18:3 body: huge.png is 12500×10 pixels, more than an image may have (12000 pixels a side, 40 megapixels): export it smaller',
  'content/blog-posts/raw.md:9:14 body: cover.jpg is in raw HTML, where local images are not processed: write it as Markdown, ![describe it](path)',
]

describe('image author errors', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await createProject({
      [FILE]: BROKEN,
      'content/blog-posts/raw.md': RAW,
      'content/blog-posts/notes.bmp': 'BM not really',
    })
    const bytes = async (path: string, data: Buffer) => {
      await mkdir(dirname(join(project.root, path)), { recursive: true })
      await writeFile(join(project.root, path), data)
    }
    await bytes('content/blog-posts/cover.jpg', await photo(64, 48))
    await bytes('content/blog-posts/fake.jpg', Buffer.from('<html>not an image</html>'))
    await bytes(
      'content/blog-posts/huge.png',
      await sharp({ create: { width: 12_500, height: 10, channels: 3, background: '#888' } })
        .png()
        .toBuffer(),
    )
    await bytes('outside.png', await photo(10, 10, { format: 'png' }))
  })
  afterAll(() => project.remove())

  it('are reported at once with the other errors, by check', async () => {
    const error = await checkContent(project.root).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentErrors)
    expect((error as ContentErrors).errors.map((e) => e.message)).toEqual(EXPECTED)
  })

  it('stop the build the same way, with nothing written', async () => {
    const error = await buildSite({ root: project.root, cache: false }).catch((e: unknown) => e)
    expect((error as ContentErrors).errors.map((e) => e.message)).toEqual(EXPECTED)
    // Neither dist/ nor the temporary folder the writer opened while the content compiled.
    expect((await readdir(project.root)).filter((name) => /^(dist$|\.dist-)/.test(name))).toEqual([])
  })
})
