/**
 * /oauth/revoke with one of our JWT access tokens (RFC 7009 §2.1 covers
 * access tokens too). oidc-provider refuses a structured token there
 * (`unsupported_token_type`), so the provider is handed the request with a
 * placeholder in its place: it still authenticates the client (and the
 * failed-authentication count still sees a wrong secret), and finding no
 * such token answers 200. Then the JWT itself is revoked when it is this
 * issuer's and the client's (token-revocation.ts).
 */
import type { TokenRevocations } from './token-revocation.ts'

/** Stands in for the JWT: an opaque value the provider looks up and never finds. */
const PLACEHOLDER = 'jwt-access-token-revoked-by-the-gateway'

export interface PresentedJwt {
  token: string
  /** The request's body with the placeholder for the token, for the provider. */
  forwarded: Uint8Array
}

/** The JWT a revocation request presents (a form body's `token` that has a JWS's three parts), if it does. */
export function presentedJwt(request: Request, body: Uint8Array | undefined): PresentedJwt | undefined {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (!body || type !== 'application/x-www-form-urlencoded') return undefined
  const params = new URLSearchParams(Buffer.from(body).toString('utf8'))
  const token = params.get('token')
  if (!token || !/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) return undefined
  params.set('token', PLACEHOLDER)
  return { token, forwarded: new TextEncoder().encode(params.toString()) }
}

/**
 * After the provider accepted the client: revoke the token. A client revokes its own tokens only; a
 * confidential client presenting another's is told so, a public one learns nothing (RFC 7009 §2.2), as
 * the provider's policy answers for its own tokens (provider.ts).
 */
export async function revokeJwt(
  revocations: TokenRevocations,
  presented: PresentedJwt,
  request: Request,
  clientId: string,
): Promise<Response | undefined> {
  const outcome = await revocations.revokePresented(presented.token, clientId)
  if (outcome !== 'not-yours') return undefined
  const params = new URLSearchParams(Buffer.from(presented.forwarded).toString('utf8'))
  const confidential =
    /^basic\s/i.test(request.headers.get('authorization') ?? '') ||
    params.has('client_secret') ||
    params.has('client_assertion')
  if (!confidential) return undefined
  return Response.json(
    { error: 'invalid_request', error_description: 'client is not authorized to revoke the presented token' },
    { status: 400, headers: { 'cache-control': 'no-store' } },
  )
}
