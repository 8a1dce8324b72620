/**
 * The editor's preview pane. In `npm run dev` it shows the body as the API
 * will publish it: the unsaved Markdown goes to the dev server's renderer
 * (the build's own, sanitised), and a link opens the saved item in /preview/.
 * Elsewhere (the deployed editor) it shows Decap's own rendering, and the
 * deploy preview of the draft's pull request shows the published record.
 */

/** Wait this long after the last keystroke before rendering again. */
const RENDER_DELAY_MS = 250

/**
 * @param {any} CMS Decap's global
 * @param {{ collections: { name: string }[] }} config
 * @param {{ local: boolean, renderPath: string, previewPrefix: string }} options
 */
export function registerPreviews(CMS, config, options) {
  const h = window.h
  for (const collection of config.collections) {
    const Preview = window.createClass({
      getInitialState: () => ({ html: '', problem: '' }),
      componentDidMount() {
        this.refresh()
      },
      componentDidUpdate(previous) {
        if (previous.entry.getIn(['data', 'body']) !== this.props.entry.getIn(['data', 'body'])) this.refresh()
      },
      componentWillUnmount() {
        clearTimeout(this.timer)
        this.gone = true
      },
      refresh() {
        if (!options.local) return
        clearTimeout(this.timer)
        this.timer = setTimeout(() => this.render_(this.props.entry.getIn(['data', 'body']) ?? ''), RENDER_DELAY_MS)
      },
      async render_(markdown) {
        let next
        try {
          const response = await fetch(options.renderPath, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ markdown }),
          })
          const answer = await response.json()
          next = response.ok
            ? { html: answer.html, problem: answer.problems.join('\n') }
            : { html: '', problem: answer.detail ?? `The renderer answered ${response.status}.` }
        } catch (error) {
          next = { html: '', problem: `The dev server did not answer (${error.message}); is npm run dev running?` }
        }
        if (!this.gone) this.setState(next)
      },
      render() {
        const { entry, widgetFor } = this.props
        const data = entry.get('data')
        const slug = entry.get('slug')
        const parts = [h('h1', { key: 'title' }, data.get('title') ?? '')]
        if (data.get('summary')) parts.push(h('p', { key: 'summary', className: 'summary' }, data.get('summary')))
        if (options.local && slug && !entry.get('newRecord'))
          parts.push(
            h(
              'p',
              { key: 'link', className: 'saved' },
              h(
                'a',
                { href: `${options.previewPrefix}/${collection.name}/${slug}`, target: '_blank', rel: 'noopener' },
                'Open the saved version in the preview',
              ),
            ),
          )
        if (!options.local) parts.push(h('div', { key: 'body', className: 'body' }, widgetFor('body')))
        else {
          if (this.state.problem) parts.push(h('p', { key: 'problem', role: 'alert' }, this.state.problem))
          // The build's renderer sanitised this HTML (the API publishes the same bytes).
          parts.push(h('div', { key: 'body', className: 'body', dangerouslySetInnerHTML: { __html: this.state.html } }))
        }
        return h('article', null, parts)
      },
    })
    CMS.registerPreviewTemplate(collection.name, Preview)
  }
}
