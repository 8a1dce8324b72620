/**
 * The components of content/site.yaml (and the built-in ones) in the body's
 * editor: each a Decap editor component with its attribute form
 * (build/emit/admin-components.ts says which), read from and written back to
 * the directive syntax the build reads: `::name{a="…"}` for a leaf,
 * `:::name{a="…"}` … `:::` around a container's content. The preview pane of
 * `npm run dev` renders the body with the build's own renderer, components
 * and all; Decap's own preview (the deployed editor) shows the documented
 * markup: `<div class="component component-NAME" data-component="NAME" data-ATTR="…">`.
 */

const ATTRIBUTE = /([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s"'}]+)))?/g
const CONTENT_FIELD = 'component_content'

/** `{tone=warning title="Mind the gap"}` as an object. */
function attributesOf(/** @type {string | undefined} */ written) {
  /** @type {Record<string, string>} */
  const out = {}
  if (!written) return out
  for (const [, name, double, single, bare] of written.slice(1, -1).matchAll(ATTRIBUTE))
    out[name] = double ?? single ?? bare ?? ''
  return out
}

/** The attributes as written: each quoted (with ' when the value holds a "), empty ones left out. */
function writeAttributes(/** @type {any} */ data, /** @type {{ name: string }[]} */ fields) {
  const parts = []
  for (const { name } of fields) {
    if (name === CONTENT_FIELD) continue
    const value = data?.[name]
    if (value === undefined || value === null || value === '') continue
    const text = String(value)
    parts.push(text.includes('"') ? `${name}='${text}'` : `${name}="${text}"`)
  }
  return parts.length ? `{${parts.join(' ')}}` : ''
}

function escapeHtml(/** @type {string} */ text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)
}

/**
 * @param {any} CMS Decap's global
 * @param {{ name: string, label: string, kind: 'leaf' | 'container',
 *   fields: { name: string, label: string, widget: string, required: boolean, options?: string[], default?: string, hint?: string }[] }[]} components
 */
export function registerComponents(CMS, components) {
  for (const component of components) {
    const { name, kind } = component
    const fields = component.fields.map((field) => ({ ...field }))
    const pattern =
      kind === 'leaf'
        ? new RegExp(`^::${name}(?:\\[[^\\]\\n]*\\])?(\\{[^}\\n]*\\})?[ \\t]*(?=\\n|$)`)
        : new RegExp(`^:::${name}(?:\\[[^\\]\\n]*\\])?(\\{[^}\\n]*\\})?[ \\t]*\\n([\\s\\S]*?)\\n?:::[ \\t]*(?=\\n|$)`)
    CMS.registerEditorComponent({
      id: name,
      label: component.label,
      fields,
      pattern,
      fromBlock: (/** @type {RegExpExecArray} */ match) => ({
        ...attributesOf(match[1]),
        ...(kind === 'container' && { [CONTENT_FIELD]: match[2] ?? '' }),
      }),
      toBlock: (/** @type {any} */ data) =>
        kind === 'leaf'
          ? `::${name}${writeAttributes(data, fields)}`
          : `:::${name}${writeAttributes(data, fields)}\n${data?.[CONTENT_FIELD] ?? ''}\n:::`,
      toPreview: (/** @type {any} */ data) => {
        const attributes = fields
          .filter((f) => f.name !== CONTENT_FIELD && data?.[f.name])
          .map((f) => ` data-${f.name}="${escapeHtml(String(data[f.name]))}"`)
          .join('')
        const inner = kind === 'container' ? escapeHtml(String(data?.[CONTENT_FIELD] ?? '')) : ''
        return `<div class="component component-${name}" data-component="${name}"${attributes}>${inner}</div>`
      },
    })
  }
}
