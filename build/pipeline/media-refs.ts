/**
 * The local images a file uses, with where each is written: the lead image
 * (`image.url`), people's portraits (`authors[i].avatar_url`,
 * `speakers[i].avatar_url`) and the body's images. A path is relative to the
 * Markdown file and must stay inside content/; anything with a scheme, or
 * root-relative, is an external URL and is left as written.
 */
import { posix } from 'node:path'
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

const PEOPLE = ['authors', 'speakers'] as const

/**
 * Read from the frontmatter as parsed, valid or not, and from the body's
 * images, rendered or not: image errors are reported with every other error.
 */
export function mediaReferences(
  file: LoadedFile,
  rendered: RenderedBody | undefined,
  images: readonly BodyImage[],
): MediaRef[] {
  const refs: MediaRef[] = []
  const data = (file.data ?? {}) as Record<string, unknown>
  const from = file.source.path
  const image = (data.image as { url?: unknown } | undefined)?.url
  if (typeof image === 'string' && isLocal(image))
    refs.push(
      Object.assign(lazyPosition(file, ['image', 'url']), {
        field: 'image.url',
        kind: 'image' as const,
        url: image,
        path: resolveLocal(from, image),
      }),
    )
  for (const list of PEOPLE) {
    const people = data[list]
    if (!Array.isArray(people)) continue
    people.forEach((person: { avatar_url?: unknown }, i) => {
      const url = person?.avatar_url
      if (typeof url !== 'string' || !isLocal(url)) return
      const field = `${list}[${i}].avatar_url`
      const where = lazyPosition(file, [list, i, 'avatar_url'])
      refs.push(Object.assign(where, { field, kind: 'portrait' as const, url, path: resolveLocal(from, url) }))
    })
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
