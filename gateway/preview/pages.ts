/**
 * The preview's HTML: an index of every item (drafts marked, and scheduled
 * and expired items with their time) and a page per
 * item showing it as readers will see it — its metadata and the body's HTML
 * exactly as the API publishes it (its processed images served from this
 * server rather than the api_url they are published under). While the content has errors, pages show
 * them (file:line:col field: message) instead of a stale item. Every page
 * polls the revision and reloads itself when a save changes it.
 */
import type { PreviewItem } from '../../build/dev.ts'
import type { CollectionName } from '../../contract/model/model.ts'
import { escapeHtml, jsonForScript, page } from '../../contract/html.ts'
import type { ImageObject, SocialImage } from '../../contract/media.ts'
import { MEDIA_PREFIX, PREVIEW_PREFIX } from '../../contract/public-paths.ts'
import type { FullRecord } from '../../contract/records.ts'

export interface PreviewState {
  revision: number
  items: PreviewItem[]
  /** The clock the content is published as of (BUILD_TIME, else the time of the last assembly). */
  asOf: string
  /** The default locale: its items' pages have no `?locale=`. */
  language: string
  /** Content errors, as printed: `file:line:col field: message`. */
  errors: string[]
  siteName: string
  /** The site's collections and their titles, in the model's order. */
  collectionTitles: Record<CollectionName, string>
  /** Each collection's label (what one item is called). */
  labels: Record<CollectionName, string>
  /** Where the published records say the processed images are (site.yaml's api_url); this server serves them at /media/. */
  mediaOrigin: string | undefined
}

export const STYLE = `<style>
body{font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1b;max-width:46rem;margin:2rem auto;padding:0 1rem}
a{color:#0b57d0}nav{font-size:.9rem;margin-bottom:1rem}
.draft{display:inline-block;background:#fff4ce;border:1px solid #c9a200;border-radius:.3rem;padding:0 .4rem;font-size:.8rem;margin-left:.4rem}
.scheduled{display:inline-block;background:#e3eefd;border:1px solid #0b57d0;border-radius:.3rem;padding:0 .4rem;font-size:.8rem;margin-left:.4rem}
.locale{display:inline-block;border:1px solid #777;border-radius:.3rem;padding:0 .4rem;font-size:.8rem;margin-left:.4rem;text-transform:uppercase}
.expired{display:inline-block;background:#eee;border:1px solid #777;border-radius:.3rem;padding:0 .4rem;font-size:.8rem;margin-left:.4rem}
.errors{border:2px solid #b3261e;background:#fdecea;padding:.5rem 1rem;border-radius:.4rem}
.errors code{white-space:pre-wrap}
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:left;vertical-align:top}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;font-size:.9rem;background:#f6f6f6;padding:.6rem 1rem;border-radius:.4rem}
dl.meta dt{font-weight:600}dl.meta dd{margin:0;overflow-wrap:anywhere}
img{max-width:100%;height:auto}pre{background:#f3f3f3;padding:.6rem;overflow:auto}
li{margin:.2rem 0}small{color:#555}
</style>
`

/** Polls the revision; a changed one reloads the page (saves, fixes and new errors alike). */
function reloader(revision: number): string {
  return `<script>
(function () {
  var seen = ${jsonForScript(revision)};
  function poll() {
    fetch(${jsonForScript(`${PREVIEW_PREFIX}/_revision`)}, { cache: 'no-store' })
      .then(function (r) { return r.json() })
      .then(function (s) { if (s.revision !== seen) location.reload(); else setTimeout(poll, 300) })
      .catch(function () { setTimeout(poll, 1000) })
  }
  setTimeout(poll, 300)
})()
</script>`
}

function errorList(errors: string[]): string {
  if (!errors.length) return ''
  const count = `${errors.length} content error${errors.length === 1 ? '' : 's'}`
  return `<section class="errors" role="alert" aria-labelledby="errors-title">
<h2 id="errors-title">${count}</h2>
<p>Fix ${errors.length === 1 ? 'it' : 'them'} and save: this page reloads by itself.</p>
<ul>${errors.map((e) => `<li><code>${escapeHtml(e)}</code></li>`).join('')}</ul>
</section>`
}

function shell(title: string, state: PreviewState, main: string): string {
  const head = `${STYLE}<link rel="icon" href="data:,">\n`
  return page(`${title} — preview`, `<main>\n${main}\n</main>\n${reloader(state.revision)}`, head)
}

