/**
 * markdown-it tokens to the hast tree the reference renderer builds
 * (mdast-util-to-hast, then rehype-sanitize with GitHub's schema): the same
 * elements, properties and line-ending text nodes, so hast-util-to-text and
 * hast-util-to-html give the same text and HTML. Only allow-listed elements
 * are ever created; a URL whose protocol the schema refuses loses its
 * attribute, as the sanitiser would drop it. Raw HTML becomes `raw` nodes,
 * as remark-rehype makes them, for markdown-raw.ts to parse and sanitise.
 */
import type { Element, ElementContent, Properties, Root } from 'hast'
import type { Token } from 'markdown-it'
import type { Raw } from 'mdast-util-to-hast'
import { normalizeUri } from 'micromark-util-sanitize-uri'
import { findAutolinks } from './gfm-autolink.ts'
import { listItem } from './markdown-list-item.ts'
import { attr, md, meta } from './markdown-engine.ts'
import { element, line, wrap } from './hast-nodes.ts'
import { footnoteSection, footnoteReference, type FootnoteList } from './markdown-footnotes.ts'
import { safeUrl } from './markdown-urls.ts'

/** Builds hast from a token stream; `footnotes` is markdown-it-footnote's list (env.footnotes.list). */
export class HastBuilder {
  private i = 0
  private readonly references = new Map<string, number>()
  /** Whether the tree has raw HTML (`raw` nodes), which must be parsed and sanitised before use. */
  hasRaw = false

  constructor(
    private readonly tokens: Token[],
    private readonly footnotes: FootnoteList | undefined,
  ) {}

  root(): Root {
    const children = this.blocks()
    let section: Element | undefined
    if (this.tokens[this.i]?.type === 'footnote_block_open') section = this.footnoteBlock()
    const root: Root = { type: 'root', children: wrap(children, false) }
    if (section) root.children.push(line(), section)
    return root
  }

  /** Blocks up to the next closing token (or the footnote section at the end). */
  private blocks(): ElementContent[] {
    const out: ElementContent[] = []
    for (
      let token = this.tokens[this.i];
      token && token.nesting !== -1 && token.type !== 'footnote_block_open';
      token = this.tokens[this.i]
    ) {
      const node = this.block(token)
      if (node) out.push(node)
    }
    return out
  }

  private block(token: Token): ElementContent | undefined {
    this.i++
    switch (token.type) {
      case 'html_block':
        // mdast's html node holds the block without its last line ending.
        return this.raw(token.content.replace(/\n$/, ''))
      case 'paragraph_open':
      case 'heading_open': {
        const inline = this.tokens[this.i++]!
        while (this.tokens[this.i]!.nesting !== -1) this.i++ // footnote back-reference anchors
        this.i++
        return element(token.tag, {}, this.inline(inline.children ?? []))
      }
      case 'blockquote_open':
        return element('blockquote', {}, wrap(this.closeWith(this.blocks()), true))
      case 'bullet_list_open':
      case 'ordered_list_open':
        return this.list(token)
      case 'fence':
      case 'code_block': {
        // The info string's escapes and entities decoded, as micromark reads them (`foo\+bar` is foo+bar).
        const language = token.type === 'fence' ? md.utils.unescapeAll(token.info).trim().split(/\s+/)[0] : ''
        const code = element('code', language ? { className: [`language-${language}`] } : {}, [
          { type: 'text', value: token.content },
        ])
        return element('pre', {}, [code])
      }
      case 'hr':
        return element('hr', {}, [])
      case 'table_open':
        return this.table()
      default:
        // Tokens without output here (e.g. empty footnote anchors); skip a whole unknown container.
        if (token.nesting === 1) this.closeWith(this.blocks())
        return undefined
    }
  }

  /** Consume the closing token after `value` was built. */
  private closeWith<T>(value: T): T {
    this.i++
    return value
  }

  private list(open: Token): Element {
    const start = attr(open, 'start')
    const items: Element[] = []
    let loose = false
    const listLevel = open.level
    for (
      let k = this.i;
      this.tokens[k] && !(this.tokens[k]!.level === listLevel && this.tokens[k]!.nesting === -1);
      k++
    ) {
      const t = this.tokens[k]!
      if (t.type === 'paragraph_open' && t.level === listLevel + 2 && !t.hidden) loose = true
    }
    while (this.tokens[this.i]!.type === 'list_item_open') {
      this.i++
      items.push(listItem(this.closeWith(this.blocks()), loose))
    }
    this.i++
    const properties: Properties = {}
    if (start !== null && Number(start) !== 1) properties.start = Number(start)
    if (items.some((item) => (item.properties.className as string[] | undefined)?.includes('task-list-item'))) {
      properties.className = ['contains-task-list']
    }
    return element(open.type === 'ordered_list_open' ? 'ol' : 'ul', properties, wrap(items, true))
  }

