/**
 * How each kind of image is processed, and the names of the files it gives.
 * Everything that shapes the output besides the source's bytes (this
 * module's version, the recipe, the encoder settings, sharp's and libvips'
 * versions) is one value, MediaSettings, hashed into a recipe key: a file's
 * name carries it with the source's hash, so the bytes under a name never
 * change and it can be served `immutable`, and the media cache (store.ts) is
 * keyed by it, so a changed setting is never answered from the cache.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import type sharp from 'sharp'
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
 * Encoder settings. AVIF at effort 2 is close to the default
 * effort's size in much less time; the fallback is plain libjpeg-turbo,
 * since only browsers without AVIF and WebP ever ask for it.
 */
export const ENCODERS = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 75, effort: 4 },
  jpeg: { quality: 80, progressive: true },
  png: { compressionLevel: 9, adaptiveFiltering: true },
} as const

export interface Encoders {
  avif: sharp.AvifOptions
  webp: sharp.WebpOptions
  jpeg: sharp.JpegOptions
  png: sharp.PngOptions
}

/** Everything that shapes the files of an image besides its source's bytes. */
export interface MediaSettings {
  /** MEDIA_VERSION. */
  version: number
  recipes: Readonly<Record<RecipeName, Recipe>>
  encoders: Readonly<Encoders>
  /** sharp's version and those of libvips and its codecs (`sharp.versions`). */
  libraries: Readonly<Record<string, string | undefined>>
}

let ours: MediaSettings | undefined

/**
 * The settings of this code: what every build processes with. Asked for
 * only when there are images: it loads sharp (and libvips) for their
 * versions, a twentieth of a second that a build without images saves.
 */
export function mediaSettings(): MediaSettings {
  ours ??= {
    version: MEDIA_VERSION,
    recipes: RECIPES,
    encoders: ENCODERS,
    libraries: (createRequire(import.meta.url)('sharp') as typeof sharp).versions,
  }
  return ours
}

export const EXTENSIONS: Record<ImageFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png' }

/** The hash of all of `settings`. */
export function settingsKey(settings: MediaSettings): string {
  return shortHash(JSON.stringify(settings))
}

/** What an image processed with `recipe` depends on besides its source: its recipe, the encoders, the version, the libraries. */
export function recipeKey(settings: MediaSettings, recipe: RecipeName): string {
  const { version, encoders, libraries } = settings
  return shortHash(JSON.stringify({ version, recipe: settings.recipes[recipe], encoders, libraries }))
}

/** What reading an image's header depends on: the libraries (EXIF orientation, formats). */
export function readerKey(settings: MediaSettings): string {
  return shortHash(JSON.stringify({ version: settings.version, libraries: settings.libraries }))
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)

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

/** `cover-3f9a1c2b7d-960.avif`: a readable stem from the source's name, the hash (of the source and its recipe key), the width. */
export function outputName(stem: string, sha: string, key: string, format: ImageFormat, width: number): string {
  const hash = createHash('sha256').update(`${sha}\0${key}\0${format}\0${width}`).digest('hex').slice(0, 12)
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
