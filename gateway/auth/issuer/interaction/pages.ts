/**
 * The sign-in, consent and error pages of the embedded authorization
 * server: server-rendered HTML with labelled fields, one visible focus
 * style, errors announced to screen readers, nothing loaded from anywhere
 * (inline styles only, no scripts). Every value is escaped.
 */
import { escapeHtml, page } from '../../../../contract/html.ts'

export const PAGE_CSP =
  // No form-action: after the consent form the browser follows redirects to the
  // client's own redirect URI, which such a directive would block.
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'"

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; display: grid; place-items: center; min-height: 100vh; background: Canvas; color: CanvasText; }
main { width: min(28rem, 100% - 2rem); padding: 2rem 0; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
label { display: block; font-weight: 600; margin-top: 1rem; }
input { display: block; width: 100%; box-sizing: border-box; font: inherit; padding: .5rem; margin-top: .25rem; border: 1px solid GrayText; border-radius: .25rem; }
button { font: inherit; font-weight: 600; padding: .5rem 1.25rem; margin-top: 1.5rem; margin-right: .5rem; border-radius: .25rem; border: 1px solid GrayText; cursor: pointer; }
button.primary { background: #0b57d0; color: #fff; border-color: #0b57d0; }
:focus-visible { outline: 3px solid #e8710a; outline-offset: 2px; }
.alert { border-left: 4px solid #b3261e; padding: .5rem .75rem; margin: 1rem 0; background: color-mix(in srgb, #b3261e 10%, Canvas); }
.muted { color: GrayText; }
ul { padding-left: 1.25rem; }
code { font-size: .9em; }
`

function layout(title: string, body: string): string {
  return page(title, `<main>\n${body}\n</main>`, `<style>${STYLE}</style>\n`)
}

const alert = (message: string | undefined) =>
  message ? `<p class="alert" role="alert" id="form-error">${escapeHtml(message)}</p>` : ''

export interface LoginPageOptions {
  action: string
  csrf: string
  clientName: string
  email?: string | undefined
  error?: string | undefined
}

export function loginPage(o: LoginPageOptions): string {
  const described = o.error ? ' aria-describedby="form-error"' : ''
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(o.clientName)}</strong></p>
${alert(o.error)}
<form method="post" action="${escapeHtml(o.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(o.csrf)}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(o.email ?? '')}"${described}${o.email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${described}${o.email ? ' autofocus' : ''}>
<button type="submit" class="primary">Sign in</button>
</form>`,
  )
}

export interface ConsentScope {
  name: string
  description: string
  /** False when the signed-in person may not grant it; it is then left out of the grant. */
  grantable: boolean
}

export interface ConsentPageOptions {
  allowAction: string
  denyAction: string
  csrf: string
  clientName: string
  /** Where the browser goes back to afterwards (the redirect URI's origin). */
  returnTo: string
  personName: string
  scopes: ConsentScope[]
}

export function consentPage(o: ConsentPageOptions): string {
  const granted = o.scopes.filter((s) => s.grantable)
  const refused = o.scopes.filter((s) => !s.grantable)
  const item = (s: ConsentScope) =>
    `<li>${escapeHtml(s.description)} <span class="muted">(<code>${escapeHtml(s.name)}</code>)</span></li>`
  return layout(
    'Allow access?',
    `<h1>Allow access?</h1>
<p><strong>${escapeHtml(o.clientName)}</strong> asks to act for you, <strong>${escapeHtml(o.personName)}</strong>. It will be able to:</p>
${granted.length ? `<ul>${granted.map(item).join('')}</ul>` : '<p>Nothing beyond knowing that you signed in.</p>'}
${refused.length ? `<p>It also asks for the following, which your account cannot grant and which it will not get:</p><ul>${refused.map(item).join('')}</ul>` : ''}
<p class="muted">You will be sent back to ${escapeHtml(o.returnTo)}.</p>
<form method="post" action="${escapeHtml(o.allowAction)}">
<input type="hidden" name="csrf" value="${escapeHtml(o.csrf)}">
<button type="submit" class="primary" autofocus>Allow</button>
<button type="submit" formaction="${escapeHtml(o.denyAction)}">Deny</button>
</form>`,
  )
}

export function errorPage(title: string, message: string, details: Record<string, string> = {}): string {
  const rows = Object.entries(details)
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd><code>${escapeHtml(v)}</code></dd>`)
    .join('')
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(message)}</p>
${rows ? `<dl>${rows}</dl>` : ''}`,
  )
}
