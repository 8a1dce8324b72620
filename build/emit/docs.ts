/**
 * docs/index.html: the OpenAPI document rendered by Redoc, entirely
 * self-contained: the Redoc standalone bundle and the document are inlined,
 * fonts are the system's, and the one remote asset of the bundle (the
 * attribution logo) is removed, so the page loads nothing from another host.
 * Served with its own Content-Security-Policy (contract/headers.ts).
 */
import { datedCollections } from '../../contract/model/model.ts'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createOpenApiDocument, type OpenApiDocument } from '../openapi/document.ts'
import { escapeHtml, jsonForScript, page } from '../../contract/html.ts'
import { FEED_TYPES } from '../../contract/documents.ts'
import {
  ALL_FEED,
  calendarPath,
  CHANGES_PATH,
  FEED_EXTENSIONS,
  feedPath,
  SEARCH_PATH,
  type FeedFormat,
} from '../../contract/public-paths.ts'
import type { Emitter } from './types.ts'

const DOCS_FILE = 'docs/index.html'
/** The root of the API host: where its resource identifier leads, a page of links. */
const HOME_FILE = 'index.html'

const REMOTE_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"'

let bundle: string | undefined

/** The Redoc standalone bundle, read once per process, without its remote logo. */
function redocBundle(): string {
  if (bundle) return bundle
  const path = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js')
  const source = readFileSync(path, 'utf8')
  // An empty src fails at once without a request; Redoc then hides the image.
  if (!source.includes(REMOTE_LOGO))
    throw new Error(`${path}: the remote logo URL moved; update build/emit/docs.ts so /docs/ stays self-contained`)
  bundle = source.replaceAll(REMOTE_LOGO, '""')
  if (bundle.includes('</script')) throw new Error(`${path} contains </script and cannot be inlined`)
  return bundle
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace'

const REDOC_OPTIONS = {
  pathInMiddlePanel: true,
  expandResponses: '200',
  requiredPropsFirst: true,
  jsonSampleExpandLevel: 2,
  hideHostname: true,
  downloadDefinitionUrl: '/openapi.json',
  theme: { typography: { fontFamily: FONT, headings: { fontFamily: FONT }, code: { fontFamily: MONO } } },
}

export const emitDocs = {
  name: 'docs',
  input: 'site',
  emit(content) {
    const document = createOpenApiDocument(content.site)
    const title = `${(document.info as { title: string }).title} — API reference`
    const head =
      '<link rel="icon" href="data:,">\n<link rel="service-desc" type="application/json" href="/openapi.json">\n<style>body{margin:0}</style>\n'
    const body = `<noscript><p>This reference needs JavaScript. The same content is in <a href="/openapi.json">/openapi.json</a> and <a href="/llms-full.txt">/llms-full.txt</a>.</p></noscript>
<div id="redoc"></div>
<script type="application/json" id="openapi-document">${jsonForScript(document)}</script>
<script type="application/json" id="redoc-options">${jsonForScript(REDOC_OPTIONS)}</script>
<script>${redocBundle()}</script>
<script>
  var read = function (id) { return JSON.parse(document.getElementById(id).textContent) }
  Redoc.init(read('openapi-document'), read('redoc-options'), document.getElementById('redoc'))
</script>`
    return { [DOCS_FILE]: page(title, body, head), [HOME_FILE]: home(document, datedCollections(content.site.model)) }
  },
} satisfies Emitter

const FEED_LABELS: Record<FeedFormat, string> = { rss: 'RSS', atom: 'Atom', json: 'JSON Feed' }

function home(document: OpenApiDocument, calendars: readonly string[]): string {
  const { title, summary } = document.info as { title: string; summary: string }
  const formats = Object.keys(FEED_EXTENSIONS) as FeedFormat[]
  const links = [
    ['/docs/', 'API reference'],
    ['/openapi.json', 'OpenAPI 3.1 description'],
    ['/llms.txt', 'llms.txt'],
    ['/llms-full.txt', 'Full reference for agents'],
    ['/.well-known/api-catalog', 'API catalog'],
    ['/api/health', 'Health'],
    [`${SEARCH_PATH}?q=data+contracts`, 'Search'],
    [CHANGES_PATH, 'Change feed'],
    ...formats.map((f) => [feedPath(ALL_FEED, f), `Everything (${FEED_LABELS[f]})`]),
    ...calendars.map((c) => [calendarPath(c), `Calendar: ${c}`]),
  ]
  // Feed autodiscovery: readers pointed at this page find the feeds.
  const alternates = formats
    .map(
      (f) =>
        `<link rel="alternate" type="${FEED_TYPES[f].split(';')[0]}" title="${escapeHtml(title)} (${FEED_LABELS[f]})" href="${feedPath(ALL_FEED, f)}">\n`,
    )
    .join('')
  return page(
    title,
    `<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(summary)}</p>
<ul>
${links.map(([href, label]) => `<li><a href="${escapeHtml(href!)}">${escapeHtml(label!)}</a></li>`).join('\n')}
</ul>
</main>`,
    `<link rel="icon" href="data:,">\n<link rel="service-desc" type="application/json" href="/openapi.json">\n${alternates}`,
  )
}
