/**
 * Decap's view of the content files, mapped onto the repository's layout
 * (docs/authoring.md#where-files-go, build/core/sources.ts), both ways.
 *
 * Decap sees every item as flat files, one per locale: its i18n structure
 * `multiple_files` names every locale, the default too
 * (`content/blog-posts/my-post.en.md`, `my-post.de.md`; `my-post.md` on a
 * single-language site). The repository names the default locale's file
 * without its locale (`my-post.md`, as people write it; `my-post.en.md` is
 * kept where someone wrote it so), and an item may live in a folder of its
 * own, with its images (`my-post/index.md`, `my-post/index.de.md`). To Decap
 * such an item looks like a file item: its slug is the folder's name and its
 * uploads land in that folder (the collections' media_folder `{{filename}}`),
 * which its file then names from there (media.js `rebaseFolderItemImages`).
 *
 * A wrapper of the backends (backends.js), the innermost one: every other
 * wrapper sees Decap's paths. It lists items in folders too (Decap lists one
 * level of a collection's folder), reads a missing file as an empty one (so
 * Decap never takes a translation for the default locale's file), and
 * deletes only the files that exist.
 *
 * Plain browser ESM, copied into dist/admin/ as it is; Node runs it in the tests.
 */
import { around } from './backends.js'
import { dirname, rebaseFolderItemImages } from './media.js'

/** @typedef {import('./media.js').Field} Field */
/** @typedef {{ data: string | null, file: { path: string, id?: string | null } }} Entry */

/** `index.md`, `index.de.md`: the files of an item's folder (the locale, if any, in group 1). */
const INDEX_FILE = /^index(?:\.([^./]+))?\.md$/

/** @param {string} path */
const basename = (path) => path.slice(path.lastIndexOf('/') + 1)

/**
 * @param {{
 *   collections: readonly { folder: string, fields: readonly Field[] }[],
 *   i18n?: { locales: readonly string[], default_locale: string },
 * }} config the editor's configuration (contract/admin-config.ts)
 */
