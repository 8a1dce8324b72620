/**
 * The media stage of a compiled file: each local image it uses is checked
 * (an author error at the place it is written when the file is missing,
 * outside content/, not an image the build reads, or over MEDIA_LIMITS),
 * then processed, and the record gets the image objects (`image`, the
 * collection's image fields, each person's `avatar`), the responsive body
 * HTML and its `social_image` (the
 * item's image, else its generated card). Every error is reported with the
 * file's other errors; a file with one publishes nothing.
 */
import type { ImageObject, ImageSource } from '../../contract/media.ts'
import { MEDIA_PREFIX } from '../../contract/public-paths.ts'
import type { FullRecord } from '../../contract/records.ts'
import { ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import type { CardInput } from '../media/card.ts'
import type { MediaResult, MediaStore, ProcessedImage, Variant } from '../media/store.ts'
import { rewriteBodyImages, rewriteTreeImages } from './body-images.ts'
import type { CompiledFile } from './compile.ts'

/** A file of dist/ a record needs: where it goes and where its bytes are. */
export interface MediaFile {
  path: string
  file: string
  etag: string
}

/** The media files of each published record, by its body object (which every later copy of the record shares). */
const mediaFiles = new WeakMap<object, MediaFile[]>()

/** The files of dist/ that `record`'s images and card are served from. */
export function mediaFilesOf(record: FullRecord): readonly MediaFile[] {
  return mediaFiles.get(record.body) ?? []
}

const RAW_HTML = 'is in raw HTML, where local images are not processed: write it as Markdown, ![describe it](path)'
const OUTSIDE = 'leads outside content/: keep images inside the content folder'

/** Check (and with `process`, process) the file's local images; sets its errors, or its record's media. */
export async function attachMedia(
  file: CompiledFile,
  store: MediaStore,
  site: SiteConfig,
  process: boolean,
): Promise<void> {
  const results = await Promise.all(
    file.media.map((ref): Promise<MediaResult> | MediaResult =>
      ref.path === undefined
        ? { ok: false, problem: ref.kind === 'raw' ? RAW_HTML : OUTSIDE }
        : store.image(ref.path, ref.kind === 'portrait' ? 'portrait' : 'image', process),
    ),
  )
  results.forEach((result, i) => {
    if (result.ok) return
    const ref = file.media[i]!
    file.errors.push(
      new ContentError('IMAGE', file.source.path, ref.line, ref.column, ref.field, `${ref.url} ${result.problem}`),
    )
  })
  if (file.errors.length) file.record = undefined
  if (!file.record || !process) return
  const files = new Map<string, MediaFile>()
  const base = `${site.apiUrl ?? ''}${MEDIA_PREFIX}/${file.collection}/`
  const publish = (variant: Variant): string => {
    const path = `${MEDIA_PREFIX.slice(1)}/${file.collection}/${variant.name}`
    files.set(path, { path, file: store.filePath(variant.name), etag: variant.etag })
    return base + variant.name
  }
  const record: FullRecord = { ...file.record, body: { ...file.record.body } }
  const body = new Map<string, ImageObject>()
  file.media.forEach((ref, i) => {
    const image = (results[i] as MediaResult & { ok: true }).image!
    const object = imageObject(image, '', publish)
    if (ref.field === 'image.url') {
      record.image = { ...object, alt: (file.record!.image as ImageObject).alt }
      const largest = image.variants.filter((v) => v.format === fallbackOf(image)).at(-1)!
      record.social_image = { url: publish(largest), width: largest.width, height: largest.height }
    } else if (ref.kind === 'portrait') {
      replaceAt(record, ref.at!, (person) => ({
        ...person,
        avatar_url: object.url,
        avatar: { ...object, alt: String(person.name) },
      }))
    } else if (ref.kind === 'image' && ref.at) {
      replaceAt(record, ref.at, (written) => ({ ...object, alt: String(written.alt) }))
    } else {
      body.set(ref.url, object)
    }
  })
  record.body.html = rewriteBodyImages(record.body.html, body)
  record.body.tree = rewriteTreeImages(record.body.tree, body)
  record.body.markdown = rewriteMarkdownImages(record.body.markdown, body)
  if (!record.social_image && site.socialCards) {
    const card = await store.card(file.slug, cardInput(record, file, site))
    record.social_image = { url: publish(card), width: card.width, height: card.height }
  }
  file.record = record
  mediaFiles.set(record.body, [...files.values()])
}

/** `record` with the object at `path` (a field, or an entry of a list field) replaced by `change` of it, copying what it passes through. */
function replaceAt(
  record: Record<string, unknown>,
  path: readonly (string | number)[],
  change: (value: Record<string, unknown>) => Record<string, unknown>,
): void {
  const [head, ...rest] = path
  const value = record[head as string]
  if (rest.length === 0) {
    record[head as string] = change(value as Record<string, unknown>)
    return
  }
  const copy = Array.isArray(value) ? [...value] : { ...(value as object) }
  replaceAt(copy as Record<string, unknown>, rest, change)
  record[head as string] = copy
}

/**
 * The published Markdown with each local image's destination replaced by its
 * processed URL (a relative path means nothing to an API client): only exact
 * destinations, inline (`](cover.jpg)`, with a title or in angle brackets)
 * or in a definition (`]: cover.jpg`).
 */
function rewriteMarkdownImages(markdown: string, images: ReadonlyMap<string, ImageObject>): string {
  let out = markdown
  for (const [src, image] of images) {
    let decoded = src
    try {
      decoded = decodeURI(src)
    } catch {}
    for (const written of new Set([src, decoded])) {
      for (const [before, after] of [
        [`](${written})`, `](${image.url})`],
        [`](${written} `, `](${image.url} `],
        [`](<${written}>`, `](<${image.url}>`],
        [`]: ${written}`, `]: ${image.url}`],
      ] as const)
        out = out.split(before).join(after)
    }
  }
  return out
}

function imageObject(image: ProcessedImage, alt: string, publish: (v: Variant) => string): ImageObject {
  const sources: ImageSource[] = image.variants
    .map((v) => ({ format: v.format, width: v.width, url: publish(v) }))
    .sort((a, b) => FORMAT_ORDER.indexOf(a.format) - FORMAT_ORDER.indexOf(b.format) || a.width - b.width)
  return {
    url: sources.at(-1)!.url,
    alt,
    width: image.width,
    height: image.height,
    placeholder: image.placeholder,
    sources,
  }
}

const FORMAT_ORDER = ['avif', 'webp', 'jpeg', 'png']

function fallbackOf(image: ProcessedImage): string {
  return image.variants.some((v) => v.format === 'png') ? 'png' : 'jpeg'
}

/** What the card of an item shows. */
function cardInput(record: FullRecord, file: CompiledFile, site: SiteConfig): CardInput {
  const when = (record[site.collections[file.collection]!.sortField] as string | null) ?? record.published_at
  return {
    title: record.title,
    label: site.collections[file.collection]!.title,
    date: longDate(when, record.timezone as string | undefined),
    site: site.name,
    theme: site.theme,
  }
}

const MONTHS = 'January February March April May June July August September October November December'.split(' ')

/** `14 March 2026`, the day in the item's time zone when it has one. */
function longDate(instant: string, timezone: string | undefined): string {
  const date = new Date(instant)
  const day = timezone
    ? new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(date)
    : date.toISOString().slice(0, 10)
  const [year, month, dayOfMonth] = day.split('-').map(Number) as [number, number, number]
  return `${dayOfMonth} ${MONTHS[month - 1]} ${year}`
}
