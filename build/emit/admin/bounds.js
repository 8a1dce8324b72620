/**
 * The length bounds of the editor's text fields (`min_length`, `max_length`:
 * the schema's minLength and maxLength, contract/admin-patterns.ts), checked
 * apart from the field's pattern, so that a value breaking one rule is told
 * that rule alone, in the words of `npm run check` (Decap's one `pattern` per
 * field would have joined the two messages, whichever was broken).
 *
 * Plain browser ESM, copied into dist/admin/ as it is; Node runs it in the tests.
 */

/** The widgets whose value is text with bounds (contract/admin-fields.ts). */
const BOUNDED = ['string', 'text', 'image']

/**
 * What is wrong with the length of `value`, as `npm run check` says it; undefined when nothing is.
 * @param {{ min_length?: number, max_length?: number }} bounds a field of the configuration
 * @param {unknown} value
 */
export function lengthProblem(bounds, value) {
  if (typeof value !== 'string' || value === '') return undefined
  if (bounds.max_length !== undefined && value.length > bounds.max_length)
    return `must have at most ${bounds.max_length} characters (it has ${value.length})`
  if (bounds.min_length !== undefined && value.length < bounds.min_length)
    return `must have at least ${bounds.min_length} characters`
  return undefined
}

/** @param {any} CMS Decap's global, before `CMS.init` */
export function registerLengthBounds(CMS) {
  for (const name of BOUNDED) {
    const widget = CMS.getWidget(name)
    const Base = widget?.control
    // Decap asks a control's isValid() besides the field's own checks; these three have none of their own.
    if (typeof Base !== 'function' || !Base.prototype?.render) continue
    class Bounded extends Base {
      isValid() {
        const field = this.props.field
        const bounds = { min_length: field.get('min_length'), max_length: field.get('max_length') }
        const problem = lengthProblem(bounds, this.props.value)
        if (!problem) return true
        return { error: { type: 'CUSTOM', message: `${field.get('label', field.get('name'))}: ${problem}` } }
      }
    }
    CMS.registerWidget(name, Bounded, widget.preview, widget.schema)
  }
}
