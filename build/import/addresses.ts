/**
 * Where every imported item was on the old site and where it is now: the
 * internal links of the bodies are rewritten with it. An item is known by
 * its old permalink's path, `?p=<id>` / `?page_id=<id>` (WordPress's
 * shortlinks) and its old slug's path; links to an item that will not be
 * public (a draft, a scheduled post) keep only their text, since a
 * published item may not point to one.
 */

export interface Address {
  /** Its page path on the new site: `/blog/my-post`. */
  path: string
  public: boolean
}

export class AddressBook {
  private readonly byPath = new Map<string, Address>()
  private readonly hosts = new Set<string>()

  /** The old site's address without its trailing slash, or '' when unknown. */
  private readonly site: string

  constructor(oldSite: string | undefined) {
    this.site = (oldSite ?? '').replace(/\/+$/, '')
    try {
      if (oldSite) this.hosts.add(new URL(oldSite).host.replace(/^www\./, ''))
    } catch {}
  }

  add(id: string, oldLink: string | undefined, address: Address): void {
    this.byPath.set(`?p=${id}`, address)
    this.byPath.set(`?page_id=${id}`, address)
    const path = this.pathOf(oldLink)
    if (path) this.byPath.set(normal(path), address)
  }

  /** The path of `url` on the old site, or undefined when it is elsewhere. */
  pathOf(url: string | undefined): string | undefined {
    if (!url) return undefined
    const ghost = url.replace(/^__GHOST_URL__/, '')
    if (ghost !== url) return ghost.split('#')[0] || '/'
    if (url.startsWith('/') && !url.startsWith('//')) return url.split('#')[0]
    try {
      const parsed = new URL(url)
      if (!this.hosts.has(parsed.host.replace(/^www\./, ''))) return undefined
      return `${decodeURI(parsed.pathname)}${parsed.search}`
    } catch {
      return undefined
    }
  }

  /** `href` rewritten: an imported item's new path (with its #fragment), the text only for one not public, else as it was. */
  rewrite(href: string): string | undefined {
    const path = this.pathOf(href)
    if (path === undefined) return href
    const query = /[?&](p|page_id)=(\d+)/.exec(path)
    const found = this.byPath.get(query ? `?${query[1]}=${query[2]}` : normal(path.split('?')[0]!))
    // Another page of the old site (a tag's, an author's): where it was, with Ghost's placeholder filled in.
    if (!found) return href.startsWith('__GHOST_URL__') ? `${this.site}${href.slice(13)}` : href
    if (!found.public) return undefined
    const hash = href.includes('#') ? href.slice(href.indexOf('#')) : ''
    return `${found.path}${hash}`
  }
}

const normal = (path: string) => `/${path.replace(/^\/+|\/+$/g, '')}`.toLowerCase()
