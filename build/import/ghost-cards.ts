/**
 * Ghost's editor documents (Lexical, and the older Mobiledoc) as the HTML
 * Ghost renders from them, for an export without `html`: its cards become
 * the markup Ghost gives them (`kg-card kg-callout-card`, …), which the
 * HTML-to-Markdown rules turn into images, videos and components
 * (html-to-markdown.ts), as they do Ghost's own html.
 */
import { escapeHtml } from '../../contract/html.ts'

type Payload = Record<string, unknown>

const str = (value: unknown): string => (typeof value === 'string' ? value : '')

/** A card (Lexical decorator node or Mobiledoc card) by its name and payload, as Ghost's HTML. */
export function cardHtml(name: string, card: Payload): string {
  const caption = str(card.caption) ? `<figcaption>${str(card.caption)}</figcaption>` : ''
  switch (name) {
    case 'image':
      return `<figure class="kg-card kg-image-card"><img src="${escapeHtml(str(card.src))}" alt="${escapeHtml(str(card.alt) || str(card.altText))}">${caption}</figure>`
    case 'gallery': {
      const images = Array.isArray(card.images) ? (card.images as Payload[]) : []
      const imgs = images.map((i) => `<img src="${escapeHtml(str(i.src))}" alt="${escapeHtml(str(i.alt))}">`).join('')
      return `<figure class="kg-card kg-gallery-card">${imgs}${caption}</figure>`
    }
    case 'embed':
      return `<figure class="kg-card kg-embed-card" data-url="${escapeHtml(str(card.url))}">${str(card.html)}${caption}</figure>`
    case 'bookmark': {
      const meta = (card.metadata ?? {}) as Payload
      return `<figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="${escapeHtml(str(card.url))}"><div class="kg-bookmark-title">${escapeHtml(str(meta.title) || str(card.url))}</div></a>${caption}</figure>`
    }
    case 'callout':
      return `<div class="kg-card kg-callout-card"><div class="kg-callout-text">${str(card.calloutText)}</div></div>`
    case 'button':
      return `<div class="kg-card kg-button-card"><a href="${escapeHtml(str(card.buttonUrl))}" class="kg-btn">${escapeHtml(str(card.buttonText))}</a></div>`
    case 'video':
    case 'audio':
    case 'file':
      return `<figure class="kg-card kg-${name}-card"><a href="${escapeHtml(str(card.src))}">${escapeHtml(str(card.title) || str(card.fileName) || str(card.src))}</a>${caption}</figure>`
    case 'html':
      return str(card.html)
    case 'markdown':
      return `<pre data-import-markdown>${escapeHtml(str(card.markdown))}</pre>`
    case 'code':
    case 'codeblock':
      return `<pre><code class="language-${escapeHtml(str(card.language))}">${escapeHtml(str(card.code))}</code></pre>`
    case 'hr':
    case 'horizontalrule':
      return '<hr>'
    case 'toggle':
      return `<div class="kg-card kg-toggle-card"><h4 class="kg-toggle-heading-text">${str(card.heading)}</h4><div class="kg-toggle-content">${str(card.content)}</div></div>`
    default:
      return ''
  }
}

interface LexicalNode extends Payload {
  type?: string
  children?: LexicalNode[]
}

/** Lexical's text formats, as a bit field. */
const FORMATS: [number, string][] = [
  [1, 'strong'],
  [2, 'em'],
  [4, 's'],
  [16, 'code'],
]

function lexicalNode(node: LexicalNode): string {
  const inner = () => (node.children ?? []).map(lexicalNode).join('')
  switch (node.type) {
    case 'root':
      return inner()
    case 'text': {
      let out = escapeHtml(str(node.text))
      for (const [bit, tag] of FORMATS) if (Number(node.format ?? 0) & bit) out = `<${tag}>${out}</${tag}>`
      return out
    }
    case 'linebreak':
      return '<br>'
    case 'paragraph':
      return `<p>${inner()}</p>`
    case 'heading':
      return `<${str(node.tag) || 'h2'}>${inner()}</${str(node.tag) || 'h2'}>`
    case 'quote':
    case 'aside':
      return `<blockquote>${inner()}</blockquote>`
    case 'list': {
      const tag = node.listType === 'number' ? 'ol' : 'ul'
      return `<${tag}>${inner()}</${tag}>`
    }
    case 'listitem':
      return `<li>${inner()}</li>`
    case 'link':
    case 'autolink':
      return `<a href="${escapeHtml(str(node.url))}">${inner()}</a>`
    default:
      return cardHtml(str(node.type), node)
  }
}

/** A Lexical document (the JSON text of the export's `lexical`) as HTML; '' when it is not one. */
export function lexicalToHtml(json: string): string {
  try {
    const doc = JSON.parse(json) as { root?: LexicalNode }
    return doc.root ? lexicalNode(doc.root) : ''
  } catch {
    return ''
  }
}

type Marker = [number, number[], number, unknown]

/** A Mobiledoc document (the JSON text of the export's `mobiledoc`) as HTML; '' when it is not one. */
export function mobiledocToHtml(json: string): string {
  let doc: { markups?: [string, string[]?][]; cards?: [string, Payload][]; sections?: unknown[][] }
  try {
    doc = JSON.parse(json)
  } catch {
    return ''
  }
  const markups = doc.markups ?? []
  const markers = (list: Marker[]) => {
    const open: string[] = []
    let out = ''
    for (const [kind, opens, closes, value] of list) {
      for (const index of opens) {
        const [tag, attrs = []] = markups[index] ?? ['span']
        const attributes = []
        for (let i = 0; i + 1 < attrs.length; i += 2) attributes.push(` ${attrs[i]}="${escapeHtml(attrs[i + 1]!)}"`)
        out += `<${tag}${attributes.join('')}>`
        open.push(tag)
      }
      out += kind === 0 ? escapeHtml(str(value)) : ''
      for (let i = 0; i < closes; i++) out += `</${open.pop()}>`
    }
    return out
  }
  return (doc.sections ?? [])
    .map((section) => {
      const [kind, a, b] = section as [number, unknown, unknown]
      if (kind === 1) return `<${str(a)}>${markers(b as Marker[])}</${str(a)}>`
      if (kind === 3)
        return `<${str(a)}>${(b as Marker[][]).map((item) => `<li>${markers(item)}</li>`).join('')}</${str(a)}>`
      if (kind === 10) {
        const [name, payload] = doc.cards?.[Number(a)] ?? ['', {}]
        return cardHtml(name, payload)
      }
      return ''
    })
    .join('')
}
