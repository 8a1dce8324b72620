/**
 * Loopback redirects for native clients (RFC 8252 §7.3): an agent CLI or a
 * desktop app listens on whatever port the system gives it, so a redirect
 * URI registered as `http://127.0.0.1/…` or `http://[::1]/…`, without a
 * port, accepts any port in an authorization request; everything else
 * about it must match exactly. Only the IP literals: `localhost` may
 * resolve elsewhere (RFC 8252 §8.3), and a URI registered with a port keeps
 * that port. Every other redirect URI is compared exactly (RFC 6749 §3.1.2).
 *
 * oidc-provider has its own loopback rule, for `application_type: native`
 * clients only and ignoring a registered port; this one replaces it.
 */

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\]):(\d{1,5})((?:[/?#].*)?)$/s

/** Whether `value`, asked for in an authorization request, is one of `registered` under the rules above. */
export function redirectUriAllowed(value: string, registered: readonly string[]): boolean {
  if (registered.includes(value)) return true
  const loopback = LOOPBACK.exec(value)
  if (!loopback) return false
  const [, host, port, rest] = loopback
  const number = Number(port)
  if (number < 1 || number > 65535) return false
  return registered.includes(`http://${host}${rest}`)
}

/** What a person sees when the redirect URI is not the client's: the rule, not just "did not match". */
export function redirectMismatch(value: unknown): string {
  const shown = typeof value === 'string' ? `"${value.slice(0, 200)}"` : 'given'
  return `The redirect_uri ${shown} is not one of the redirect URIs this client registered. They are compared exactly, except that one registered on a loopback address without a port (http://127.0.0.1/… or http://[::1]/…) accepts any port.`
}

interface ClientWithRedirects {
  redirectUris?: string[] | undefined
  redirectUriAllowed(value: string): boolean
}

/** Teach a provider's Client class the rule (the provider offers no option for it). */
export function allowLoopbackPorts(clientClass: { prototype: ClientWithRedirects }): void {
  clientClass.prototype.redirectUriAllowed = function redirectUriAllowedAnyLoopbackPort(
    this: ClientWithRedirects,
    value: string,
  ) {
    return typeof value === 'string' && redirectUriAllowed(value, this.redirectUris ?? [])
  }
}
