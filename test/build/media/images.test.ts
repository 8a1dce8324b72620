/**
 * Local images, processed by a real build from images made here: every
 * width of the ladder below the original and never above it, AVIF + WebP + a
 * JPEG (PNG with transparency), EXIF orientation applied and metadata
 * stripped, names and bytes stable across builds, decodable ThumbHash
 * placeholders, the responsive body HTML within the sanitiser's allow-list,
 * social cards for items without an image, and the files served by the
 * gateway as immutable.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Root } from 'hast'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import sharp from 'sharp'
import { thumbHashToApproximateAspectRatio, thumbHashToRGBA } from 'thumbhash'
import { unified } from 'unified'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { BODY_SCHEMA } from '../../../build/pipeline/sanitize-schema.ts'
import { type BodyTree, bodyNodes } from '../../../contract/body-tree.ts'
import type { ImageObject, SocialImage } from '../../../contract/media.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { halves, photo, pixel, transparent } from '../../helpers/images.ts'
import { createProject, SITE_YAML, type TempProject } from '../../helpers/project.ts'

const API = 'https://api.fixture.example'

const post = (front: string, body = 'First paragraph.\n') => `---
title: A post with pictures
published_at: 2026-01-05
${front}authors:
  - name: Ada Author
    avatar_url: people/ada.png
---
${body}`

async function writeBytes(project: TempProject, path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(join(project.root, path)), { recursive: true })
  await writeFile(join(project.root, path), bytes)
}

async function read(project: TempProject, path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(project.dist, path), 'utf8')) as Record<string, unknown>
}

/** The dist/ file an absolute media URL names. */
const fileOf = (project: TempProject, url: string) => join(project.dist, url.slice(API.length + 1))

