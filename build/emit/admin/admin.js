/**
 * Starts the editor at /admin/ (Decap CMS, loaded before this module by
 * index.html with CMS_MANUAL_INIT set): reads the configuration generated from
 * the schemas (config.yml), registers how each collection's files are read and
 * written (house-style.js), how Decap's files map onto the repository's
 * (repository-layout.js: the default locale's file, items in folders), what a
 * translation's file is (translations.js), how a new file is named
 * (slug.js), where uploaded images go (media.js), the widgets for dates and
 * `related`, the length bounds of text (bounds.js), the body's components
 * (components.js), the preview, a new item's
 * form alone in the default locale (new-entry-pane.js), and the messages of
 * `npm run check`, then starts Decap.
 *
 * On a loopback host (`npm run dev`) Decap looks for the dev server's local
 * backend first and edits the working tree through it; anywhere else, or when
 * none answers (`npm start`), it edits through GitHub as configured. Without
 * a repository to edit through (`repository` in content/site.yaml), the page
 * says so in the build's words instead of starting Decap.
 */
import { parse } from 'yaml'
import { wrapBackends } from './backends.js'
import { registerLengthBounds } from './bounds.js'
import { registerComponents } from './components.js'
import { registerDateTimeOffsetWidget } from './datetime-offset.js'
import { fromFrontmatterFile, toFrontmatterFile } from './house-style.js'
import { placeUploads } from './media.js'
import { newEntriesInDefaultLocale } from './new-entry-pane.js'
import { registerPreviews } from './preview.js'
import { registerRelatedWidget } from './related.js'
import { repositoryLayout } from './repository-layout.js'
import { newFileNames, registerSlugFromTitle } from './slug.js'
import { translations } from './translations.js'

const CMS = window.CMS
/** Paths the page was built with (contract/public-paths.ts). */
const paths = JSON.parse(document.getElementById('admin-paths')?.textContent ?? '{}')
/** What keeps the editor from saving, as the build warned of it (contract/admin-config.ts editorProblem), if anything. */
const problem = JSON.parse(document.getElementById('admin-problem')?.textContent ?? 'null')
/** The components the body's editor offers, with their attribute forms (build/emit/admin-components.ts). */
const components = JSON.parse(document.getElementById('admin-components')?.textContent ?? '[]')
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']
const local = LOOPBACK.includes(location.hostname)
const localBackend = new URL(paths.localBackend, location.href).href

/** Whether the dev server's local backend answers here, asked as Decap asks (its `info` action). */
async function localBackendAnswers() {
  try {
    const answer = await fetch(localBackend, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'info' }),
    })
    return typeof (await answer.json())?.repo === 'string'
  } catch {
    return false
  }
}

/** The page's one message, in place of the editor. */
function showProblem(/** @type {string} */ text) {
  const main = document.createElement('main')
  main.style.cssText = 'max-width: 42rem; margin: 4rem auto; padding: 0 1rem; font: 16px/1.5 system-ui, sans-serif'
  const heading = document.createElement('h1')
  heading.textContent = 'The editor cannot save here yet'
  const detail = document.createElement('p')
  detail.textContent = text
  main.append(heading, detail)
  document.body.append(main)
}

/** Configure Decap as the build says (config.yml) and start it. */
async function start() {
  const response = await fetch(paths.config, { credentials: 'same-origin', cache: 'no-cache' })
  if (!response.ok) throw new Error(`${paths.config} answered ${response.status}`)
  const config = parse(await response.text())

  if (local) config.local_backend = { url: localBackend, allowed_hosts: LOOPBACK }

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
  registerLengthBounds(CMS)
  registerDateTimeOffsetWidget(CMS)
  registerComponents(CMS, components)
  registerRelatedWidget(CMS, config.i18n?.default_locale)

  newEntriesInDefaultLocale(config.i18n)

  // The form's messages read like `npm run check`'s: "Title: is required".
  const english = CMS.getLocale('en')
  if (english) {
    const widget = english.editor.editorControlPane.widget
    widget.required = '%{fieldLabel}: is required'
    widget.regexPattern = '%{fieldLabel}: %{pattern}'
    // Shown for a save refused with any field in error (a required one among them), whatever the others' faults.
    english.ui.toast.missingRequiredField = 'Not saved: some fields need correcting; each says what it needs.'
    // Decap's "＋" is a glyph the page's fonts may lack (a box on screen).
    english.collection.collectionTop.newButton = 'New %{collectionLabel}'
    CMS.registerLocale('en', english)
  }

  // Decap refuses a save by rejecting a promise nothing of its own handles: with no reason when the form
  // has errors (it shows what to correct), with its failure action when the backend refused (it toasts
  // why: an incomplete translation, say). Either way the author was told: no error of the page.
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason
    if (reason === undefined || /(?:^|_)PERSIST_FAILURE$/.test(String(reason?.type ?? ''))) event.preventDefault()
  })

  CMS.registerPreviewStyle(new URL('preview.css', import.meta.url).href)
  registerPreviews(CMS, config, {
    local,
    renderPath: paths.render,
    previewPrefix: paths.preview,
    previewApi: paths.previewApi,
    localBackend: paths.localBackend,
    repositoryPath: layout.repositoryPath,
  })

  CMS.init({ config: { ...config, load_config_file: false } })
}

// Without a repository only the local backend saves: elsewhere Decap would only say "Check your config.yml file".
if (problem && !(local && (await localBackendAnswers()))) showProblem(problem)
else await start()
