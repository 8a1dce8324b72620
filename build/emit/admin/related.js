/**
 * The `related` widget (contract/admin-fields.ts): Decap's select over the
 * published items of the locale being written. The default locale's pane
 * offers the field's `options`; a translation's pane its locale's
 * `locale_options` (its translations, and where the locale falls back, the
 * default items it has no translation of), since a translation relates to
 * items of its own locale (docs/authoring.md#translations).
 *
 * Plain browser ESM, copied into dist/admin/ as it is.
 */

/**
 * @param {any} CMS Decap's global, before `CMS.init`
 * @param {string | undefined} defaultLocale the site's default locale (undefined: a single-language site)
 */
export function registerRelatedWidget(CMS, defaultLocale) {
  const select = CMS.getWidget('select')
  const h = window.h
  const Related = window.createClass({
    render() {
      const { field, locale } = this.props
      const byLocale = field.get('locale_options')
      const translation = defaultLocale !== undefined && locale !== undefined && locale !== defaultLocale
      const options =
        translation && byLocale ? (byLocale.get(locale) ?? field.get('options').clear()) : field.get('options')
      return h(select.control, {
        ...this.props,
        field: field.set('options', options),
        ref: (/** @type {any} */ control) => {
          this.control = control
        },
      })
    },
    // Decap validates through the control it holds: the select's own checks (its bounds) stay in force.
    isValid() {
      return this.control?.isValid?.() ?? true
    },
  })
  CMS.registerWidget('related', Related, select.preview, select.schema)
}
