/**
 * Images in the editor at /admin/: where an upload lands and the path the
 * file names it by. Each collection's `media_folder` and `public_folder` are
 * `{{filename}}` (contract/admin-config.ts): an image uploaded to
 * `content/blog-posts/my-post.md` is saved as
 * `content/blog-posts/my-post/cover.png` and written as `my-post/cover.png`,
 * the path relative to the Markdown file that the build resolves.
 *
 * A new item has no file name until its first save, so Decap writes its
 * uploads as a bare `cover.png` while it saves them into the item's folder
 * (a known Decap limitation). `placeUploads` mends that at the one place
 * where both are known, the backend's `persistEntry` (a wrapper of
 * backends.js), for GitHub and the local backend alike: the new file names
 * each such upload by its path in the item's folder. An item in a folder of
 * its own (`my-post/index.md`) looks like `my-post.md` to Decap
 * (repository-layout.js), so its uploads land in that folder too; its file
 * names them from there (`rebaseFolderItemImages`).
 *
 * Plain browser ESM, copied into dist/admin/ as it is; Node runs it in the tests.
 */
import { around } from './backends.js'
import { fromFrontmatterFile, toFrontmatterFile } from './house-style.js'

/** @typedef {{ name: string, widget?: string, fields?: readonly Field[], field?: Field }} Field */

/** @param {string} path */
export function dirname(path) {
  const at = path.lastIndexOf('/')
  return at < 0 ? '' : path.slice(0, at)
}

/** @param {string} path */
function basename(path) {
  return path.slice(path.lastIndexOf('/') + 1)
}

/** Whether a URL names a file next to the Markdown (no scheme, not root-relative, not a fragment or query), as the build decides. */
export function isLocal(/** @type {string} */ url) {
  return url !== '' && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) && !/^[/\\#?]/.test(url)
}

/**
 * The project-relative path `url` names from a Markdown file in `folder`,
 * as the build resolves it; undefined outside content/.
 * @param {string} folder
 * @param {string} url
 * @returns {string | undefined}
 */
export function resolveLocal(folder, url) {
  let decoded = url
  try {
    decoded = decodeURIComponent(url)
  } catch {
    // Not percent-encoded: the path as written.
  }
  /** @type {string[]} */
  const parts = []
  for (const segment of `${folder}/${decoded}`.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (!parts.length) return undefined
      parts.pop()
    } else parts.push(segment)
  }
  const path = parts.join('/')
  return path.startsWith('content/') ? path : undefined
}

/** `![alt](destination` up to the destination, which the next group holds. */
const BODY_IMAGE = /(!\[(?:[^\]\\]|\\.)*\]\(\s*<?)([^\s)>]+)/g

/**
 * The values of image fields (and body images) with each URL passed through `move`.
 * @param {unknown} value
 * @param {Field | undefined} field
 * @param {(url: string) => string} move
 * @returns {unknown}
 */
function relocate(value, field, move) {
  if (typeof value === 'string') {
    if (field?.widget === 'image') return move(value)
    if (field?.widget === 'markdown') return value.replace(BODY_IMAGE, (_all, head, url) => `${head}${move(url)}`)
    return value
  }
  if (Array.isArray(value)) return value.map((item) => relocate(item, field?.field ?? { ...field, name: '' }, move))
  if (value && typeof value === 'object') {
    /** @type {Record<string, unknown>} */
    const out = {}
    for (const [key, inner] of Object.entries(value))
      out[key] = relocate(
        inner,
        (field?.fields ?? []).find((f) => f.name === key),
        move,
      )
    return out
  }
  return value
}

/**
 * The file with its image URLs passed through `move`; the same text when none changes.
 * @param {string} raw
 * @param {readonly Field[]} fields the collection's fields (the body among them)
 * @param {(url: string) => string} move
 */
function withImagesMoved(raw, fields, move) {
  let changed = false
  const data = relocate(fromFrontmatterFile(raw), { name: '', fields }, (url) => {
    const next = move(url)
    if (next !== url) changed = true
    return next
  })
  return changed ? toFrontmatterFile(/** @type {Record<string, unknown>} */ (data), fields) : raw
}

/**
 * The file of a new item with its uploads named by their path in the item's
 * folder: `cover.png` becomes `my-post/cover.png` when the upload is saved as
 * `content/blog-posts/my-post/cover.png` beside `content/blog-posts/my-post.md`.
 * @param {string} raw the file as the collection's format wrote it
 * @param {string} path the new file's path
 * @param {readonly { path: string }[]} assets the uploads saved with it
 * @param {readonly Field[]} fields the collection's fields (the body among them)
 * @returns {string}
 */
export function placeNewItemUploads(raw, path, assets, fields) {
  const folder = dirname(path)
  /** @type {Map<string, string>} */
  const moved = new Map()
  for (const asset of assets) {
    const at = asset.path.replace(/^\/+/, '')
    if (!at.startsWith(`${folder}/`)) continue
    const relative = at.slice(folder.length + 1)
    if (relative.includes('/')) moved.set(basename(relative), relative)
  }
  if (!moved.size) return raw
  return withImagesMoved(raw, fields, (url) => moved.get(url) ?? url)
}

/**
 * The file of an item kept in a folder of its own (`my-post/index.md`) with
 * the images the editor named as it names a file item's (`my-post/cover.png`,
 * its uploads and picks from the item's images, which are in that folder)
 * named from the file, as the build resolves them (`cover.png`).
 * @param {string} raw
 * @param {string} key the item's folder name
 * @param {readonly Field[]} fields
 */
export function rebaseFolderItemImages(raw, key, fields) {
  const prefix = `${key}/`
  return withImagesMoved(raw, fields, (url) =>
    url.startsWith(prefix) && !url.slice(prefix.length).includes('/') ? url.slice(prefix.length) : url,
  )
}

/**
 * Save a new item's uploads under the paths its file names (see the top of
 * this file): a wrapper of the backends (backends.js).
 * @param {readonly { folder: string, fields: readonly Field[] }[]} collections
 * @returns {(implementation: Record<string, any>) => Record<string, any>}
 */
export function placeUploads(collections) {
  const fieldsOf = new Map(collections.map((c) => [c.folder, c.fields]))
  /** @param {{ dataFiles: { path: string, raw: string }[], assets: { path: string }[] }} entry */
  const placed = (entry) => ({
    ...entry,
    dataFiles: entry.dataFiles.map((file) => {
      const fields = fieldsOf.get(dirname(file.path))
      return fields ? { ...file, raw: placeNewItemUploads(file.raw, file.path, entry.assets, fields) } : file
    }),
  })
  return (implementation) => {
    around(implementation, 'persistEntry', async (persist, entry, options) =>
      persist(options?.newEntry ? placed(entry) : entry, options),
    )
    return implementation
  }
}
