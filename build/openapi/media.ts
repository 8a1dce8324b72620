/**
 * The image objects of the records: `Image` (an item's `image`, a person's
 * `avatar`) and `SocialImage`, from the shapes and settings in
 * contract/media.ts. URLs are absolute when content/site.yaml sets `api_url`
 * (root-relative otherwise), so they are URI references.
 */
import type { SchemaObject } from 'ajv'
import { IMAGE_FORMATS, IMAGE_WIDTHS, MEDIA_LIMITS, PORTRAIT_WIDTHS, SOCIAL_CARD } from '../../contract/media.ts'
import { MEDIA_PREFIX } from '../../contract/public-paths.ts'
import { arrayOf, int32, text, uriReference } from '../../contract/routes/schema.ts'

const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` })

/** Most sources an image can have: every width of the ladder plus its own, in three formats. */
const MAX_SOURCES = (IMAGE_WIDTHS.length + 1) * 3

const dimension = (what: string): SchemaObject => ({
  anyOf: [int32(1, MEDIA_LIMITS.side), { type: 'null' }],
  description: `${what} in pixels, once EXIF orientation is applied; null for an external image.`,
})

export const MEDIA_SCHEMAS: Record<string, SchemaObject> = {
  Image: {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'alt', 'width', 'height', 'placeholder', 'sources'],
    description:
      `An image. A file next to the Markdown is processed by the build: written at ${IMAGE_WIDTHS.join(', ')} pixels wide ` +
      `(portraits square, at ${PORTRAIT_WIDTHS.join(' and ')}), never wider than the original, as AVIF, WebP and a JPEG ` +
      `(PNG when it has transparency), with its metadata removed, under ${MEDIA_PREFIX}/ with names that change with their ` +
      'bytes (served `Cache-Control: immutable`). An absolute URL in the frontmatter is used as is: null size and placeholder, no sources.',
    properties: {
      url: uriReference({ description: 'The largest fallback (JPEG or PNG) file, or the external URL.' }),
      alt: text(300, { minLength: 1, description: 'Alternative text.' }),
      width: dimension('Intrinsic width'),
      height: dimension('Intrinsic height'),
      placeholder: {
        anyOf: [text(64, { contentEncoding: 'base64' }), { type: 'null' }],
        description:
          'ThumbHash (https://evanw.github.io/thumbhash/) of the image, base64: decode it into a blurred preview to show while the image loads.',
      },
      sources: arrayOf(
        {
          type: 'object',
          additionalProperties: false,
          required: ['format', 'width', 'url'],
          properties: {
            format: { type: 'string', enum: [...IMAGE_FORMATS] },
            width: int32(1, MEDIA_LIMITS.side),
            url: uriReference(),
          },
        },
        MAX_SOURCES,
        {
          description: 'Every processed file, by format (avif, webp, then the fallback), then width: ready for srcset.',
        },
      ),
    },
  },
  SocialImage: {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'width', 'height'],
    description: `What to show when the item is shared (og:image): its image's largest fallback file, or for an item without an image a generated ${SOCIAL_CARD.width}×${SOCIAL_CARD.height} card (title, collection, date, site name).`,
    properties: {
      url: uriReference(),
      width: { anyOf: [int32(1, MEDIA_LIMITS.side), { type: 'null' }] },
      height: { anyOf: [int32(1, MEDIA_LIMITS.side), { type: 'null' }] },
    },
  },
}

export const imageRef = ref('Image')
export const socialImageRef = ref('SocialImage')

/** A person of the records (`authors`, `speakers`): the portrait's URL as published, and its image object when it is processed. */
export function publishedPerson(items: SchemaObject): SchemaObject {
  const properties = items.properties as Record<string, SchemaObject>
  if (!properties.avatar_url) return items
  return {
    ...items,
    properties: {
      ...properties,
      avatar_url: uriReference({ description: "URL of the portrait (the processed file's, for a local one)." }),
      avatar: { ...imageRef, description: 'The processed portrait (a local file only), with its alt text the name.' },
    },
  }
}
