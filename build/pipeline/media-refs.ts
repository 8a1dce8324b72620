/**
 * The local images a file uses, with where each is written: the lead image
 * (`image.url`), its collection's image fields (`logo.url`, `logos[1].url`),
 * people's portraits (`authors[i].avatar_url`, `speakers[i].avatar_url`) and
 * the body's images. A path is relative to the Markdown file and must stay
 * inside content/; anything with a scheme, or root-relative, is an external
 * URL and is left as written.
 */
import { posix } from 'node:path'
import type { CollectionModel } from '../../contract/model/model.ts'
import { lazyPosition, type LoadedFile } from './load.ts'
import type { BodyImage, RenderedBody } from './markdown-types.ts'
import { imageSources } from './body-images.ts'

export interface MediaRef {
  /** The field as errors name it: `image.url`, `authors[0].avatar_url`, `body`. */
  field: string
  /** Lead image, portrait or body image: how it is processed; `raw` for a local image in raw HTML, which is not. */
  kind: 'image' | 'portrait' | 'body' | 'raw'
  /** As written (for a body image, as the HTML has it). */
  url: string
  /** The file, relative to the project root; undefined when the path leads outside content/. */
  path: string | undefined
  /** Where in the record its object goes: the image (`['image']`, `['logos', 1]`) or the person (`['authors', 0]`); none for the body's. */
  at?: (string | number)[]
  line: number
  column: number
}

/** Whether a URL names a file next to the Markdown (no scheme, not root-relative, not a fragment or query). */
export function isLocal(url: string): boolean {
  return url !== '' && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) && !/^[/\\#?]/.test(url)
}

/** The project-relative path `url` names from the Markdown file at `from`; undefined outside content/. */
export function resolveLocal(from: string, url: string): string | undefined {
  let decoded = url
  try {
    decoded = decodeURIComponent(url)
  } catch {
    // Not percent-encoded as a URL: the path as written.
  }
  const path = posix.normalize(posix.join(posix.dirname(from), decoded))
  return path.startsWith('content/') && !path.includes('\0') ? path : undefined
}

/** `['logos', 1, 'url']` → `logos[1].url`. */
const fieldName = (path: readonly (string | number)[]) =>
  path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('')

/**
 * Read from the frontmatter as parsed, valid or not, and from the body's
 * images, rendered or not: image errors are reported with every other error.
 */
export function mediaReferences(
  file: LoadedFile,
  rendered: RenderedBody | undefined,
  images: readonly BodyImage[],
  collection: CollectionModel,
): MediaRef[] {
  const refs: MediaRef[] = []
  const data = (file.data ?? {}) as Record<string, unknown>
  const from = file.source.path
  /** A local URL at `at` + `key` (an image's `url`, a person's `avatar_url`). */
  const add = (at: (string | number)[], key: string, kind: 'image' | 'portrait', owner: unknown) => {
    const url = (owner as Record<string, unknown> | null | undefined)?.[key]
    if (typeof url !== 'string' || !isLocal(url)) return
    const where = lazyPosition(file, [...at, key])
    refs.push(Object.assign(where, { field: fieldName([...at, key]), kind, url, path: resolveLocal(from, url), at }))
  }
  add(['image'], 'url', 'image', data.image)
  // The collection's image and person fields, and lists of them, in the order it declares them.
  for (const [name, field] of Object.entries(collection.fields)) {
    const item = field.type === 'list' ? field.of?.type : field.type
    if (item !== 'image' && item !== 'person') continue
    const [key, kind] = item === 'image' ? (['url', 'image'] as const) : (['avatar_url', 'portrait'] as const)
    const value = data[name]
    if (field.type !== 'list') add([name], key, kind, value)
    else if (Array.isArray(value)) for (const [i, entry] of value.entries()) add([name, i], key, kind, entry)
  }
  for (const body of images) {
    if (!isLocal(body.src)) continue
    refs.push({
      field: 'body',
      kind: 'body',
      url: body.src,
      path: resolveLocal(from, body.src),
      line: file.bodyLine + body.line - 1,
      column: body.column,
    })
  }
  // An <img> of raw HTML is sanitised but not processed: its relative src would be a broken link.
  const markdown = new Set(rendered?.images.map((i) => i.src))
  for (const src of imageSources(rendered?.html ?? '')) {
    if (markdown.has(src) || !isLocal(src)) continue
    const at = positionIn(file.body, src)
    refs.push({
      field: 'body',
      kind: 'raw',
      url: src,
      path: undefined,
      line: file.bodyLine + at.line - 1,
      column: at.column,
    })
  }
  return refs
}

/** Line and column (1-based) of the first occurrence of `text` in `body` (its start when absent). */
function positionIn(body: string, text: string): { line: number; column: number } {
  const at = Math.max(0, body.indexOf(text))
  const before = body.slice(0, at)
  return { line: before.split('\n').length, column: at - before.lastIndexOf('\n') }
}
