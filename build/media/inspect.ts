/**
 * Check a source image before any processing: its format by its content (not
 * only its extension), and its size against MEDIA_LIMITS. sharp reads the
 * header only, so `npm run check` validates images without decoding them.
 */
import sharp from 'sharp'
import { LOCAL_IMAGE_EXTENSIONS, MEDIA_LIMITS } from '../../contract/media.ts'

/** What the header says, once EXIF orientation is applied. */
export interface SourceMeta {
  format: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif'
  width: number
  height: number
  hasAlpha: boolean
}

const READABLE = new Set(['jpeg', 'png', 'webp', 'heif', 'gif'])
const NAMES = 'JPEG, PNG, WebP, AVIF or GIF'

/** The image's header facts, or the reason an author must fix it. */
export async function inspectImage(bytes: Buffer, fileName: string): Promise<SourceMeta | { problem: string }> {
  const extension = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : ''
  if (!(LOCAL_IMAGE_EXTENSIONS as readonly string[]).includes(extension))
    return { problem: `is not an image the build reads (${NAMES}: ${LOCAL_IMAGE_EXTENSIONS.join(', ')})` }
  if (bytes.byteLength > MEDIA_LIMITS.bytes)
    return {
      problem: `is ${megabytes(bytes.byteLength)} MB, more than the ${megabytes(MEDIA_LIMITS.bytes)} MB an image may have: export it smaller`,
    }
  let meta: sharp.Metadata
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch (error) {
    return { problem: `cannot be read as an image (${(error as Error).message.split('\n')[0]})` }
  }
  // libheif reads AVIF; HEIC (its other format) is not one browsers show.
  const format = meta.format === 'heif' ? (meta.compression === 'av1' ? 'avif' : 'heic') : meta.format
  if (!READABLE.has(meta.format) || format === 'heic')
    return { problem: `is a ${format} file, not an image the build reads (${NAMES})` }
  const width = meta.autoOrient?.width ?? meta.width ?? 0
  const height = meta.autoOrient?.height ?? meta.height ?? 0
  if (width < 1 || height < 1) return { problem: 'has no pixels' }
  if (width > MEDIA_LIMITS.side || height > MEDIA_LIMITS.side || width * height > MEDIA_LIMITS.pixels)
    return {
      problem: `is ${width}×${height} pixels, more than an image may have (${MEDIA_LIMITS.side} pixels a side, ${MEDIA_LIMITS.pixels / 1e6} megapixels): export it smaller`,
    }
  return { format: format as SourceMeta['format'], width, height, hasAlpha: meta.hasAlpha === true }
}

function megabytes(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1).replace(/\.0$/, '')
}
