/**
 * A small browser stand-in over fetch for the sign-in and consent pages:
 * a cookie jar that honours Path, manual redirects, and form posts read
 * from the page's own HTML (its action and hidden CSRF field), with the
 * Origin and Sec-Fetch-Site a browser sends. The MCP flow test drives
 * Chromium instead; this one keeps the relying-party tests quick.
 */
export interface Credentials {
  email: string
  password: string
}

export interface Step {
  url: string
  status: number
  html: string
  headers: Headers
}

export class UserAgent {
  private readonly jar = new Map<string, { name: string; value: string; path: string }>()
  /** Every page shown, in order (for assertions on the pages themselves). */
  readonly pages: Step[] = []

  /** `headers` go with every request (e.g. the X-Forwarded-For a trusted proxy would add). */
  constructor(private readonly headers: Record<string, string> = {}) {}

  cookieHeader(url: URL): string {
    return [...this.jar.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ')
  }

  private remember(response: Response, url: URL): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((p) => p.trim())
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      const value = pair.slice(eq + 1)
      const path =
        attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ||
        url.pathname.replace(/\/[^/]*$/, '') ||
        '/'
      const expired = attributes.some(
        (a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()),
      )
      const key = `${name};${path}`
      if (expired) this.jar.delete(key)
      else this.jar.set(key, { name, value, path })
    }
  }

  async request(
    href: string,
    init: { method?: string; form?: URLSearchParams; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const url = new URL(href)
    const headers: Record<string, string> = { ...this.headers, cookie: this.cookieHeader(url), accept: 'text/html' }
    if (init.form)
      Object.assign(headers, {
        'content-type': 'application/x-www-form-urlencoded',
        origin: url.origin,
        'sec-fetch-site': 'same-origin',
      })
    Object.assign(headers, init.headers)
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body: init.form,
      redirect: 'manual',
    })
    this.remember(response, url)
    return response
  }

  /**
   * Follow an authorization request through sign-in and consent until the
   * browser is sent to `redirectPrefix`; answer consent with `decision`.
   * Returns the URL the client receives.
   */
  async authorize(
    authorizeUrl: string,
    who: Credentials,
    redirectPrefix: string,
    decision: 'allow' | 'deny' = 'allow',
  ): Promise<URL> {
    let shown = await this.openSignIn(authorizeUrl, redirectPrefix)
    for (let pages = 0; pages < 5; pages++) {
      if (shown instanceof URL) return shown
      if (shown.status !== 200) throw new Error(`${shown.url} answered ${shown.status}: ${shown.html.slice(0, 500)}`)
      const page = readForm(shown.html, shown.url)
      const answer = shown.html.includes('type="password"')
        ? await this.request(page.action, {
            form: new URLSearchParams({ ...page.fields, email: who.email, password: who.password }),
          })
        : page.denyAction
          ? await this.request(decision === 'allow' ? page.action : page.denyAction, {
              form: new URLSearchParams(page.fields),
            })
          : undefined
      if (!answer) throw new Error(`no form to answer on ${shown.url}: ${shown.html.slice(0, 500)}`)
      const location = answer.headers.get('location')
      if (!location) throw new Error(`${page.action} answered ${answer.status}: ${(await answer.text()).slice(0, 500)}`)
      shown = await this.openSignIn(new URL(location, page.action).href, redirectPrefix)
    }
    throw new Error('too many pages')
  }

  /** Follow redirects from `href` to the first page (or to the client, when no page is needed). */
  async openSignIn(href: string, redirectPrefix = '\0'): Promise<Step | URL> {
    let next = href
    for (let hops = 0; hops < 20; hops++) {
      if (next.startsWith(redirectPrefix)) return new URL(next)
      const response = await this.request(next)
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        next = new URL(location, next).href
        continue
      }
      const step = { url: next, status: response.status, html: await response.text(), headers: response.headers }
      this.pages.push(step)
      return step
    }
    throw new Error('too many redirects')
  }

  /** Submit the sign-in form of `page` with `who`; returns the answer (not followed). */
  async submitSignIn(page: Step, who: Credentials, headers: Record<string, string> = {}): Promise<Response> {
    const form = readForm(page.html, page.url)
    return this.request(form.action, {
      form: new URLSearchParams({ ...form.fields, email: who.email, password: who.password }),
      headers,
    })
  }
}

/** The first form of one of our pages: its action, the Deny button's formaction, and hidden fields. */
export function readForm(
  html: string,
  base: string,
): { action: string; denyAction?: string; fields: Record<string, string> } {
  const unescapeHtml = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1]
  if (!action) throw new Error('the page has no form')
  const deny = /formaction="([^"]*)"/.exec(html)?.[1]
  const fields: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[m[1]!] = unescapeHtml(m[2]!)
  return {
    action: new URL(unescapeHtml(action), base).href,
    denyAction: deny ? new URL(unescapeHtml(deny), base).href : undefined,
    fields,
  }
}
