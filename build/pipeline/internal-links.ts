/**
 * Links from a body to items' pages on the marketing site: absolute with the
 * site's URL (`https://www.example.com/blog/a-post`) or a path (`/blog/a-post`,
 * `/blog/a-post/register`). Each becomes a `collection/slug` the link stage
 * checks against the published items, with where it is written in the file.
 * Links elsewhere (other hosts, other paths) are not checked.
 */
import type { SiteConfig } from '../core/site.ts'

export interface InternalLink {
  /** `collection/slug` the link points to. */
  target: string
  href: string
  line: number
  column: number
}

const HREF = /<a href="([^"]*)"/g

/**
 * The item links of a body, from its rendered HTML (every link the renderer
 * kept, reference-style ones included), positioned where the URL is written.
 */
export function internalLinks(markdown: string, html: string, site: SiteConfig, bodyLine: number): InternalLink[] {
  const out: InternalLink[] = []
  const seen = new Set<string>()
  for (const match of html.matchAll(HREF)) {
    const href = match[1]!.replaceAll('&amp;', '&')
    const target = itemOf(href, site)
    if (!target || seen.has(href)) continue
    seen.add(href)
    out.push({ target, href, ...positionOf(markdown, href, bodyLine) })
  }
  return out
}

/** `collection/slug` when `href` is an item's page on the site (or below it). */
function itemOf(href: string, site: SiteConfig): string | undefined {
  let path: string
  if (href.startsWith('/') && !href.startsWith('//')) path = href
  else if (href.startsWith(`${site.url}/`)) path = href.slice(site.url.length)
  else return undefined
  path = path.replace(/[?#].*$/, '')
  for (const collection of site.model.names) {
    const prefix = `${site.collections[collection]!.path}/`
    if (!path.startsWith(prefix)) continue
    const slug = decodeURIComponent(path.slice(prefix.length).split('/')[0]!)
    return slug ? `${collection}/${slug}` : undefined
  }
  return undefined
}

/** Line and column (1-based, in the file) of the first place `href` is written in the body. */
function positionOf(markdown: string, href: string, bodyLine: number): { line: number; column: number } {
  let at = markdown.indexOf(`(${href}`)
  at = at >= 0 ? at + 1 : markdown.indexOf(href)
  if (at < 0) return { line: bodyLine, column: 1 }
  const before = markdown.slice(0, at)
  const newlines = before.split('\n').length - 1
  return { line: bodyLine + newlines, column: at - (before.lastIndexOf('\n') + 1) + 1 }
}
