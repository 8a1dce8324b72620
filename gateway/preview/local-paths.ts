/**
 * What the editor's local backend may touch in the working tree, and how it
 * writes there. Content files: an item's Markdown directly inside
 * `content/<collection>/` (`my-post.md`, its translations `my-post.de.md`),
 * or in the item's own folder there (`my-post/index.md`, `my-post/index.de.md`).
 * Images: files of the formats the build reads, directly inside a collection's
 * folder, in an item's folder one level below it
 * (`content/blog-posts/my-post/cover.jpg`), or among the shared portraits in
 * `content/people/`. Every segment of a path is a plain name (no `..`, no
 * hidden file, no backslash), and a folder that resolves outside the project
 * (a symlink) is refused.
 *
 * @example contentPath('content/blog-posts/x.md') // 'content/blog-posts/x.md'; '../x.md' throws
 */
import { randomBytes } from 'node:crypto'
import { mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { SHARED_MEDIA_FOLDER } from '../../contract/admin-config.ts'

import { AppError } from '../../contract/errors.ts'
import { LOCAL_IMAGE_EXTENSIONS } from '../../contract/media.ts'

/** A request Decap may not make here (unknown action, a path outside the collections): answered `{ error }`, 422 (404 for a missing file). */
export class LocalBackendError extends AppError {
  readonly code = 'LOCAL_BACKEND'

  constructor(
    message: string,
    readonly status: 404 | 413 | 422 = 422,
  ) {
    super(message)
  }
}

/** The collections' folders (`content/<collection>`): which collections there are is site.yaml's, now. */
export interface CollectionFolders {
  has(folder: string): boolean
}

/** The folders of the collections `names` gives (the compiler's model, which an edit of site.yaml changes). */
export function collectionFolders(names: () => readonly string[]): CollectionFolders {
  return { has: (folder) => folder.startsWith('content/') && names().includes(folder.slice('content/'.length)) }
}
/** A file or folder name: what Decap makes of a title or an upload (lowercase ASCII, `-`, `.`, `_`, `~`). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/
const MARKDOWN_NAME = /^[A-Za-z0-9][A-Za-z0-9._~-]*\.md$/
/** An item's file in its own folder: `index.md`, or a translation's `index.de.md`. */
const INDEX_NAME = /^index(?:\.[A-Za-z0-9_-]+)?\.md$/
const IMAGE_EXTENSIONS = new Set<string>(LOCAL_IMAGE_EXTENSIONS)
/** Longer paths than any the editor makes are refused before they are looked at. */
const MAX_PATH_LENGTH = 300

const shown = (value: unknown) => JSON.stringify(String(value).slice(0, 200))

/** Whether `path` is an item's file: Markdown directly in a collection's folder, or an `index` file in an item's folder there. */
export function isContentPath(path: string, folders: CollectionFolders): boolean {
  if (path.length > MAX_PATH_LENGTH) return false
  const name = basename(path)
  if (folders.has(dirname(path))) return MARKDOWN_NAME.test(name)
  const folder = dirname(path)
  return INDEX_NAME.test(name) && folders.has(dirname(folder)) && NAME.test(basename(folder))
}

/** The path, if it names an item's file (see `isContentPath`). */
export function contentPath(path: unknown, folders: CollectionFolders): string {
  if (typeof path !== 'string' || !isContentPath(path, folders))
    throw new LocalBackendError(
      `${shown(path)} is not a content file: the editor reads and writes content/<collection>/<slug>.md and content/<collection>/<slug>/index.md only (and their translations, <slug>.<locale>.md)`,
    )
  return path
}

/** The folder (trailing slashes dropped), if it is a collection's. */
export function collectionFolderOf(folder: unknown, folders: CollectionFolders): string {
  const trimmed = typeof folder === 'string' ? folder.replace(/\/+$/, '') : ''
  if (!folders.has(trimmed)) throw new LocalBackendError(`${shown(folder)} is not a collection's folder`)
  return trimmed
}

/** Whether `folder` may hold images: a collection's folder, an item's folder in it, or the shared portraits'. */
function isMediaFolder(folder: string, folders: CollectionFolders): boolean {
  if (folder === SHARED_MEDIA_FOLDER || folders.has(folder)) return true
  return folders.has(dirname(folder)) && NAME.test(basename(folder))
}

/** The folder (trailing slashes dropped), if images may live in it. */
export function mediaFolderOf(folder: unknown, folders: CollectionFolders): string {
  const trimmed = typeof folder === 'string' ? folder.replace(/\/+$/, '') : ''
  if (trimmed.length > MAX_PATH_LENGTH || !isMediaFolder(trimmed, folders))
    throw new LocalBackendError(
      `${shown(folder)} is not a folder of images: the editor keeps them in content/<collection>/, an item's folder there, or ${SHARED_MEDIA_FOLDER}/`,
    )
  return trimmed
}

/** Whether a file name has the extension of an image the build reads. */
export function isImageName(name: string): boolean {
  const dot = name.lastIndexOf('.')
  return NAME.test(name) && dot > 0 && IMAGE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())
}

/** The path, if it names an image file where images may live. */
export function mediaPath(path: unknown, folders: CollectionFolders): string {
  if (typeof path !== 'string' || path.length > MAX_PATH_LENGTH)
    throw new LocalBackendError(`${shown(path)} is not an image path`)
  mediaFolderOf(dirname(path), folders)
  if (!isImageName(basename(path)))
    throw new LocalBackendError(
      `${shown(path)} is not an image file: the build reads ${LOCAL_IMAGE_EXTENSIONS.map((e) => `.${e}`).join(', ')}`,
    )
  return path
}

/** Reading and writing the project's files by their checked paths. */
export function projectFiles(root: string, folders: CollectionFolders) {
  let project: Promise<string> | undefined
  /** Refuse `path` when it, or the nearest part of it that exists, resolves outside the project (a symlink). */
  const inside = async (path: string): Promise<string> => {
    const top = await (project ??= realpath(root))
    for (let probe = path; ; probe = dirname(probe)) {
      const real = await realpath(join(root, probe)).catch(() => undefined)
      if (real !== undefined) {
        if (real !== top && !real.startsWith(`${top}/`))
          throw new LocalBackendError(`${path} resolves outside the project`)
        return join(root, path)
      }
      if (probe === '.' || !probe.includes('/')) return join(root, path)
    }
  }
  return {
    /** The collections' folders, which the paths are checked against. */
    folders,
    /** Where a checked path is on disk. */
    resolve: inside,
    /** Write through a temporary file renamed into place, so the watcher never reads half a file. */
    async write(path: string, data: string | Buffer): Promise<void> {
      const target = join(await inside(dirname(path)), basename(path))
      await mkdir(dirname(target), { recursive: true })
      // A name neither Markdown nor an image, so the watcher ignores it until the rename (which replaces a link, never its target).
      const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`)
      try {
        await writeFile(tmp, data, { flag: 'wx' })
        await rename(tmp, target)
      } finally {
        await rm(tmp, { force: true })
      }
    },
  }
}

export type ProjectFiles = ReturnType<typeof projectFiles>