export function repositoryLayout(config) {
  const folders = new Set(config.collections.map((c) => c.folder))
  const fieldsOf = new Map(config.collections.map((c) => [c.folder, c.fields]))
  const defaultLocale = config.i18n?.default_locale
  const locales = new Set(config.i18n?.locales ?? [])
  /** The repository's path of each file seen so far (listed or read), by Decap's. */
  const seen = new Map()
  /** How each item seen so far lays out its files, by `folder/key`: the layout of its files not written yet. */
  const layouts = new Map()

  /**
   * An item file's collection folder, key and locale as its name says
   * (undefined: none), by either side's name of a file directly in a collection's folder.
   * @param {string} path
   */
  function fileOf(path) {
    const folder = dirname(path)
    const name = basename(path)
    if (!folders.has(folder) || !name.endsWith('.md')) return undefined
    const stem = name.slice(0, -'.md'.length)
    const dot = stem.lastIndexOf('.')
    const locale = stem.slice(dot + 1)
    if (dot > 0 && locales.has(locale)) return { folder, key: stem.slice(0, dot), locale }
    return { folder, key: stem, locale: undefined }
  }

  /** Decap's path of an item's file in `locale` (undefined: the default). */
  const decapPath = (/** @type {string} */ id, /** @type {string | undefined} */ locale) =>
    defaultLocale === undefined ? `${id}.md` : `${id}.${locale ?? defaultLocale}.md`

  /**
   * The repository's path of a file by Decap's; anything but an item's file is left as it is.
   * @param {string} path
   * @param {{ folder: boolean, namedDefault: boolean }} [layout] how an item not seen yet is laid out
   */
  function repositoryPath(path, layout) {
    if (seen.has(path)) return seen.get(path)
    const file = fileOf(path)
    if (!file) return path
    const id = `${file.folder}/${file.key}`
    const { folder, namedDefault } = layouts.get(id) ?? layout ?? LAYOUTS[0]
    const locale = file.locale === defaultLocale && !namedDefault ? undefined : file.locale
    const suffix = locale ? `.${locale}` : ''
    return folder ? `${id}/index${suffix}.md` : `${id}${suffix}.md`
  }

  /** Note where an item's file is, and so how the item lays out its files. */
  function note(/** @type {string} */ decap, /** @type {string} */ repository, /** @type {string} */ id) {
    seen.set(decap, repository)
    const named = defaultLocale !== undefined && basename(repository).endsWith(`.${defaultLocale}.md`)
    const layout = { folder: repository.startsWith(`${id}/`), namedDefault: named }
    if (!layouts.has(id) || decap.endsWith(`.${defaultLocale}.md`)) layouts.set(id, layout)
  }

  /**
   * Decap's path of a file of the repository, noted; undefined for a file that
   * is no item's (a note in an item's folder, a locale the site does not have).
   * @param {string} path
   */
  function fromRepository(path) {
    const index = INDEX_FILE.exec(basename(path))
    const inFolder = index !== null && folders.has(dirname(dirname(path)))
    if (inFolder && index[1] !== undefined && !locales.has(index[1])) return undefined
    const file = inFolder ? { id: dirname(path), locale: index[1] } : fileOf(path)
    if (!file) return undefined
    const id = 'id' in file ? file.id : `${file.folder}/${file.key}`
    const decap = decapPath(id, file.locale === defaultLocale ? undefined : file.locale)
    note(decap, path, id)
    return decap
  }

  /** @param {Entry[]} entries a listing, maybe with Decap's cursor among its symbol keys */
  function listed(entries) {
    /** @type {Entry[] & Record<symbol, unknown>} */
    const out = []
    for (const entry of entries) {
      const path = fromRepository(entry.file.path)
      if (path) out.push({ ...entry, file: { ...entry.file, path } })
    }
    for (const symbol of Object.getOwnPropertySymbols(entries))
      out[symbol] = /** @type {Record<symbol, unknown>} */ (entries)[symbol]
    return out
  }

  /**
   * @param {Record<string, any>} implementation
   * @returns {Record<string, any>}
   */
  function wrap(implementation) {
    const getEntry = implementation.getEntry.bind(implementation)
    /** Read a file by Decap's path: one not seen yet is looked for in each layout; a missing file reads empty. */
    const read = async (/** @type {string} */ path) => {
      const file = fileOf(path)
      if (!file) return getEntry(path)
      const id = `${file.folder}/${file.key}`
      const known = seen.has(path) || layouts.has(id)
      const candidates = known ? [repositoryPath(path)] : LAYOUTS.map((layout) => repositoryPath(path, layout))
      for (const candidate of new Set(candidates)) {
        const entry = await getEntry(candidate)
        if (entry?.data) {
          note(path, candidate, id)
          return { ...entry, file: { ...entry.file, path } }
        }
      }
      return { data: '', file: { path, id: null } }
    }
    around(implementation, 'getEntry', (_getEntry, path) => read(path))
    around(implementation, 'entriesByFolder', async (list, folder, extension, depth) => {
      // Items in folders of their own are one level further down.
      if (!folders.has(folder)) return list(folder, extension, depth)
      return listed(await list(folder, extension, Math.max(depth ?? 1, 2)))
    })
    around(implementation, 'allEntriesByFolder', async (list, folder, extension, depth, _pathRegex) =>
      // Not Decap's filter, which keeps only files named in the default locale: an item only in German is an item too.
      listed(await list(folder, extension, Math.max(depth ?? 1, 2))),
    )
    around(implementation, 'traverseCursor', async (traverse, cursor, action) => {
      const page = await traverse(cursor, action)
      return { ...page, entries: listed(page.entries) }
    })
    around(implementation, 'persistEntry', async (persist, entry, options) =>
      persist({ ...entry, dataFiles: entry.dataFiles.map(toRepository) }, options),
    )
    around(implementation, 'deleteFiles', async (remove, paths, message) => {
      // Decap deletes an item's file in every locale; only those it has are removed.
      const present = []
      for (const path of /** @type {string[]} */ (paths))
        if (!fileOf(path) || (await read(path)).data) present.push(repositoryPath(path))
      return present.length ? remove(present, message) : undefined
    })
    around(implementation, 'unpublishedEntry', async (get, ...args) => {
      const entry = await get(...args)
      if (!entry?.diffs) return entry
      const diffs = entry.diffs.map((/** @type {{ path: string }} */ d) => ({
        ...d,
        path: fromRepository(d.path) ?? d.path,
      }))
      return { ...entry, diffs }
    })
    around(implementation, 'unpublishedEntryDataFile', (get, collection, slug, path, id) =>
      get(collection, slug, repositoryPath(path), id),
    )
    return implementation
  }

  /** A file Decap saves, at its path in the repository (an item in a folder names its images from there). */
  function toRepository(/** @type {{ path: string, raw: string, newPath?: string }} */ file) {
    const path = repositoryPath(file.path)
    const item = fileOf(file.path)
    const folder = item && path !== file.path && dirname(path) !== item.folder
    return {
      ...file,
      path,
      raw: folder ? rebaseFolderItemImages(file.raw, item.key, fieldsOf.get(item.folder) ?? []) : file.raw,
      ...(file.newPath ? { newPath: repositoryPath(file.newPath) } : {}),
    }
  }

  return {
    wrap,
    /** The repository's path of an item's file by Decap's (the preview resolves images from it). */
    repositoryPath: (/** @type {string} */ path) => repositoryPath(path),
  }
}

/** The ways an item not seen yet may lay out its files, the usual first. */
const LAYOUTS = [
  { folder: false, namedDefault: false },
  { folder: true, namedDefault: false },
  { folder: false, namedDefault: true },
  { folder: true, namedDefault: true },
]
