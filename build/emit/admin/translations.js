/**
 * The translations the editor saves (Decap's i18n, on a multilingual site).
 * Decap writes an item's file in every locale of the site on every save,
 * whether anyone wrote that locale or not, and checks the form of the default
 * locale only. Here, at the backend (a wrapper of backends.js, on Decap's
 * paths), a translation is what docs/authoring.md#translations says it is:
 *
 * - a locale whose fields are all empty is no translation: no file is
 *   written for it (an existing one is left as it is);
 * - a translation is a complete file: one missing a required field, or with
 *   a value its field's pattern refuses, stops the save with the form's
 *   messages, before anything is written;
 * - its `related` entries name items of its own locale: an entry naming a
 *   default-locale item (as "Copy from" leaves them) becomes that item's
 *   translation where the locale has one, as `npm run new -- --translate` does.
 *
 * Plain browser ESM, copied into dist/admin/ as it is; Node runs it in the tests.
 */
import { around } from './backends.js'
import { lengthProblem } from './bounds.js'
import { fromFrontmatterFile, toFrontmatterFile } from './house-style.js'
import { dirname } from './media.js'

/**
 * @typedef {{ name: string, label?: string, widget?: string, required?: boolean, pattern?: [string, string],
 *   min_length?: number, max_length?: number, min?: number, fields?: readonly Field[], field?: Field,
 *   locale_options?: Record<string, readonly { value: string, translates?: string }[]> }} Field
 */

/** Whether a value holds nothing a person wrote (an unticked box counts as empty). */
function isBlank(/** @type {unknown} */ value) {
  if (value === null || value === undefined || value === '' || value === false) return true
  if (Array.isArray(value)) return value.every(isBlank)
  if (typeof value === 'object') return Object.values(value).every(isBlank)
  return false
}

/**
 * What the form would say of `data` against `fields`: required fields, patterns, text and list lengths.
 * @param {Record<string, unknown>} data
 * @param {readonly Field[]} fields
 * @returns {string[]}
 */
export function formProblems(data, fields) {
  /** @type {string[]} */
  const problems = []
  for (const field of fields) {
    const value = data[field.name]
    const label = field.label ?? field.name
    if (isBlank(value)) {
      if (field.required !== false && field.widget !== 'boolean') problems.push(`${label}: is required`)
      continue
    }
    if (typeof value === 'string' && field.pattern && !new RegExp(field.pattern[0]).test(value))
      problems.push(`${label}: ${field.pattern[1]}`)
    const length = lengthProblem(field, value)
    if (length) problems.push(`${label}: ${length}`)
    const items = Array.isArray(value) ? value.filter((v) => !isBlank(v)) : undefined
    if (items && field.min !== undefined && items.length < field.min)
      problems.push(`${label}: must have at least ${field.min}`)
    for (const item of items ?? [value]) {
      if (field.fields && item && typeof item === 'object')
        problems.push(...formProblems(/** @type {Record<string, unknown>} */ (item), field.fields))
      else if (field.field && Array.isArray(value))
        problems.push(...formProblems({ v: item }, [{ ...field.field, name: 'v' }]))
    }
  }
  return problems
}

/**
 * `related` of a translation in `locale`: an entry naming a default-locale
 * item with a translation in the locale names that translation instead.
 * @param {Record<string, unknown>} data
 * @param {readonly Field[]} fields
 * @param {string} locale
 */
function relatedInLocale(data, fields, locale) {
  let changed = false
  const out = { ...data }
  for (const field of fields) {
    const options = field.locale_options?.[locale]
    const value = data[field.name]
    if (!options || !Array.isArray(value)) continue
    const values = new Set(options.map((o) => o.value))
    out[field.name] = value.map((v) => {
      const translation = values.has(v) ? undefined : options.find((o) => o.translates === v)
      if (translation) changed = true
      return translation ? translation.value : v
    })
  }
  return changed ? out : undefined
}

/**
 * @param {{ collections: readonly { folder: string, fields: readonly Field[] }[],
 *   i18n?: { locales: readonly string[], default_locale: string } }} config
 * @returns {(implementation: Record<string, any>) => Record<string, any>}
 */
export function translations(config) {
  const i18n = config.i18n
  if (!i18n) return (implementation) => implementation
  const fieldsOf = new Map(config.collections.map((c) => [c.folder, c.fields]))
  const localeOf = (/** @type {string} */ path) => /\.([^./]+)\.md$/.exec(path)?.[1]
  /** @param {{ path: string, raw: string }} file */
  const checked = (file) => {
    const locale = localeOf(file.path)
    const fields = fieldsOf.get(dirname(file.path))
    if (!fields || !locale || locale === i18n.default_locale || !i18n.locales.includes(locale)) return [file]
    const data = fromFrontmatterFile(file.raw)
    if (isBlank(data)) return []
    const problems = formProblems(data, fields)
    if (problems.length)
      throw new Error(
        `The ${locale.toUpperCase()} version is not complete (${problems.join('; ')}). Fill it in (“Fill in from another locale” copies another locale’s fields to start from), or empty all its fields to save without it.`,
      )
    const related = relatedInLocale(data, fields, locale)
    return [related ? { ...file, raw: toFrontmatterFile(related, fields) } : file]
  }
  return (implementation) => {
    around(implementation, 'persistEntry', async (persist, entry, options) =>
      persist({ ...entry, dataFiles: entry.dataFiles.flatMap(checked) }, options),
    )
    return implementation
  }
}
