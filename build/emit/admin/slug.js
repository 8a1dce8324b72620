/**
 * A new item's file name. The collections name new files by their Slug field
 * (`slug: '{{fields.slug}}'`, contract/admin-config.ts); before the save, an
 * empty Slug is filled from the title the way `npm run new` names files
 * (build/core/slug.ts: accents dropped, lowercase ASCII letters and digits,
 * single hyphens), at most the schema's length. The file then says no
 * `slug:` that only repeats its name, as `npm run new -- --slug` writes none
 * (Decap adds `-1` to a name already taken: the name is the slug then).
 *
 * Plain browser ESM, copied into dist/admin/ as it is; Node runs it in the tests.
 */
import { around } from './backends.js'
import { fromFrontmatterFile, toFrontmatterFile } from './house-style.js'
import { dirname } from './media.js'

/** @typedef {{ name: string, max_length?: number, fields?: readonly Field[], field?: Field }} Field */

/**
 * A slug from any text, as build/core/slug.ts makes one, at most `maxLength` characters.
 * @param {string} text
 * @param {number} maxLength
 */
export function slugFromTitle(text, maxLength) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '')
}

/** The longest slug a collection's schema allows (its Slug field's `max_length`). */
const maxLengthOf = (/** @type {readonly Field[]} */ fields) =>
  fields.find((f) => f.name === 'slug')?.max_length ?? Number.POSITIVE_INFINITY

/**
 * Fill an empty Slug of a new item from its title before Decap names the file.
 * @param {any} CMS Decap's global, before `CMS.init`
 * @param {readonly { name: string, fields: readonly Field[] }[]} collections
 */
export function registerSlugFromTitle(CMS, collections) {
  const fieldsOf = new Map(collections.map((c) => [c.name, c.fields]))
  CMS.registerEventListener({
    name: 'preSave',
    handler: (/** @type {{ entry: any }} */ { entry }) => {
      const fields = fieldsOf.get(entry.get('collection'))
      const data = entry.get('data')
      if (!entry.get('newRecord') || !fields?.some((f) => f.name === 'slug') || data.get('slug')) return undefined
      return data.set('slug', slugFromTitle(String(data.get('title') ?? ''), maxLengthOf(fields)))
    },
  })
}

/**
 * A wrapper of the backends (backends.js): a new item's file is refused when
 * its name is no slug the schema allows, and says no `slug:` its name already says.
 * @param {{ collections: readonly { folder: string, fields: readonly Field[] }[],
 *   i18n?: { default_locale: string } }} config
 * @returns {(implementation: Record<string, any>) => Record<string, any>}
 */
export function newFileNames(config) {
  const fieldsOf = new Map(config.collections.map((c) => [c.folder, c.fields]))
  const suffix = config.i18n ? `.${config.i18n.default_locale}.md` : '.md'
  /** @param {{ path: string, raw: string }} file */
  const named = (file) => {
    const fields = fieldsOf.get(dirname(file.path))
    if (!fields || !file.path.endsWith(suffix)) return file
    const key = file.path.slice(dirname(file.path).length + 1, -suffix.length)
    const max = maxLengthOf(fields)
    if (!key || key.includes('.'))
      throw new Error('The title gives no file name (letters or digits): fill in Slug, like my-first-post.')
    if (key.length > max)
      throw new Error(
        `The file name would have ${key.length} characters; a slug has at most ${max}: fill in a shorter Slug.`,
      )
    const data = fromFrontmatterFile(file.raw)
    const slug = typeof data.slug === 'string' ? data.slug : undefined
    const fromTitle = slugFromTitle(String(data.title ?? ''), max)
    const madeUnique = slug !== undefined && key.startsWith(`${slug}-`) && /^\d+$/.test(key.slice(slug.length + 1))
    if (slug === undefined || !(slug === key || slug === fromTitle || madeUnique)) return file
    delete data.slug
    return { ...file, raw: toFrontmatterFile(data, fields) }
  }
  return (implementation) => {
    around(implementation, 'persistEntry', async (persist, entry, options) =>
      persist(options?.newEntry ? { ...entry, dataFiles: entry.dataFiles.map(named) } : entry, options),
    )
    return implementation
  }
}
