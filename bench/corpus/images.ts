/**
 * The image corpus: `count` blog posts, each with its own image beside it,
 * mixed JPEG (photo-like: gradients, shapes and grain) and PNG
 * (screenshot-like: flat panels and rules), 1 to 4 megapixels, from a seed.
 * Social cards are off (SITE_YAML), so the row measures the images alone.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { createRandom, type Random } from './random.ts'
import { SITE_YAML } from './generate.ts'

export interface ImageCorpus {
  root: string
  images: number
  megapixels: number
  /** Each post's image file, by slug. */
  sources: Record<string, string>
}

const ASPECTS = [4 / 3, 3 / 2, 16 / 9, 1, 2 / 3] as const

export async function generateImageCorpus(count: number, seed: number): Promise<ImageCorpus> {
  const root = await mkdtemp(join(tmpdir(), 'content-api-bench-images-'))
  const folder = join(root, 'content', 'blog-posts')
  await mkdir(join(folder, 'images'), { recursive: true })
  await writeFile(join(root, 'content', 'site.yaml'), SITE_YAML)
  const r = createRandom(seed * 104_729)
  const plans = Array.from({ length: count }, (_, i) => {
    const pixels = r.int(1_000_000, 4_000_000)
    const aspect = r.pick(ASPECTS)
    const width = Math.round(Math.sqrt(pixels * aspect))
    return { i, width, height: Math.round(width / aspect), png: r.int(0, 9) < 3, seed: r.int(1, 2 ** 30) }
  })
  const sources: Record<string, string> = {}
  let next = 0
  const worker = async () => {
    while (next < plans.length) {
      const plan = plans[next++]!
      const name = `image-${String(plan.i).padStart(5, '0')}.${plan.png ? 'png' : 'jpg'}`
      sources[`post-${String(plan.i).padStart(5, '0')}`] = join(folder, 'images', name)
      await writeFile(join(folder, 'images', name), await draw(plan, createRandom(plan.seed)))
      await writeFile(
        join(folder, `post-${String(plan.i).padStart(5, '0')}.md`),
        `---\ntitle: Post ${plan.i} with a picture\npublished_at: 2026-01-${String((plan.i % 28) + 1).padStart(2, '0')}\nimage: { url: images/${name}, alt: Generated picture ${plan.i} }\nauthors:\n  - name: Bench Author\n---\n\nA short body for post ${plan.i}.\n`,
      )
    }
  }
  await Promise.all(Array.from({ length: availableParallelism() }, worker))
  return {
    root,
    images: count,
    megapixels: plans.reduce((sum, p) => sum + (p.width * p.height) / 1e6, 0),
    sources,
  }
}

/** A picture to encode: shapes over a gradient, with grain on photos (encoders work harder on texture). */
async function draw(plan: { width: number; height: number; png: boolean }, r: Random): Promise<Buffer> {
  const { width, height } = plan
  const hue = r.int(0, 359)
  const shapes = Array.from({ length: r.int(6, 14) }, () => {
    const fill = `hsl(${(hue + r.int(0, 180)) % 360}, ${r.int(30, 80)}%, ${r.int(25, 75)}%)`
    const x = r.int(0, width)
    const y = r.int(0, height)
    const size = r.int(Math.round(width / 20), Math.round(width / 3))
    return plan.png
      ? `<rect x="${x}" y="${y}" width="${size * 2}" height="${size}" rx="8" fill="${fill}"/>`
      : `<circle cx="${x}" cy="${y}" r="${size}" fill="${fill}" opacity="0.7"/>`
  }).join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue}, 60%, 30%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360}, 60%, 70%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`
  const image = sharp(Buffer.from(svg))
  if (plan.png) return image.png().toBuffer()
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true })
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + ((r.int(0, 24) - 12) | 0)))
  return sharp(data, { raw: info }).jpeg({ quality: 88 }).toBuffer()
}
