/**
 * Images in the API: what a processed image looks like in a record, and the
 * fixed settings the build processes with (the OpenAPI document and the docs
 * state the same numbers). Local images are files next to the Markdown; the
 * build writes them in several widths and formats under MEDIA_PREFIX.
 */

/** Output formats: two modern ones, then the fallback (JPEG, or PNG for images with transparency). */
export const IMAGE_FORMATS = ['avif', 'webp', 'jpeg', 'png'] as const
export type ImageFormat = (typeof IMAGE_FORMATS)[number]

/** Media type of each output format, for `<source type>` and the feeds' enclosures. */
export const IMAGE_TYPES: Record<ImageFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
}

/** One processed file of an image. */
export interface ImageSource {
  format: ImageFormat
  width: number
  url: string
}

/**
 * The image object of a record (`image`, and a person's `avatar`). External
 * images (an http(s) URL in the frontmatter) keep their URL and have null
 * dimensions and placeholder and no sources: they are never downloaded.
 */
export interface ImageObject {
  /** The largest fallback file (or the external URL). */
  url: string
  alt: string
  /** Intrinsic size once EXIF orientation is applied. */
  width: number | null
  height: number | null
  /** ThumbHash of the image, base64: a blurred preview of about 25 bytes to show while it loads. */
  placeholder: string | null
  /** Every processed file: by format (avif, webp, then the fallback), then width ascending. */
  sources: ImageSource[]
}

/** What to show when the item is shared: its image, or its generated card. */
export interface SocialImage {
  url: string
  width: number | null
  height: number | null
}

/** The widths a lead or body image is written at (never wider than the original, which is added when narrower than the largest). */
export const IMAGE_WIDTHS = [480, 960, 1600] as const
/** The widths of a person's portrait. */
export const PORTRAIT_WIDTHS = [128, 256] as const
/** The generated card of an item without an image (Open Graph's recommended size). */
export const SOCIAL_CARD = { width: 1200, height: 630 } as const
/** The `sizes` of body images: the width of an article column, the whole viewport below it. */
export const BODY_IMAGE_SIZES = '(min-width: 800px) 800px, 100vw'

/** Source files the build accepts (by extension and by content). */
export const LOCAL_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'avif', 'gif'] as const

/** The largest source image: bytes of the file, pixels, and either side. */
export const MEDIA_LIMITS = { bytes: 20 * 2 ** 20, pixels: 40_000_000, side: 12_000 } as const
