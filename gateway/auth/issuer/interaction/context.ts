/**
 * What every sign-in and consent request starts with: the interaction the
 * provider is waiting on (found through its cookie, which must belong to the
 * uid in the path), the client it is for, and the HTML answer helpers.
 */
import type { H3Event } from 'h3'
import type Provider from 'oidc-provider'
import type { Interaction } from 'oidc-provider'
import { baseHeaders, CACHE } from '../../../../contract/headers.ts'
import { requestIdOf } from '../../../http/request-id.ts'
import { withNodeRequest } from '../node-bridge.ts'
import { errorPage, PAGE_CSP } from './pages.ts'

/** An HTML page, never cached, never readable cross-origin, with the pages' own content policy. */
export function htmlResponse(
  event: H3Event,
  status: number,
  html: string,
  extra: Record<string, string> = {},
): Response {
  const headers = baseHeaders(requestIdOf(event), 'text/html; charset=utf-8', CACHE.none)
  headers.delete('access-control-allow-origin')
  headers.delete('access-control-expose-headers')
  headers.set('content-security-policy', PAGE_CSP)
  headers.set('x-frame-options', 'DENY')
  // Not no-referrer: with it, browsers send `Origin: null` on the form posts, and the origin check needs the real one.
  headers.set('referrer-policy', 'same-origin')
  for (const [name, value] of Object.entries(extra)) headers.set(name, value)
  return new Response(event.req.method === 'HEAD' ? null : html, { status, headers })
}

export function redirectResponse(event: H3Event, location: string): Response {
  const headers = baseHeaders(requestIdOf(event), 'text/plain; charset=utf-8', CACHE.none)
  headers.delete('access-control-allow-origin')
  headers.set('location', location)
  return new Response(null, { status: 303, headers })
}

export const expiredPage = (event: H3Event) =>
  htmlResponse(
    event,
    400,
    errorPage(
      'This sign-in has expired',
      'The sign-in request was not found: it has expired, was already completed, or was started in another browser. Go back to the application and connect again.',
    ),
  )

/** The interaction of this browser for the uid in the path, or undefined when there is none. */
export async function loadInteraction(provider: Provider, event: H3Event): Promise<Interaction | undefined> {
  const uid = event.context.params?.uid ?? ''
  // The provider reads only the cookies; the rest of the request does not matter to it.
  const request = new Request(event.req.url, { headers: { cookie: event.req.headers.get('cookie') ?? '' } })
  try {
    const interaction = await withNodeRequest(request, (req, res) => provider.interactionDetails(req, res))
    return interaction.uid === uid ? interaction : undefined
  } catch (error) {
    // oidc-provider's SessionNotFound (matched by name: this module does not load the library).
    if ((error as Error).name === 'SessionNotFound') return undefined
    throw error
  }
}

/** Save the outcome and say where the browser resumes the authorization request (what `interactionResult` does). */
export async function finishInteraction(
  interaction: Interaction,
  result: Interaction['result'] & object,
): Promise<string> {
  interaction.result = result
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)))
  return interaction.returnTo
}

export interface ClientView {
  name: string
  /** Where the browser returns: the redirect URI's origin. */
  returnTo: string
}

/** How the client is named on our pages: its registered name, and where it is really from. */
export async function clientView(provider: Provider, interaction: Interaction): Promise<ClientView> {
  const clientId = String(interaction.params.client_id ?? '')
  const client = await provider.Client.find(clientId)
  const redirect = URL.parse(String(interaction.params.redirect_uri ?? client?.redirectUris?.[0] ?? ''))
  const returnTo = redirect ? redirect.origin : 'the application'
  const registered = client?.clientName
  const idHost = URL.parse(clientId)?.host
  // A self-registered name proves nothing: show where the client's metadata or redirect really points.
  const name = registered ? `${registered} (${idHost ?? redirect?.host ?? clientId})` : (idHost ?? clientId)
  return { name, returnTo }
}
