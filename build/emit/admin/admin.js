/**
 * Starts the editor at /admin/ (Decap CMS, loaded before this module by
 * index.html with CMS_MANUAL_INIT set): reads the configuration generated from
 * the schemas (config.yml), registers how each collection's files are read and
 * written (house-style.js), how Decap's files map onto the repository's
 * (repository-layout.js: the default locale's file, items in folders), what a
 * translation's file is (translations.js), how a new file is named
 * (slug.js), where uploaded images go (media.js), the widgets for dates and
 * `related`, the preview, and the messages of `npm run check`, then starts Decap.
 *
 * On a loopback host (`npm run dev`) Decap looks for the dev server's local
 * backend first and edits the working tree through it; anywhere else, or when
 * none answers (`npm start`), it edits through GitHub as configured.
 */
import { parse } from 'yaml'
import { wrapBackends } from './backends.js'
import { registerDateTimeOffsetWidget } from './datetime-offset.js'
import { fromFrontmatterFile, toFrontmatterFile } from './house-style.js'
import { placeUploads } from './media.js'
import { registerPreviews } from './preview.js'
import { registerRelatedWidget } from './related.js'
import { repositoryLayout } from './repository-layout.js'
import { newFileNames, registerSlugFromTitle } from './slug.js'
import { translations } from './translations.js'

const CMS = window.CMS
/** Paths the page was built with (contract/public-paths.ts). */
const paths = JSON.parse(document.getElementById('admin-paths')?.textContent ?? '{}')
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']
const local = LOOPBACK.includes(location.hostname)

const response = await fetch(paths.config, { credentials: 'same-origin', cache: 'no-cache' })
if (!response.ok) throw new Error(`${paths.config} answered ${response.status}`)
const config = parse(await response.text())

if (local)
  config.local_backend = {
    url: new URL(paths.localBackend, location.href).href,
    allowed_hosts: LOOPBACK,
  }

for (const collection of config.collections) {
  const fields = collection.fields
  CMS.registerCustomFormat(collection.format, collection.extension, {
    fromFile: (text) => fromFrontmatterFile(text),
    toFile: (data) => toFrontmatterFile(data, fields),
  })
}

// Innermost first: the repository's layout, then what the others change on Decap's paths.
const layout = repositoryLayout(config)
wrapBackends(CMS, [
  layout.wrap,
  translations(config),
  // An upload goes to the item's folder; a new item's is named by that path when it is first saved.
  placeUploads(config.collections),
  newFileNames(config),
])
registerSlugFromTitle(CMS, config.collections)
registerDateTimeOffsetWidget(CMS)
registerRelatedWidget(CMS, config.i18n?.default_locale)

// The form's messages read like `npm run check`'s: "Title: is required".
const english = CMS.getLocale('en')
if (english) {
  const widget = english.editor.editorControlPane.widget
  widget.required = '%{fieldLabel}: is required'
  widget.regexPattern = '%{fieldLabel}: %{pattern}'
  CMS.registerLocale('en', english)
}

CMS.registerPreviewStyle(new URL('preview.css', import.meta.url).href)
registerPreviews(CMS, config, {
  local,
  renderPath: paths.render,
  previewPrefix: paths.preview,
  localBackend: paths.localBackend,
  repositoryPath: layout.repositoryPath,
})

CMS.init({ config: { ...config, load_config_file: false } })
