/**
 * dist/admin/: the editor for authors (Decap CMS). Its configuration
 * (config.yml) is generated from the collection schemas by contract/admin-config.ts,
 * with the published items as the choices of `related`; the page, its script
 * and Decap's own prebuilt bundle are copied as they are (no bundler runs):
 * the bundle is read and hashed once per process and handed on as the same
 * file objects, so a build pays for it once and the no-change check skips it
 * with everything else (its version is in package-lock.json, which that check
 * hashes).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  adminConfigYaml,
  createAdminConfig,
  editorProblem,
  type ReferenceOption,
  referenceLabel,
} from '../../contract/admin-config.ts'
import type { ContentModel } from '../../contract/model/model.ts'
import type { FullRecord } from '../../contract/records.ts'
import { etagOf } from '../../contract/etag.ts'
import { jsonForScript, page } from '../../contract/html.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import {
  ADMIN_CONFIG_PATH,
  ADMIN_LOCAL_BACKEND_PATH,
  ADMIN_PATH,
  PREVIEW_API_PATH,
  PREVIEW_PREFIX,
  PREVIEW_RENDER_PATH,
} from '../../contract/public-paths.ts'
import type { BuiltContent, EmittedFiles, Emitter } from './types.ts'
import { type EditorComponent, editorComponents } from './admin-components.ts'

const DIR = ADMIN_PATH.slice(1)
/** Our scripts beside this file, copied into dist/admin/. */
const SCRIPTS = [
  'admin.js',
  'backends.js',
  'bounds.js',
  'components.js',
  'datetime-offset.js',
  'house-style.js',
  'media.js',
  'new-entry-pane.js',
  'preview.js',
  'related.js',
  'repository-layout.js',
  'share-link.js',
  'slug.js',
  'translations.js',
]
/** Where the scripts find `yaml` (the same package the build parses frontmatter with, its browser build). */
const YAML_ENTRY = 'vendor/yaml/index.js'

let assets: Record<string, BuildFile> | undefined

function file(body: Buffer): BuildFile {
  return { body, etag: etagOf(body) }
}

/** Every file of a folder (recursively), by path relative to it, that `keep` accepts. */
function filesOf(dir: string, keep: (name: string) => boolean): [string, Buffer][] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort()
    .map((path) => [path.slice(dir.length + 1), readFileSync(path)])
}

/** Decap's bundle with its lazily loaded chunks, `yaml`'s browser build and our scripts, read once per process. */
function staticAssets(): Record<string, BuildFile> {
  if (assets) return assets
  const require = createRequire(import.meta.url)
  const decap = dirname(require.resolve('decap-cms/dist/decap-cms.js'))
  const yaml = join(dirname(require.resolve('yaml/package.json')), 'browser', 'dist')
  const out: Record<string, BuildFile> = {}
  // decap-cms.js, its numbered chunks and WebAssembly, and its licence notices; not the other build (cms.js) or source maps.
  for (const [name, body] of filesOf(decap, (n) =>
    /^(?:decap-cms\.js(?:\.LICENSE\.txt)?|\d+\.decap-cms\.js|\w+\.wasm)$/.test(n),
  ))
    out[`${DIR}decap-cms/${name}`] = file(body)
  for (const [name, body] of filesOf(yaml, (n) => n.endsWith('.js'))) out[`${DIR}vendor/yaml/${name}`] = file(body)
  const here = join(dirname(import.meta.filename), 'admin')
  for (const name of SCRIPTS) {
    const source = readFileSync(join(here, name), 'utf8')
    // The one change on the way: the bare specifier the tests resolve in node_modules becomes the copied file.
    const body = source.replaceAll("from 'yaml'", `from '${ADMIN_PATH}${YAML_ENTRY}'`)
    out[`${DIR}${name}`] = file(Buffer.from(body))
  }
  out[`${DIR}preview.css`] = file(readFileSync(join(here, 'preview.css')))
  // Decap starts itself on load unless told not to; admin.js starts it once the configuration is read.
  out[`${DIR}manual-init.js`] = file(Buffer.from('window.CMS_MANUAL_INIT = true\n'))
  assets = out
  return out
}

/**
 * The editor's page; `problem` (contract/admin-config.ts editorProblem): what it says instead of starting, if
 * anything; `components`: the components the body's editor offers (admin-components.ts).
 */
function indexPage(siteName: string, problem: string | undefined, components: EditorComponent[]): string {
  const paths = {
    config: ADMIN_CONFIG_PATH,
    localBackend: ADMIN_LOCAL_BACKEND_PATH,
    render: PREVIEW_RENDER_PATH,
    preview: PREVIEW_PREFIX,
    previewApi: PREVIEW_API_PATH,
  }
  const problemScript = problem
    ? `<script type="application/json" id="admin-problem">${jsonForScript(problem)}</script>\n`
    : ''
  const head = `<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<script type="application/json" id="admin-paths">${jsonForScript(paths)}</script>
<script type="application/json" id="admin-components">${jsonForScript(components)}</script>
${problemScript}<script src="${ADMIN_PATH}manual-init.js"></script>
<script src="${ADMIN_PATH}decap-cms/decap-cms.js"></script>
<script type="module" src="${ADMIN_PATH}admin.js"></script>
`
  const body = `<noscript><p>The editor needs JavaScript. Content can also be edited as Markdown files in git: see docs/authoring.md.</p></noscript>`
  return page(`${siteName} — content editor`, body, head)
}

/**
 * The published items of one locale as choices of `related`: a translation
 * names the default item it translates; a default item a locale falls back
 * to says its locale.
 */
function referencesOf(
  model: ContentModel,
  records: Readonly<Record<string, readonly FullRecord[]>>,
  language: string,
  locale: string,
): ReferenceOption[] {
  return model.names.flatMap((c) =>
    (records[c] ?? []).map((r) => {
      const value = `${c}/${r.slug}`
      const label = referenceLabel(model, c, r.title)
      if (locale === language || r.locale === undefined) return { value, label }
      if (r.locale !== locale) return { value, label: `${label} (${r.locale})` }
      const original = r.translations?.find((t) => t.locale === language)
      return { value, label, ...(original ? { translates: `${c}/${original.slug}` } : {}) }
    }),
  )
}

export const emitAdmin = {
  name: 'admin',
  input: 'content',
  emit(content: BuiltContent): EmittedFiles {
    const { site } = content
    const references = referencesOf(site.model, content.collections, site.language, site.language)
    const byLocale = Object.fromEntries(
      site.locales
        .filter((l) => l !== site.language)
        .map((l) => [l, referencesOf(site.model, content.locales?.[l]?.collections ?? {}, site.language, l)]),
    )
    const config = createAdminConfig(site, references, byLocale)
    return {
      ...staticAssets(),
      [`${DIR}index.html`]: indexPage(content.site.name, editorProblem(site), editorComponents(site.components)),
      [`${DIR}config.yml`]: adminConfigYaml(config),
    }
  },
} satisfies Emitter
