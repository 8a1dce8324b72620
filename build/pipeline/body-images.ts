/**
 * Local images in a body's HTML become responsive: a `<picture>` with an AVIF
 * and a WebP `<source>`, and the `<img>` with the fallback's `srcset`, the
 * intrinsic `width` and `height` (no layout shift), `loading="lazy"` and
 * `decoding="async"`; its alt and title stay. The HTML is the sanitised,
 * serialised output of either renderer, so every attribute value is
 * double-quoted and an `<img>` is found by a pattern over it; the new markup
 * is serialised by the same hast-util-to-html, and stays within BODY_SCHEMA.
 */
import type { Element, Properties } from 'hast'
import { toHtml } from 'hast-util-to-html'
import { type BodyTree, BodyTreeJson, bodyNodes } from '../../contract/body-tree.ts'
import { BODY_IMAGE_SIZES, IMAGE_TYPES, type ImageObject } from '../../contract/media.ts'

const IMG = /<img(?:\s+[A-Za-z-]+(?:="[^"]*")?)*\s*\/?>/g
const ATTRIBUTE = /\s+([A-Za-z-]+)(?:="([^"]*)")?/g

/** The HTML with each `<img>` whose src `images` has made responsive. */
export function rewriteBodyImages(html: string, images: ReadonlyMap<string, ImageObject>): string {
  if (!images.size) return html
  return html.replace(IMG, (tag) => {
    const attributes = attributesOf(tag)
    const image = images.get(attributes.get('src') ?? '')
    return image ? toHtml(picture(image, attributes.get('alt') ?? image.alt, attributes.get('title'))) : tag
  })
}

/**
 * `body.tree` with each image `images` has made responsive at its published URL, in the form it
 * came (a copy: the render cache keeps the tree). The one change to a tree after rendering: the
 * text is parsed and written again only here.
 */
export function rewriteTreeImages(
  tree: BodyTree | BodyTreeJson,
  images: ReadonlyMap<string, ImageObject>,
): BodyTree | BodyTreeJson {
  if (!images.size) return tree
  const copy = tree instanceof BodyTreeJson ? tree.toJSON() : structuredClone(tree)
  for (const node of bodyNodes(copy.children)) {
    const image = node.type === 'image' ? images.get(node.src ?? '') : undefined
    if (image) node.src = image.url
  }
  return tree instanceof BodyTreeJson ? new BodyTreeJson(JSON.stringify(copy)) : copy
}

/** The `src` of every `<img>` of the HTML, decoded. */
export function imageSources(html: string): string[] {
  return html.includes('<img') ? [...html.matchAll(IMG)].map(([tag]) => attributesOf(tag).get('src') ?? '') : []
}

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>()
  for (const [, name, value] of tag.slice(4).matchAll(ATTRIBUTE)) attributes.set(name!, decode(value ?? ''))
  return attributes
}

function picture(image: ImageObject, alt: string, title: string | undefined): Element {
  const byFormat = new Map<string, string[]>()
  for (const source of image.sources) {
    const list = byFormat.get(source.format) ?? []
    list.push(`${source.url} ${source.width}w`)
    byFormat.set(source.format, list)
  }
  const [fallback, ...modern] = [...byFormat.keys()].reverse()
  const sources: Element[] = modern.reverse().map((format) => ({
    type: 'element',
    tagName: 'source',
    properties: {
      type: IMAGE_TYPES[format as keyof typeof IMAGE_TYPES],
      srcSet: byFormat.get(format)!.join(', '),
      sizes: BODY_IMAGE_SIZES,
    },
    children: [],
  }))
  const properties: Properties = { src: image.url, alt }
  if (title !== undefined) properties.title = title
  Object.assign(properties, {
    srcSet: byFormat.get(fallback!)!.join(', '),
    sizes: BODY_IMAGE_SIZES,
    width: image.width,
    height: image.height,
    loading: 'lazy',
    decoding: 'async',
  })
  return {
    type: 'element',
    tagName: 'picture',
    properties: {},
    children: [...sources, { type: 'element', tagName: 'img', properties, children: [] }],
  }
}

/** The character references hast-util-to-html writes in attribute values. */
function decode(value: string): string {
  return value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(amp|quot|lt|gt));/gi, (_, hex, dec, name) =>
    hex
      ? String.fromCodePoint(Number.parseInt(hex, 16))
      : dec
        ? String.fromCodePoint(Number(dec))
        : { amp: '&', quot: '"', lt: '<', gt: '>' }[(name as string).toLowerCase() as 'amp']!,
  )
}