describe('local images in a build', () => {
  let project: TempProject
  let gateway: TestGateway

  beforeAll(async () => {
    project = await createProject({
      'content/site.yaml': SITE_YAML.replace(
        'url: https://www.fixture.example',
        `url: https://www.fixture.example\napi_url: ${API}`,
      ),
      'content/blog-posts/large.md': post(
        'image: { url: large/cover.jpg, alt: A gradient }\n',
        'First paragraph.\n\n![Two halves](rotated.jpg "Turned")\n\n![A small one](small.png)\n',
      ),
      'content/blog-posts/plain.md': post(''),
      'content/blog-posts/external.md': post('image: { url: "https://cdn.example.com/a.png", alt: Elsewhere }\n'),
    })
    await writeBytes(project, 'content/blog-posts/large/cover.jpg', await photo(2400, 1600))
    // Stored 400×200 on its side: EXIF orientation 6 shows it 200×400, the left (red) half on top.
    await writeBytes(project, 'content/blog-posts/rotated.jpg', await halves(400, 200, 6))
    await writeBytes(project, 'content/blog-posts/small.png', await transparent(300, 200))
    await writeBytes(project, 'content/blog-posts/people/ada.png', await photo(600, 400, { format: 'png' }))
    await buildSite({ root: project.root })
    gateway = await startGateway(project.dist)
  })
  afterAll(async () => {
    await gateway?.close()
    await project?.remove()
  })

  it('writes the ladder below the original in AVIF, WebP and JPEG, never wider than the original', async () => {
    const record = await read(project, 'api/blog-posts/large.json')
    const image = record.image as ImageObject
    expect(image).toMatchObject({ alt: 'A gradient', width: 1600, height: 1067 })
    expect(image.sources.map((s) => `${s.format} ${s.width}`)).toEqual([
      'avif 480',
      'avif 960',
      'avif 1600',
      'webp 480',
      'webp 960',
      'webp 1600',
      'jpeg 480',
      'jpeg 960',
      'jpeg 1600',
    ])
    expect(image.url).toBe(image.sources.at(-1)!.url)
    for (const source of image.sources) {
      expect(source.url.startsWith(`${API}/media/blog-posts/cover-`)).toBe(true)
      const meta = await sharp(await readFile(fileOf(project, source.url))).metadata()
      expect(meta.format).toBe(source.format === 'avif' ? 'heif' : source.format)
      expect(meta.width).toBe(source.width)
    }
    // 300 pixels wide: its own width only, never 480; with transparency the fallback is PNG.
    const html = (record.body as { html: string }).html
    expect(html).toContain('small-')
    expect(html).not.toMatch(/small-[0-9a-f]+-480/)
    expect(html).toMatch(/small-[0-9a-f]+-300\.png 300w/)
    expect(record.social_image).toEqual({ url: image.url, width: 1600, height: 1067 } satisfies SocialImage)
  })

  it('applies EXIF orientation and strips the metadata', async () => {
    const html = ((await read(project, 'api/blog-posts/large.json')).body as { html: string }).html
    expect(html).toContain('width="200" height="400"')
    const jpeg = /src="(https:[^"]+rotated-[^"]+\.jpg)"/.exec(html)![1]!
    const bytes = await readFile(fileOf(project, jpeg))
    const meta = await sharp(bytes).metadata()
    expect([meta.width, meta.height]).toEqual([200, 400])
    expect(meta.exif).toBeUndefined()
    expect(meta.orientation).toBeUndefined()
    expect(bytes.includes('Secret Photographer')).toBe(false)
    const [top, bottom] = [await pixel(bytes, 100, 50), await pixel(bytes, 100, 350)]
    expect(top[0]).toBeGreaterThan(150)
    expect(bottom[2]).toBeGreaterThan(150)
  })

  it('makes a body image responsive: picture, sources, srcset, sizes, width, height, lazy — within the allow-list', async () => {
    const record = await read(project, 'api/blog-posts/large.json')
    const body = record.body as { html: string; markdown: string }
    expect(body.html).toMatch(
      /<picture><source type="image\/avif" srcset="[^"]+ 200w" sizes="[^"]+"><source type="image\/webp" srcset="[^"]+" sizes="[^"]+"><img src="[^"]+\.jpg" alt="Two halves" title="Turned" srcset="[^"]+ 200w" sizes="[^"]+" width="200" height="400" loading="lazy" decoding="async"><\/picture>/,
    )
    const processor = unified().use(rehypeRaw).use(rehypeSanitize, BODY_SCHEMA).use(rehypeStringify)
    const tree = processor.runSync({ type: 'root', children: [{ type: 'raw', value: body.html }] } as unknown as Root)
    const resanitised = processor.stringify(tree as Root)
    expect(resanitised).toBe(body.html)
    // The published Markdown names the processed files, not paths only the repository has.
    expect(body.markdown).not.toContain('](rotated.jpg')
    expect(body.markdown).toMatch(/!\[Two halves\]\(https:\/\/api\.fixture\.example\/media\/blog-posts\/rotated-/)
    // So does body.tree: its image nodes point at the same processed files as the HTML.
    const images = [...bodyNodes((record.body as { tree: BodyTree }).tree.children)].filter((n) => n.type === 'image')
    expect(images.map((n) => [n.alt, n.src])).toEqual([
      ['Two halves', expect.stringMatching(/^https:\/\/api\.fixture\.example\/media\/blog-posts\/rotated-[^/]+\.jpg$/)],
      ['A small one', expect.stringMatching(/^https:\/\/api\.fixture\.example\/media\/blog-posts\/small-[^/]+\.png$/)],
    ])
  })

  it('gives portraits square files and the person an avatar', async () => {
    const [author] = (await read(project, 'api/blog-posts/plain.json')).authors as Record<string, unknown>[]
    const avatar = author!.avatar as ImageObject
    expect(avatar).toMatchObject({ alt: 'Ada Author', width: 256, height: 256 })
    expect(author!.avatar_url).toBe(avatar.url)
    expect(avatar.sources.map((s) => `${s.format} ${s.width}`)).toEqual([
      'avif 128',
      'avif 256',
      'webp 128',
      'webp 256',
      'jpeg 128',
      'jpeg 256',
    ])
  })

  it('has a ThumbHash placeholder that decodes to the image’s shape', async () => {
    const image = (await read(project, 'api/blog-posts/large.json')).image as ImageObject
    const hash = Buffer.from(image.placeholder!, 'base64')
    const decoded = thumbHashToRGBA(hash)
    expect(decoded.w).toBeGreaterThan(0)
    expect(decoded.rgba.length).toBe(decoded.w * decoded.h * 4)
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(1.5, 0)
  })

  it('keeps external images as written, and cards the items without an image', async () => {
    const external = await read(project, 'api/blog-posts/external.json')
    expect(external.image).toEqual({
      url: 'https://cdn.example.com/a.png',
      alt: 'Elsewhere',
      width: null,
      height: null,
      placeholder: null,
      sources: [],
    })
    const card = (await read(project, 'api/blog-posts/plain.json')).social_image as SocialImage
    expect(card.url).toMatch(/^https:\/\/api\.fixture\.example\/media\/blog-posts\/card-plain-[0-9a-f]{12}\.png$/)
    const meta = await sharp(await readFile(fileOf(project, card.url))).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630])
  })

  it('puts the image in the feeds and the Open Graph lines of llms-full.txt', async () => {
    const image = (await read(project, 'api/blog-posts/large.json')).image as ImageObject
    const card = (await read(project, 'api/blog-posts/plain.json')).social_image as SocialImage
    const json = JSON.parse(await readFile(join(project.dist, 'feeds/blog-posts.json'), 'utf8')) as {
      items: { url: string; image?: string }[]
    }
    expect(json.items.find((i) => i.url.endsWith('/large'))?.image).toBe(image.url)
    expect(json.items.find((i) => i.url.endsWith('/plain'))?.image).toBe(card.url)
    const rss = await readFile(join(project.dist, 'feeds/blog-posts.xml'), 'utf8')
    expect(rss).toContain(
      `<media:content url="${image.url}" medium="image" type="image/jpeg" width="1600" height="1067"/>`,
    )
    const atom = await readFile(join(project.dist, 'feeds/blog-posts.atom'), 'utf8')
    expect(atom).toContain(`<link rel="enclosure" href="${card.url}" type="image/png"/>`)
    const llms = await readFile(join(project.dist, 'llms-full.txt'), 'utf8')
    expect(llms).toContain(
      `og:image: ${image.url}\nog:image:width: 1600\nog:image:height: 1067\nog:image:alt: A gradient`,
    )
    expect(llms).toContain(`og:image: ${card.url}\nog:image:width: 1200\nog:image:height: 630`)
  })

  it('serves the files from the gateway as immutable, with their media type', async () => {
    const image = (await read(project, 'api/blog-posts/large.json')).image as ImageObject
    for (const [source, type] of [
      [image.sources[0]!, 'image/avif'],
      [image.sources[3]!, 'image/webp'],
      [image.sources[6]!, 'image/jpeg'],
    ] as const) {
      const response = await fetch(`${gateway.url}${source.url.slice(API.length)}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(type)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(Buffer.from(await response.arrayBuffer()).equals(await readFile(fileOf(project, source.url)))).toBe(true)
    }
    const headers = await readFile(join(project.dist, '_headers'), 'utf8')
    expect(headers).toContain('/media/*\n  cache-control: public, max-age=31536000, immutable')
  })

  it('gives the same names and bytes when built again from nothing, and reprocesses nothing on an unrelated edit', async () => {
    const first = (await read(project, '_build/manifest.json')).build as { id: string }
    const files = async () => {
      const dir = join(project.dist, 'media', 'blog-posts')
      const names = (await readdir(dir)).sort()
      return Promise.all(names.map(async (n) => [n, (await readFile(join(dir, n))).toString('base64')]))
    }
    const before = await files()
    const cacheDir = join(project.root, '.cache', 'media-v1', 'files')
    const stamps = async () =>
      Object.fromEntries(
        await Promise.all((await readdir(cacheDir)).map(async (n) => [n, (await stat(join(cacheDir, n))).mtimeMs])),
      )
    const cached = await stamps()
    await project.write('content/blog-posts/plain.md', post('', 'An edited first paragraph.\n'))
    await buildSite({ root: project.root })
    expect(await stamps()).toMatchObject(
      Object.fromEntries(Object.entries(cached).filter(([n]) => !n.startsWith('card-plain-'))),
    )
    await project.write('content/blog-posts/plain.md', post(''))
    await rm(join(project.root, '.cache'), { recursive: true, force: true })
    await rm(project.dist, { recursive: true, force: true })
    await buildSite({ root: project.root })
    expect(await files()).toEqual(before)
    expect(((await read(project, '_build/manifest.json')).build as { id: string }).id).toBe(first.id)
  })
})
