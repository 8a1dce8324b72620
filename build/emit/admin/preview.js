/**
 * The editor's preview pane. In `npm run dev` it shows the body as the API
 * will publish it: the unsaved Markdown goes to the dev server's renderer
 * (the build's own, sanitised), and a link opens the saved item in /preview/.
 * Local images (the lead image and the body's) show as they are in the form:
 * an upload not saved yet from the editor's memory, a saved file through the
 * local backend, found by the path the build resolves from the item's file.
 * Elsewhere (the deployed editor) it shows Decap's own rendering, and the
 * deploy preview of the draft's pull request shows the published record.
 */
import { dirname, isLocal, resolveLocal } from './media.js'
import { shareLinkClass } from './share-link.js'

/** Wait this long after the last keystroke before rendering again. */
const RENDER_DELAY_MS = 250

/**
 * Where the local images of an item are shown from: its uploads in the
 * editor's memory first, else the file through the local backend (read once
 * per path while the pane is open).
 * @param {string} backendPath
 */
function localImages(backendPath) {
  /** @type {Map<string, Promise<string>>} */
  const read = new Map()
  const fetchUrl = async (/** @type {string} */ path) => {
    const response = await fetch(backendPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'getMediaFile', params: { path } }),
    })
    const file = await response.json()
    if (!response.ok) throw new Error(file.error ?? `the local backend answered ${response.status}`)
    const bytes = Uint8Array.from(atob(file.content), (c) => c.charCodeAt(0))
    return URL.createObjectURL(new Blob([bytes]))
  }
  return {
    /**
     * @param {any} entry Decap's entry (an Immutable map)
     * @param {readonly string[]} folders where the item's file is (or will be), then where Decap has it
     *   (they differ for an item in a folder of its own: an upload not saved yet is named from Decap's)
     * @param {string} url as written in the form
     * @returns {Promise<string>} a URL the pane can show
     */
    async urlOf(entry, folders, url) {
      if (!isLocal(url)) return url
      const paths = [...new Set(folders.map((folder) => resolveLocal(folder, url)))].filter((p) => p !== undefined)
      const uploads = entry.get('mediaFiles')?.toJS?.() ?? []
      for (const path of paths) {
        const media = uploads.find((/** @type {{ path: string }} */ f) => f.path.replace(/^\/+/, '') === path)
        if (media?.url || media?.displayURL) return media.url ?? media.displayURL
      }
      for (const path of paths) {
        if (!read.has(path)) read.set(path, fetchUrl(path))
        const shown = await /** @type {Promise<string>} */ (read.get(path)).catch(() => '')
        if (shown) return shown
      }
      return ''
    },
  }
}

/** The HTML with each local image's `src` replaced by where the pane shows it from. */
async function withLocalImages(/** @type {string} */ html, /** @type {(url: string) => Promise<string>} */ urlOf) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html')
  const images = [...doc.body.querySelectorAll('img')].filter((img) => isLocal(img.getAttribute('src') ?? ''))
  if (!images.length) return html
  await Promise.all(images.map(async (img) => img.setAttribute('src', await urlOf(img.getAttribute('src') ?? ''))))
  return doc.body.innerHTML
}

/**
 * @param {any} CMS Decap's global
 * @param {{ collections: { name: string, folder: string }[], i18n?: { default_locale: string } }} config
 * @param {{ local: boolean, renderPath: string, previewPrefix: string, previewApi: string, localBackend: string,
 *   repositoryPath: (path: string) => string }} options
 */
export function registerPreviews(CMS, config, options) {
  const h = window.h
  const ShareLink = shareLinkClass(options.previewApi)
  for (const collection of config.collections) {
    const Preview = window.createClass({
      getInitialState: () => ({ html: '', problem: '', lead: '' }),
      componentDidMount() {
        this.images = localImages(options.localBackend)
        this.refresh()
      },
      componentDidUpdate(previous) {
        const changed = (/** @type {any} */ props) => [
          props.entry.getIn(['data', 'body']),
          props.entry.getIn(['data', 'image', 'url']),
          props.entry.get('mediaFiles'),
        ]
        if (changed(previous).some((v, i) => v !== changed(this.props)[i])) this.refresh()
      },
      componentWillUnmount() {
        clearTimeout(this.timer)
        this.gone = true
      },
      refresh() {
        if (!options.local) return
        clearTimeout(this.timer)
        this.timer = setTimeout(() => this.render_(this.props.entry), RENDER_DELAY_MS)
      },
      async render_(entry) {
        // Where the item's file is, or will be: relative images resolve from there, as in the build.
        const path = entry.get('path')
        const folders = path ? [dirname(options.repositoryPath(path)), dirname(path)] : [collection.folder]
        const urlOf = (/** @type {string} */ url) => this.images.urlOf(entry, folders, url)
        let next
        try {
          const response = await fetch(options.renderPath, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ markdown: entry.getIn(['data', 'body']) ?? '' }),
          })
          const answer = await response.json()
          next = response.ok
            ? { html: await withLocalImages(answer.html, urlOf), problem: answer.problems.join('\n') }
            : { html: '', problem: answer.detail ?? `The renderer answered ${response.status}.` }
        } catch (error) {
          next = { html: '', problem: `The dev server did not answer (${error.message}); is npm run dev running?` }
        }
        const lead = entry.getIn(['data', 'image', 'url'])
        next.lead = typeof lead === 'string' && lead ? await urlOf(lead) : ''
        if (!this.gone) this.setState(next)
      },
      render() {
        const { entry, widgetFor, getAsset, locale } = this.props
        const data = entry.get('data')
        // The item's slug (its Slug field, else its file's name) in the locale the pane shows.
        const slug = data.get('slug') || entry.get('slug')
        const translation = locale && config.i18n && locale !== config.i18n.default_locale
        const parts = [h('h1', { key: 'title' }, data.get('title') ?? '')]
        if (data.get('summary')) parts.push(h('p', { key: 'summary', className: 'summary' }, data.get('summary')))
        if (options.local && slug && !entry.get('newRecord'))
          parts.push(
            h(
              'p',
              { key: 'link', className: 'saved' },
              h(
                'a',
                {
                  href: `${options.previewPrefix}/${collection.name}/${slug}${translation ? `?locale=${encodeURIComponent(locale)}` : ''}`,
                  target: '_blank',
                  rel: 'noopener',
                },
                'Open the saved version in the preview',
              ),
            ),
          )
        // A saved item has a share link to send to a reviewer (the build's preview has it once built).
        if (slug && !entry.get('newRecord'))
          parts.push(h(ShareLink, { key: 'share', collection: collection.name, slug }))
        const lead = data.getIn(['image', 'url'])
        const src = options.local ? this.state.lead : lead ? String(getAsset(lead)) : ''
        if (src)
          parts.push(
            h('figure', { key: 'lead', className: 'lead' }, h('img', { src, alt: data.getIn(['image', 'alt']) ?? '' })),
          )
        if (!options.local) parts.push(h('div', { key: 'body', className: 'body' }, widgetFor('body')))
        else {
          if (this.state.problem) parts.push(h('p', { key: 'problem', role: 'alert' }, this.state.problem))
          // The build's renderer sanitised this HTML (the API publishes the same bytes); only local images' src were changed.
          parts.push(h('div', { key: 'body', className: 'body', dangerouslySetInnerHTML: { __html: this.state.html } }))
        }
        return h('article', null, parts)
      },
    })
    CMS.registerPreviewTemplate(collection.name, Preview)
  }
}
