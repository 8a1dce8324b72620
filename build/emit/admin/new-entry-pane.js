/**
 * A new item is written in the default language only (docs/authoring.md#translations:
 * its translations come later, each from the saved item), so on a multilingual
 * site its form opens alone, with the preview beside it, instead of beside an
 * empty form of the second locale (whose required fields looked as if the new
 * item needed them). Decap keeps one choice of the right-hand pane for every
 * entry (`cms.right-pane` in localStorage, read as its editor opens); here a
 * new entry's choice is kept apart, under its own key, so an author who opens
 * the other locale's form on a new item still can, and existing items keep
 * opening beside their translation.
 *
 * Plain browser ESM, copied into dist/admin/ as it is.
 */

const PANE = 'cms.right-pane'
/** The choice on new entries, kept by this module. */
const NEW_ENTRY_PANE = 'cms.right-pane.new-entry'
/** The pane a new entry opens with until its author chooses another. */
const NEW_ENTRY_DEFAULT = 'preview'
/** Decap's route of a new entry (its hash history). */
const NEW_ENTRY_ROUTE = /^#\/collections\/[^/?]+\/new(?:[/?]|$)/

/**
 * @param {{ locales: readonly string[] } | undefined} i18n the configuration's, if the site is multilingual
 * @param {Storage} storage
 * @param {() => string} hash the current location's hash
 */
export function newEntriesInDefaultLocale(i18n, storage = window.localStorage, hash = () => window.location.hash) {
  if (!i18n || i18n.locales.length < 2) return
  // Decap reads and writes the key as the editor opens and as its panes are toggled: on a new entry's
  // route (set before Decap renders it), the new entries' own key stands in for it.
  const { getItem, setItem } = Storage.prototype
  const onNewEntry = (/** @type {Storage} */ store, /** @type {string} */ key) =>
    store === storage && key === PANE && NEW_ENTRY_ROUTE.test(hash())
  Storage.prototype.getItem = function (key) {
    if (!onNewEntry(this, key)) return getItem.call(this, key)
    return getItem.call(this, NEW_ENTRY_PANE) ?? NEW_ENTRY_DEFAULT
  }
  Storage.prototype.setItem = function (key, value) {
    setItem.call(this, onNewEntry(this, key) ? NEW_ENTRY_PANE : key, value)
  }
}
