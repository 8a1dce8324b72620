/**
 * "Share preview link" in the preview pane of a saved entry: asks the
 * gateway (POST {previewApi}/{collection}/{slug}/share-links,
 * gateway/preview/link-route.ts) for a share link to the item and shows it,
 * ready to copy, with its expiry. The gateway wants a preview credential
 * (content.preview.read: a `preview.read` API key); the editor signs in to
 * GitHub or the local backend, not to the gateway, so the author pastes the
 * key once and it is kept in this tab only (sessionStorage), sent to this
 * origin only.
 */

const KEPT_AS = 'content-api.preview-key'
const EXPIRIES = [
  ['24h', '1 day'],
  ['72h', '3 days'],
  ['7d', '7 days'],
  ['30d', '30 days'],
]
export const NO_KEY =
  'Making a share link needs a preview key: paste one made with `npm run keys -- create --role preview.read` into Preview key.'

function keptKey() {
  try {
    return sessionStorage.getItem(KEPT_AS) ?? ''
  } catch {
    return ''
  }
}

/** @param {string} previewApi the preview API's path (contract/public-paths.ts) */
export function shareLinkClass(previewApi) {
  const h = window.h
  return window.createClass({
    getInitialState: () => ({ key: keptKey(), expires: '72h', busy: false, link: null, message: '', copied: false }),
    async share() {
      const { collection, slug } = this.props
      const key = this.state.key.trim()
      if (!key) return this.setState({ message: NO_KEY, link: null })
      try {
        sessionStorage.setItem(KEPT_AS, key)
      } catch {}
      this.setState({ busy: true, message: '', link: null, copied: false })
      let next
      try {
        const response = await fetch(
          `${previewApi}/${encodeURIComponent(collection)}/${encodeURIComponent(slug)}/share-links`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({ expires: this.state.expires }),
          },
        )
        const answer = await response.json().catch(() => ({}))
        if (response.status === 201) next = { link: answer }
        else if (response.status === 401 || response.status === 403)
          next = {
            message: `This key cannot make share links: ${answer.detail ?? `the gateway answered ${response.status}`}`,
          }
        else next = { message: answer.detail ?? `The gateway answered ${response.status}.` }
      } catch (error) {
        next = { message: `The gateway did not answer (${error.message}).` }
      }
      this.setState({ busy: false, ...next })
    },
    async copy() {
      try {
        await navigator.clipboard.writeText(this.state.link.url)
        this.setState({ copied: true })
      } catch {
        this.input?.select()
        this.setState({ message: 'Press Ctrl+C (⌘C) to copy the selected link.' })
      }
    },
    render() {
      const { key, expires, busy, link, message, copied } = this.state
      const parts = [
        h(
          'label',
          { key: 'key' },
          'Preview key ',
          h('input', {
            type: 'password',
            autoComplete: 'off',
            value: key,
            onChange: (/** @type {any} */ e) => this.setState({ key: e.target.value }),
          }),
        ),
        h(
          'label',
          { key: 'expires' },
          ' Expires in ',
          h(
            'select',
            { value: expires, onChange: (/** @type {any} */ e) => this.setState({ expires: e.target.value }) },
            EXPIRIES.map(([value, label]) => h('option', { key: value, value }, label)),
          ),
        ),
        h(
          'button',
          { key: 'share', type: 'button', disabled: busy, onClick: () => this.share() },
          'Share preview link',
        ),
      ]
      if (message) parts.push(h('p', { key: 'message', role: 'alert' }, message))
      if (link)
        parts.push(
          h(
            'p',
            { key: 'link', className: 'link' },
            h('input', {
              readOnly: true,
              'aria-label': 'Share link',
              value: link.url,
              size: 60,
              ref: (/** @type {HTMLInputElement} */ el) => {
                this.input = el
              },
              onFocus: (/** @type {any} */ e) => e.target.select(),
            }),
            h('button', { type: 'button', onClick: () => this.copy() }, copied ? 'Copied' : 'Copy'),
            h(
              'small',
              null,
              ' Expires ',
              h('time', { dateTime: link.expires_at }, new Date(link.expires_at).toLocaleString()),
              `; anyone with the link can read this ${link.state} item until then.`,
            ),
          ),
        )
      return h('section', { className: 'share-link', 'aria-label': 'Share preview link' }, parts)
    },
  })
}
