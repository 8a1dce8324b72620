/**
 * Process one source image into its files: EXIF orientation applied, colour
 * converted to sRGB and every metadata block dropped (sharp keeps none unless
 * told to), decoded once at the largest width needed and resized from there
 * to each step of the ladder, each step encoded in every format, plus a
 * ThumbHash placeholder. Files go into `dir` under their content-derived
 * names, written to a temporary name first so a reader never sees half a file.
 */
import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { rgbaToThumbHash } from 'thumbhash'
import { etagOf } from '../../contract/etag.ts'
import type { ImageFormat } from '../../contract/media.ts'
import { MEDIA_LIMITS } from '../../contract/media.ts'
import type { SourceMeta } from './inspect.ts'
import { formatsFor, ladder, outputName, type Encoders, type Recipe } from './recipes.ts'

/** One written file of an image. */
export interface Variant {
  format: ImageFormat
  width: number
  height: number
  name: string
  etag: string
  size: number
}

/** An image as processed: its size as shown (oriented; square for portraits), its placeholder, its files. */
export interface ProcessedImage {
  width: number
  height: number
  placeholder: string
  variants: Variant[]
}

// libvips' operation cache would keep decoded images alive between calls: memory grows with the image count.
sharp.cache(false)

/** The largest side of the image the ThumbHash is computed from (ThumbHash's own limit). */
const THUMB_SIDE = 100

/** How to process: the recipe, the encoders, and the recipe key (recipes.ts) the file names carry. */
export interface Processing {
  recipe: Recipe
  encoders: Encoders
  key: string
}

export async function processImage(
  bytes: Buffer,
  meta: SourceMeta,
  sha: string,
  { recipe, encoders, key }: Processing,
  stem: string,
  dir: string,
): Promise<ProcessedImage> {
  const side = recipe.square ? Math.min(meta.width, meta.height) : meta.width
  const widths = ladder(side, recipe.widths)
  const top = widths.at(-1)!
  const source = sharp(bytes, { limitInputPixels: MEDIA_LIMITS.pixels, failOn: 'error' }).autoOrient()
  const resized = recipe.square
    ? source.resize({ width: top, height: top, fit: 'cover', position: 'attention' })
    : source.resize({ width: top, withoutEnlargement: true })
  const decoded = await resized.toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true })
  const raw = { raw: { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels } }
  const placeholder = await thumbHash(decoded.data, raw)
  const variants: Variant[] = []
  for (const width of widths) {
    // Each step resized once, then encoded in every format from its pixels.
    const step =
      width === decoded.info.width
        ? decoded
        : await sharp(decoded.data, raw).resize({ width }).raw().toBuffer({ resolveWithObject: true })
    const pixels = { raw: { width: step.info.width, height: step.info.height, channels: step.info.channels } }
    for (const format of formatsFor(meta.hasAlpha)) {
      const encoded = await encode(sharp(step.data, pixels), format, encoders).toBuffer({ resolveWithObject: true })
      const name = outputName(stem, sha, key, format, width)
      await writeAtomically(join(dir, name), encoded.data)
      variants.push({
        format,
        width: encoded.info.width,
        height: encoded.info.height,
        name,
        etag: etagOf(encoded.data),
        size: encoded.data.byteLength,
      })
    }
  }
  return { width: decoded.info.width, height: decoded.info.height, placeholder, variants }
}

function encode(image: sharp.Sharp, format: ImageFormat, encoders: Encoders): sharp.Sharp {
  switch (format) {
    case 'avif':
      return image.avif(encoders.avif)
    case 'webp':
      return image.webp(encoders.webp)
    case 'jpeg':
      return image.jpeg(encoders.jpeg)
    case 'png':
      return image.png(encoders.png)
  }
}

async function thumbHash(data: Buffer, raw: sharp.SharpOptions): Promise<string> {
  const small = await sharp(data, raw)
    .resize(THUMB_SIDE, THUMB_SIDE, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64')
}

/** Write `body` to `path` through a temporary file in the same folder. */
export async function writeAtomically(path: string, body: Buffer): Promise<void> {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  await writeFile(tmp, body)
  await rename(tmp, path)
}
