/**
 * WordPress's own markup in a body, turned into plain HTML before the HTML
 * becomes Markdown: shortcodes (`[caption]`, `[gallery]`, `[embed]`,
 * `[video]`, `[audio]`, and any other, whose tags are dropped), Gutenberg's
 * block comments (`<!-- wp:… -->`: an embed block becomes an embed, a
 * dynamic block with no content of its own is dropped), the classic
 * editor's paragraphs made of blank lines (WordPress's `wpautop`), and a
 * URL alone on a line (an oEmbed). What comes out names embeds as
 * `<div data-import-embed>`, which html-to-markdown.ts makes `::video` or a link.
 */
import { escapeHtml } from '../../contract/html.ts'
import { plainText } from './plain-text.ts'
import type { SourceAttachment } from './source-item.ts'

export interface ShortcodeContext {
  attachments: ReadonlyMap<string, SourceAttachment>
  /** The item's attached images, for a `[gallery]` without ids. */
  children: readonly SourceAttachment[]
  /** What was dropped, for the report. */
  notes: string[]
}

const ATTRIBUTE = /([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s'"\]]+))|(?:"([^"]*)"|(\S+))/g

/** A shortcode's attributes; positional ones (`[audio https://…]`) under their index. */
function attributesOf(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  let position = 0
  for (const m of text.matchAll(ATTRIBUTE)) {
    if (m[1]) out[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? ''
    else out[String(position++)] = m[5] ?? m[6] ?? ''
  }
  return out
}

const embed = (url: string, caption = '') =>
  `\n<div data-import-embed="${escapeHtml(url.trim())}" data-caption="${escapeHtml(caption)}">${escapeHtml(url.trim())}</div>\n`

const figure = (img: SourceAttachment) =>
  `<figure><img src="${escapeHtml(img.url)}" alt="${escapeHtml(img.alt ?? '')}">${img.caption ? `<figcaption>${img.caption}</figcaption>` : ''}</figure>`

const KNOWN = new Set(['caption', 'wp_caption', 'gallery', 'embed', 'video', 'audio', 'playlist', 'youtube', 'vimeo'])

function shortcode(name: string, attrs: Record<string, string>, inner: string, context: ShortcodeContext): string {
  switch (name) {
    case 'caption':
    case 'wp_caption': {
      // The caption is the text after the image (or its link); older ones put it in caption="…".
      const image = /<a\b[^>]*>\s*<img\b[^>]*>\s*<\/a>|<img\b[^>]*>/i.exec(inner)?.[0] ?? ''
      const text = (attrs.caption ?? inner.replace(image, '')).trim()
      return `<figure>${image}${text ? `<figcaption>${text}</figcaption>` : ''}</figure>`
    }
    case 'gallery': {
      const images = attrs.ids
        ? attrs.ids.split(',').flatMap((id) => {
            const found = context.attachments.get(id.trim())
            return found ? [found] : []
          })
        : context.children
      return `<div class="import-gallery">${images.map(figure).join('')}</div>`
    }
    case 'embed':
    case 'youtube':
    case 'vimeo':
      return embed(inner.trim() || attrs.url || attrs['0'] || attrs.src || '')
    case 'video':
    case 'audio': {
      const src = attrs.src || attrs.mp4 || attrs.mp3 || attrs.m4a || attrs.ogg || attrs.webm || attrs['0'] || ''
      if (!src) return ''
      const file = decodeURIComponent(src.split('/').pop() ?? src)
      return `<p><a href="${escapeHtml(src)}">${name === 'video' ? 'Video' : 'Audio'}: ${escapeHtml(file)}</a></p>`
    }
    default:
      context.notes.push(`the shortcode [${name}] has no equivalent: its tags were removed`)
      return inner
  }
}

/** `[name attrs]inner[/name]` or `[name attrs]`; `[[name]]` is WordPress's escape for the text itself. */
const SHORTCODE = /\[(\[?)([a-z][\w-]*)(\s[^\]]*?)?(\/?)\](?:([\s\S]*?)\[\/\2\])?(\]?)/gi

function replaceShortcodes(html: string, context: ShortcodeContext): string {
  return html.replace(SHORTCODE, (whole, open, rawName, attrs = '', _slash, inner, close) => {
    if (open && close) return whole.slice(1, -1)
    const name = String(rawName).toLowerCase()
    // Bracketed prose ([sic], [1]) is no shortcode: only a known name, a closed pair or attributes are.
    if (!KNOWN.has(name) && inner === undefined && !/=/.test(attrs)) return whole
    return shortcode(name, attributesOf(attrs), replaceShortcodes(inner ?? '', context), context)
  })
}

const DYNAMIC_BLOCK = /<!--\s*wp:([a-z][\w/-]*)(\s+\{(?:(?!-->)[\s\S])*?\})?\s*\/-->/g
const CLOSING = /<!--\s*\/?wp:[\s\S]*?-->/g

/** Gutenberg's comments out; an embed block as an embed, a self-closing (dynamic) block dropped with a note. */
function replaceBlocks(html: string, context: ShortcodeContext): string {
  const embeds = html.replace(
    /<!--\s*wp:(?:core-)?embed(?:\/[\w-]+)?\s+(\{[\s\S]*?\})\s*-->([\s\S]*?)<!--\s*\/wp:(?:core-)?embed(?:\/[\w-]+)?\s*-->/g,
    (whole, json: string, inner: string) => {
      let url = ''
      try {
        url = String((JSON.parse(json) as { url?: string }).url ?? '')
      } catch {
        return whole
      }
      const caption = /<figcaption[^>]*>([\s\S]*?)<\/figcaption>/.exec(inner)?.[1] ?? ''
      return url ? embed(url, plainText(caption)) : inner
    },
  )
  const left: string[] = []
  const dropped = embeds.replace(DYNAMIC_BLOCK, (_whole, name: string) => {
    if (!['more', 'nextpage', 'footnotes', 'spacer', 'separator'].includes(name) && !left.includes(name))
      left.push(name)
    return name === 'separator' ? '<hr>' : ''
  })
  if (left.length)
    context.notes.push(
      `left out the blocks WordPress makes when a page is shown: ${left.map((n) => `wp:${n}`).join(', ')}`,
    )
  return dropped.replace(CLOSING, '').replace(/<!--more(?:\s[^>]*)?-->|<!--nextpage-->/g, '')
}

const BLOCK_TAG =
  /^<\/?(?:p|div|h[1-6]|ul|ol|li|table|thead|tbody|tr|td|th|blockquote|pre|figure|figcaption|hr|dl|dt|dd|section|aside|form|address|iframe|video|audio|details|summary|style|script)\b/i

/** The classic editor's body: paragraphs as blank lines, line breaks as newlines, a lone URL an embed. */
function autop(html: string): string {
  return html
    .split(/\n\s*\n/)
    .map((chunk) => {
      const text = chunk.trim()
      if (!text) return ''
      if (/^https?:\/\/\S+$/.test(text)) return embed(text)
      if (BLOCK_TAG.test(text)) return text
      return `<p>${text.replace(/\n/g, '<br>\n')}</p>`
    })
    .join('\n')
}

/** A WordPress body as plain HTML: no shortcode, no block comment left. */
export function expandWordPress(html: string, context: ShortcodeContext): string {
  const blocks = /<!--\s*wp:/.test(html)
  const expanded = replaceShortcodes(replaceBlocks(html, context), context)
  // Block editor content is HTML already; the classic editor's relies on wpautop.
  return blocks ? expanded : autop(expanded.replace(/\r\n/g, '\n'))
}