  private table(): Element {
    const rows: Element[][] = []
    const aligns: (string | undefined)[] = []
    let header = true
    for (let token = this.tokens[this.i++]!; token.type !== 'table_close'; token = this.tokens[this.i++]!) {
      if (token.type === 'tr_open') rows.push([])
      if (token.type !== 'th_open' && token.type !== 'td_open') continue
      if (token.type === 'td_open') header = false
      const align = /text-align:(\w+)/.exec(attr(token, 'style') ?? '')?.[1]
      if (header) aligns.push(align)
      const inline = this.tokens[this.i++]!
      rows.at(-1)!.push(element(token.tag, align ? { align } : {}, this.inline(inline.children ?? [])))
    }
    const tr = (cells: Element[]) => element('tr', {}, wrap(cells, true))
    const [head, ...body] = rows
    const parts = [element('thead', {}, wrap([tr(head!)], true))]
    if (body.length) parts.push(element('tbody', {}, wrap(body.map(tr), true)))
    return element('table', {}, wrap(parts, true))
  }

  private footnoteBlock(): Element {
    this.i++
    const items: { label: string; index: number; content: ElementContent[] }[] = []
    while (this.tokens[this.i]!.type === 'footnote_open') {
      const open = this.tokens[this.i++]!
      const note = meta<{ label: string; id: number }>(open)
      items.push({ label: note.label, index: note.id, content: this.closeWith(this.blocks()) })
    }
    this.i++
    return footnoteSection(items, this.footnotes!)
  }

  /** Inline tokens to phrasing content; text and soft breaks are joined into one text node, as in mdast. */
  inline(tokens: Token[]): ElementContent[] {
    const stack: ElementContent[][] = [[]]
    let text = ''
    let inLink = 0
    const flush = () => {
      if (!text) return
      const out = stack.at(-1)!
      if (inLink) out.push({ type: 'text', value: text })
      else
        for (const part of findAutolinks(text))
          out.push(typeof part === 'string' ? { type: 'text', value: part } : autolink(part.url, part.text))
      text = ''
    }
    for (const token of tokens) {
      if (token.type === 'text') {
        text += token.content
        continue
      }
      if (token.type === 'softbreak') {
        text += '\n'
        continue
      }
      flush()
      const out = stack.at(-1)!
      if (token.nesting === 1) {
        const properties: Properties = {}
        if (token.type === 'link_open') {
          inLink++
          const href = safeUrl('href', attr(token, 'href') ?? '')
          if (href !== undefined) properties.href = href
          const title = attr(token, 'title')
          if (title !== null) properties.title = title
        }
        const node = element(token.tag, properties, [])
        out.push(node)
        stack.push(node.children)
      } else if (token.nesting === -1) {
        if (token.type === 'link_close') inLink--
        stack.pop()
      } else if (token.type === 'hardbreak') {
        out.push(element('br', {}, []), { type: 'text', value: '\n' })
      } else if (token.type === 'code_inline') {
        out.push(element('code', {}, [{ type: 'text', value: token.content }]))
      } else if (token.type === 'image') {
        out.push(image(token))
      } else if (token.type === 'html_inline') {
        out.push(this.raw(token.content))
      } else if (token.type === 'footnote_ref') {
        const note = meta<{ label: string; id: number }>(token)
        out.push(footnoteReference(note.label, note.id, this.references))
      }
    }
    flush()
    return stack[0]!
  }

  private raw(value: string): Raw {
    this.hasRaw = true
    return { type: 'raw', value }
  }
}

function autolink(url: string, text: string): Element {
  const href = safeUrl('href', normalizeUri(url))
  return element('a', href === undefined ? {} : { href }, [{ type: 'text', value: text }])
}

function image(token: Token): Element {
  const properties: Properties = {}
  const src = safeUrl('src', attr(token, 'src') ?? '')
  if (src !== undefined) properties.src = src
  properties.alt = altText(token.children ?? [])
  const title = attr(token, 'title')
  if (title !== null) properties.title = title
  return element('img', properties, [])
}

/** The alt text mdast would store: the description's plain text (hard breaks add nothing). */
export function altText(tokens: Token[]): string {
  let alt = ''
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'html_inline') alt += token.content
    else if (token.type === 'softbreak') alt += '\n'
    else if (token.type === 'image') alt += altText(token.children ?? [])
  }
  return alt
}
