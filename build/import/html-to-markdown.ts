/**
 * An imported body's HTML as GFM Markdown, with turndown and its GFM plugin
 * (tables, strikethrough, task lists), and rules for what exports hold
 * beyond plain HTML: figures with captions, galleries, embeds (a YouTube,
 * Vimeo or Wistia one becomes `::video`, another a link), footnotes,
 * buttons (`::cta`), quotes with a citation (`:::quote`), Ghost's cards
 * (callout, bookmark, toggle, Markdown). Links and image addresses go
 * through the caller's rewriting (internal links, --media).
 */
import TurndownService from 'turndown'
import { gfm } from 'turndown-plugin-gfm'
import { videoEmbed } from '../pipeline/video-embed.ts'

export interface ConvertContext {
  /** An image's address as the file should name it. */
  image(src: string): string
  /** A link's address as the file should name it; undefined to keep its text only. */
  link(href: string): string | undefined
  /** Alt text for an image that has none (the build refuses an image without). */
  fallbackAlt(src: string): string
}

type Node = TurndownService.Node & HTMLElement

const attribute = (value: string) => value.replace(/"/g, "'").replace(/\s+/g, ' ').trim()
const has = (node: Node, name: string) => (node.getAttribute?.('class') ?? '').split(/\s+/).includes(name)
const plain = (node: Element | null | undefined) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim()

function inFigure(node: Node): boolean {
  for (let parent = node.parentNode as Node | null; parent; parent = parent.parentNode as Node | null)
    if (parent.nodeName === 'FIGURE') return true
  return false
}

/** A Markdown converter for one body. */
export function htmlToMarkdown(html: string, context: ConvertContext): string {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  })
  service.use(gfm)
  service.remove(['script', 'style', 'noscript', 'form', 'input', 'button', 'select', 'textarea'])
  const footnotes = new Map<string, number>()
  const image = (img: Node, caption = ''): string => {
    const src = img.getAttribute('src') ?? ''
    if (!src) return ''
    const url = context.image(src)
    // An image with no usable address is left out (the report says so); its caption stays.
    if (!url) return caption ? `*${caption.replace(/\*/g, '\\*')}*` : ''
    const alt = attribute(img.getAttribute('alt') || caption || img.getAttribute('title') || context.fallbackAlt(src))
    const md = `![${alt.replace(/[[\]]/g, '')}](${url})`
    return caption ? `${md}\n\n*${caption.replace(/\*/g, '\\*')}*` : md
  }
  const embed = (url: string, caption: string): string => {
    if (!url) return caption
    if (videoEmbed(url)) return `::video{src="${attribute(url)}" title="${attribute(caption || 'Video')}"}`
    return `[${caption || url}](${url})`
  }
  const block = (md: string) => `\n\n${md}\n\n`

  // turndown tries the rules added last first: links go first, so buttons and footnotes win over them.
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A' && (node as Node).hasAttribute('href'),
    replacement: (content, node) => {
      const href = context.link((node as Node).getAttribute('href') ?? '')
      if (!content.trim()) return ''
      return href ? `[${content}](${href.replace(/[()\s]/g, encodeURIComponent)})` : content
    },
  })
  service.addRule('embed', {
    filter: (node) => (node as Node).hasAttribute?.('data-import-embed'),
    replacement: (_c, node) =>
      block(
        embed(
          (node as Node).getAttribute('data-import-embed') ?? '',
          (node as Node).getAttribute('data-caption') ?? '',
        ),
      ),
  })
  service.addRule('iframe', {
    filter: 'iframe',
    replacement: (_c, node) =>
      block(embed((node as Node).getAttribute('src') ?? '', (node as Node).getAttribute('title') ?? '')),
  })
  service.addRule('figure', {
    filter: 'figure',
    replacement: (content, node) => {
      const el = node as Node
      const caption = plain(el.querySelector('figcaption'))
      const url = el.getAttribute('data-url') ?? ''
      const iframe = el.querySelector('iframe')
      if (has(el, 'kg-embed-card') || iframe || has(el, 'wp-block-embed'))
        return block(embed(url || iframe?.getAttribute('src') || plain(el).replace(caption, '').trim(), caption))
      if (has(el, 'kg-bookmark-card')) {
        const link = el.querySelector('a')
        return block(
          `[${plain(el.querySelector('.kg-bookmark-title')) || link?.getAttribute('href')}](${link?.getAttribute('href') ?? ''})`,
        )
      }
      const images = Array.from(el.querySelectorAll('img')) as Node[]
      if (images.length === 1 && !el.querySelector('table, blockquote')) return block(image(images[0]!, caption))
      if (images.length > 1)
        return block(images.map((img) => image(img)).join('\n\n') + (caption ? `\n\n*${caption}*` : ''))
      return block(content)
    },
  })
  // An image in a figure is the figure rule's (with its caption); turndown converts the children first.
  // GFM needs a header row: a table without one gets an empty header, rather than staying HTML.
  service.addRule('headlessTable', {
    filter: (node) => node.nodeName === 'TABLE' && !(node as Node).querySelector('th'),
    replacement: (_c, node) => {
      const rows = Array.from((node as Node).querySelectorAll('tr')) as Node[]
      const cells = rows.map((row) =>
        (Array.from(row.querySelectorAll('td')) as Node[]).map((td) =>
          service
            .turndown(td.innerHTML)
            .replace(/\s*\n\s*/g, ' ')
            .replace(/\|/g, '\\|')
            .trim(),
        ),
      )
      const width = Math.max(1, ...cells.map((c) => c.length))
      const line = (c: string[]) => `| ${Array.from({ length: width }, (_, i) => c[i] ?? '').join(' | ')} |`
      const head = `${line([])}\n|${' --- |'.repeat(width)}`
      return block([head, ...cells.map(line)].join('\n'))
    },
  })
  service.addRule('image', {
    filter: 'img',
    replacement: (_c, node) => (inFigure(node as Node) ? '' : image(node as Node)),
  })
  service.addRule('callout', {
    filter: (node) => has(node as Node, 'kg-callout-card'),
    replacement: (_c, node) => {
      const text = (node as Node).querySelector('.kg-callout-text')
      return block(`:::callout\n${service.turndown(text?.innerHTML ?? '').trim()}\n:::`)
    },
  })
  service.addRule('toggle', {
    filter: (node) => has(node as Node, 'kg-toggle-card'),
    replacement: (_c, node) => {
      const el = node as Node
      const body = el.querySelector('.kg-toggle-content')?.innerHTML ?? ''
      return block(`**${plain(el.querySelector('.kg-toggle-heading-text'))}**\n\n${service.turndown(body).trim()}`)
    },
  })
  service.addRule('button', {
    filter: (node) =>
      node.nodeName === 'A' && (has(node as Node, 'kg-btn') || has(node as Node, 'wp-block-button__link')),
    replacement: (_c, node) => {
      const href = context.link((node as Node).getAttribute('href') ?? '')
      const label = attribute(plain(node as Node)).slice(0, 80)
      return href && label && /^https?:\/\//.test(href) ? block(`::cta{label="${label}" href="${href}"}`) : label
    },
  })
  service.addRule('quote', {
    filter: (node) => node.nodeName === 'BLOCKQUOTE' && !!(node as Node).querySelector('cite'),
    replacement: (_c, node) => {
      const el = node.cloneNode(true) as Node
      const cite = el.querySelector('cite')!
      const who = attribute(plain(cite)).slice(0, 120)
      cite.remove()
      const text = service.turndown(el.innerHTML).trim()
      return who ? block(`:::quote{attribution="${who}"}\n${text}\n:::`) : block(text.replace(/^/gm, '> '))
    },
  })
  service.addRule('markdown', {
    filter: (node) => node.nodeName === 'PRE' && (node as Node).hasAttribute('data-import-markdown'),
    replacement: (_c, node) => block(node.textContent ?? ''),
  })
  service.addRule('footnoteReference', {
    filter: (node) =>
      node.nodeName === 'SUP' && /^#/.test((node as Node).querySelector('a')?.getAttribute('href') ?? ''),
    replacement: (_c, node) => {
      const id = (node as Node).querySelector('a')!.getAttribute('href')!.slice(1)
      if (!footnotes.has(id)) footnotes.set(id, footnotes.size + 1)
      return `[^${footnotes.get(id)}]`
    },
  })
  service.addRule('footnotes', {
    filter: (node) =>
      node.nodeName === 'OL' &&
      (has(node as Node, 'wp-block-footnotes') ||
        (node.parentNode as Node | null)?.getAttribute?.('class')?.includes('footnotes') === true),
    replacement: (_c, node) => {
      const items = Array.from((node as Node).querySelectorAll('li')) as Node[]
      const lines = items.map((li, i) => {
        for (const back of Array.from(li.querySelectorAll('a[href^="#"]'))) back.remove()
        const label = footnotes.get(li.getAttribute('id') ?? '') ?? i + 1
        return `[^${label}]: ${service.turndown(li.innerHTML).trim().replace(/\n+/g, ' ')}`
      })
      return block(lines.join('\n'))
    },
  })
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