export function indexPage(state: PreviewState): string {
  const sections = Object.keys(state.collectionTitles).map((collection) => {
    const items = state.items.filter((i) => i.collection === collection)
    const rows = items.map((i) => {
      const title = i.record?.title ?? i.slug
      const date = i.record ? ` <small>${escapeHtml(String(i.record.published_at).slice(0, 10))}</small>` : ''
      const locale = i.locale === state.language ? '' : ` <span class="locale">${escapeHtml(i.locale)}</span>`
      return `<li><a href="${itemHref(state, collection, i.slug, i.locale)}">${escapeHtml(title)}</a>${locale}${badges(i)}${date}</li>`
    })
    return `<section aria-labelledby="c-${collection}"><h2 id="c-${collection}">${escapeHtml(state.collectionTitles[collection] ?? collection)} <small>(${items.length})</small></h2>
<ul>${rows.join('') || '<li><small>none yet</small></li>'}</ul></section>`
  })
  return shell(
    'All items',
    state,
    `<h1>${escapeHtml(state.siteName)}: preview</h1>
<p>Every item, drafts included. Drafts are never published; scheduled items are published at their time, expired ones no longer are (as of <time datetime="${escapeHtml(state.asOf)}">${escapeHtml(state.asOf)}</time>). This preview exists only in <code>npm run dev</code>.</p>
${errorList(state.errors)}
${sections.join('\n')}`,
  )
}

export function itemPage(
  state: PreviewState,
  item: PreviewItem | undefined,
  collection: CollectionName,
  slug: string,
): string {
  const label = state.labels[collection] ?? collection
  const nav = `<nav><a href="${PREVIEW_PREFIX}/">All items</a> · ${escapeHtml(label)}</nav>`
  if (state.errors.length || !item?.record) {
    const missing = !state.errors.length
      ? `<p>No ${escapeHtml(label)} has the slug <code>${escapeHtml(slug)}</code> (yet): this page shows it once a file with that slug is saved.</p>`
      : ''
    return shell(
      slug,
      state,
      `${nav}\n<h1>${escapeHtml(item?.record?.title ?? slug)}</h1>\n${errorList(state.errors)}${missing}`,
    )
  }
  const record = item.record
  const local = (html: string) =>
    state.mediaOrigin ? html.split(`${state.mediaOrigin}${MEDIA_PREFIX}/`).join(`${MEDIA_PREFIX}/`) : html
  return shell(
    record.title,
    state,
    `${nav}
<article>
<h1>${escapeHtml(record.title)}${badges(item)}</h1>
${metadata(record, item)}
${local(image(record))}
<div class="body">
${local(record.body.html)}
</div>
${related(state, record, item.locale)}
</article>`,
  )
}

/** An item's page: a translation's with `?locale=`. */
function itemHref(state: PreviewState, collection: string, slug: string, locale: string): string {
  const query = locale === state.language ? '' : `?locale=${encodeURIComponent(locale)}`
  return `${PREVIEW_PREFIX}/${collection}/${encodeURIComponent(slug)}${query}`
}

/**
 * What is not published of an item: a draft (a translation of a draft item
 * too); scheduled (with its release time) or expired (since when), naming a
 * translation's item when the translation waits for it or came down with it.
 */
function badges(item: PreviewItem): string {
  const ofItem = item.draftItem ? `: its item ${escapeHtml(item.draftItem)} is a draft` : ''
  const draft = item.draft ? `<span class="draft">draft${ofItem}</span>` : ''
  const { release } = item
  if (release.state === 'live') return draft
  const at = `<time datetime="${escapeHtml(release.at)}">${escapeHtml(release.at)}</time>`
  const withItem = release.item ? ` with its item ${escapeHtml(release.item)}` : ''
  return `${draft}${release.state === 'scheduled' ? `<span class="scheduled">scheduled: publishes ${at}${withItem}</span>` : `<span class="expired">expired ${at}${withItem}</span>`}`
}

const HIDDEN = new Set(['title', 'body', 'image', 'social_image', 'related'])

function metadata(record: FullRecord, item: PreviewItem): string {
  const rows = Object.entries(record)
    .filter(([key, value]) => !HIDDEN.has(key) && value !== null && !(Array.isArray(value) && value.length === 0))
    .map(
      ([key, value]) =>
        `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value))}</dd>`,
    )
  return `<dl class="meta"><dt>file</dt><dd>${escapeHtml(item.path)}</dd>${rows.join('')}</dl>`
}

/** The lead image, and the card or image shown when the item is shared (its processed files are served here). */
export function image(record: FullRecord): string {
  const img = record.image as ImageObject | null
  const social = record.social_image as SocialImage | null
  const size = (i: { width: number | null; height: number | null }) =>
    i.width === null ? '' : ` width="${i.width}" height="${i.height}"`
  const lead = img ? `<p><img src="${escapeHtml(img.url)}" alt="${escapeHtml(img.alt)}"${size(img)}></p>` : ''
  const card =
    social && social.url !== img?.url
      ? `<figure><img src="${escapeHtml(social.url)}" alt="Social card"${size(social)}><figcaption>social_image</figcaption></figure>`
      : ''
  return lead + card
}

/** A translation's related items are its locale's (or the default items it falls back to, which its page falls back to as well). */
function related(state: PreviewState, record: FullRecord, locale: string): string {
  if (!record.related.length) return ''
  const items = record.related.map(
    (r) => `<li><a href="${itemHref(state, r.collection, r.slug, locale)}">${escapeHtml(r.title)}</a></li>`,
  )
  return `<aside aria-labelledby="related-title"><h2 id="related-title">Related</h2><ul>${items.join('')}</ul></aside>`
}
