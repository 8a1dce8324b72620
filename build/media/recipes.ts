/**
 * How each kind of image is processed, and the names of the files it gives.
 * A file's name carries a hash of the source's bytes and of everything that
 * shapes the output (recipe, encoder settings, sharp and libvips versions),
 * so the bytes under a name never change and it can be served `immutable`.
 */
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { IMAGE_WIDTHS, PORTRAIT_WIDTHS, type ImageFormat } from '../../contract/media.ts'

/** Bump when the processing changes in a way the settings below do not show. */
export const MEDIA_VERSION = 1

export type RecipeName = 'image' | 'portrait'

export interface Recipe {
  name: RecipeName
  widths: readonly number[]
  /** Crop to a square (portraits) instead of keeping the aspect ratio. */
  square: boolean
}

export const RECIPES: Record<RecipeName, Recipe> = {
  image: { name: 'image', widths: IMAGE_WIDTHS, square: false },
  portrait: { name: 'portrait', widths: PORTRAIT_WIDTHS, square: true },
}

/**
 * Encoder settings. AVIF at effort 2 is within a few percent of the default
 * effort's size at a tenth of its time; the fallback is plain libjpeg-turbo,
 * since only browsers without AVIF and WebP ever ask for it.
 */
export const ENCODERS = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 75, effort: 4 },
  jpeg: { quality: 80, progressive: true },
  png: { compressionLevel: 9, adaptiveFiltering: true },
} as const

export const EXTENSIONS: Record<ImageFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png' }

/** What every output depends on besides its source: the settings above and the encoder libraries. */
export const SETTINGS_KEY = createHash('sha256')
  .update(JSON.stringify({ MEDIA_VERSION, ENCODERS, RECIPES, versions: sharp.versions }))
  .digest('hex')
  .slice(0, 16)

/**
 * The widths an image of `width` pixels is written at: every step of the
 * ladder below it, and the image's own width when it is narrower than the
 * largest step (never wider: no upscaling).
 */
export function ladder(width: number, steps: readonly number[]): number[] {
  const below = steps.filter((w) => w < width)
  const top = Math.min(width, steps.at(-1)!)
  return below.includes(top) ? below : [...below, top]
}

/** The formats an image is written in: AVIF, WebP, and JPEG, or PNG when it has transparency. */
export function formatsFor(hasAlpha: boolean): ImageFormat[] {
  return ['avif', 'webp', hasAlpha ? 'png' : 'jpeg']
}

/** `cover-3f9a1c2b7d-960.avif`: a readable stem from the source's name, the hash, the width. */
export function outputName(stem: string, sha: string, recipe: RecipeName, format: ImageFormat, width: number): string {
  const hash = createHash('sha256')
    .update(`${sha}\0${SETTINGS_KEY}\0${recipe}\0${format}\0${width}`)
    .digest('hex')
    .slice(0, 12)
  return `${stem}-${hash}-${width}.${EXTENSIONS[format]}`
}

/** A file name's stem: lowercase letters, digits and hyphens, at most 40 characters. */
export function stemOf(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
  return base || 'image'
}
