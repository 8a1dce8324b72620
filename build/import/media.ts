/**
 * The images an item names, found in the folder `--media` gives (a copy of
 * `wp-content/uploads`, or of Ghost's `content/images`): each one found is
 * copied beside its item (`content/<collection>/<slug>/<file>`) and named by
 * that relative path, so the build processes it as any local image. Without
 * the folder, or for a file it lacks (a warning), the image stays a remote
 * URL; an image with no address the API can use is left out, with a note.
 */
import { existsSync } from 'node:fs'
import { basename, extname, join } from 'node:path'

export interface MediaCopy {
  from: string
  /** Path relative to the project root. */
  to: string
}

export class MediaResolver {
  constructor(
    private readonly folder: string | undefined,
    /** The old site's address, for the paths Ghost writes as `__GHOST_URL__/…`. */
    private readonly site: string | undefined,
  ) {}

  /** The file in --media for `src`, when there is one. */
  private find(src: string): string | undefined {
    if (!this.folder) return undefined
    let path: string
    try {
      path = decodeURIComponent(new URL(src.replace(/^__GHOST_URL__/, 'http://ghost.invalid')).pathname)
    } catch {
      return undefined
    }
    const candidates = [
      /\/wp-content\/uploads\/(.+)$/.exec(path)?.[1],
      /\/content\/images\/(?:size\/w\d+\/)?(.+)$/.exec(path)?.[1],
      path.replace(/^\/+/, ''),
    ].filter(Boolean) as string[]
    // A resized copy WordPress made (`photo-300x200.jpg`) falls back to its original.
    for (const candidate of [...candidates, ...candidates.map((c) => c.replace(/-\d+x\d+(\.\w+)$/, '$1'))]) {
      const file = join(this.folder, candidate)
      if (!file.startsWith(this.folder) || !existsSync(file)) continue
      return file
    }
    return undefined
  }

  /**
   * `src` as a file of `dir` (relative to the project root) names it: `<prefix>/<file>` once it is
   * copied, else an absolute URL; undefined when it has none.
   */
  resolve(src: string, dir: string, prefix: string, notes: string[], copies: MediaCopy[]): string | undefined {
    const file = this.find(src)
    if (file) {
      return this.nameFor(file, dir, prefix, copies)
    }
    if (this.folder && /\/(?:wp-content\/uploads|content\/images)\//.test(src))
      notes.push(`the image ${src} is not in the --media folder: it stays a remote URL`)
    const absolute = src.startsWith('__GHOST_URL__')
      ? this.site
        ? `${this.site.replace(/\/+$/, '')}${src.slice(13)}`
        : ''
      : src
    if (/^https?:\/\//.test(absolute)) return absolute
    if (/^\/\//.test(absolute)) return `https:${absolute}`
    notes.push(
      `the image ${src} has no address the API can use (give --media, or --site-url for a Ghost export): it was left out`,
    )
    return undefined
  }

  /** The file's name beside its item: its own, unless another file of the item took it. */
  private nameFor(file: string, dir: string, prefix: string, copies: MediaCopy[]): string {
    const base = basename(file)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${basename(base, extname(base))}-${n}${extname(base)}`
      const to = join(dir, prefix, name)
      const taken = copies.find((c) => c.to === to)
      if (!taken) copies.push({ from: file, to })
      if (!taken || taken.from === file) return `${prefix}/${name}`
    }
  }
}
