/**
 * RFC 8707 resource indicators: this gateway is the one resource server,
 * answering for its public URL (the API) and `<public URL>/mcp`. A token for
 * either is an RFC 9068 JWT whose `aud` is the resource asked for, with the
 * API scopes (never openid/profile/email, which only the userinfo endpoint
 * reads). Without a resource, a machine client gets the API as its
 * audience, as the earlier issuer did.
 */
import { errors, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider'
import { isScope } from '../../../contract/scopes.ts'
import { SIGNING_ALG } from './signing-key.ts'

export interface Resources {
  /** Resource indicators a token may be issued for (absolute URLs). */
  accepted: readonly string[]
  /** The audience when a machine client names none. */
  fallback: string
  /** Every scope of the API: the fixed ones and the collections' of the build served (contract/scopes.ts). */
  scopes: readonly string[]
}

/** Scopes people consent to through OpenID Connect alone. */
export const OPENID_SCOPES = new Set(['openid', 'profile', 'email'])
/** The API's scopes among `scopes`: all but OpenID Connect's. */
const apiScopes = (scopes: readonly string[]) => scopes.filter((s) => !OPENID_SCOPES.has(s))

interface Model {
  scopes: Set<string>
}

const isClientCredentials = (ctx: KoaContextWithOIDC) =>
  ctx.oidc.route === 'token' && ctx.oidc.params?.grant_type === 'client_credentials'

export function resourceIndicators(resources: () => Resources, accessTokenTtl: number) {
  return {
    enabled: true,
    defaultResource(ctx: KoaContextWithOIDC, _client: unknown, oneOf?: readonly string[]) {
      // Several granted and none named at the token endpoint: the client must choose.
      if (oneOf) return oneOf
      if (isClientCredentials(ctx)) return resources().fallback
      // An authorization request for API scopes that names no resource (clients older than RFC 8707): the API.
      const asked = String(ctx.oidc.params?.scope ?? '').split(' ')
      if (ctx.oidc.route === 'authorization' && asked.some((s) => apiScopes(resources().scopes).includes(s)))
        return resources().fallback
      return undefined
    },
    getResourceServerInfo(
      ctx: KoaContextWithOIDC,
      indicator: string,
      client: { scope?: string | undefined },
    ): ResourceServer {
      if (!resources().accepted.includes(indicator)) {
        throw new errors.InvalidTarget(`tokens are not issued for the resource ${indicator.slice(0, 200)}`)
      }
      if (isClientCredentials(ctx)) {
        const params = ctx.oidc.params as Record<string, unknown>
        // No scope asked: everything the machine client may have (RFC 6749 §3.3 lets the server pick a default).
        if (!params.scope) params.scope = client.scope
        const unknown = String(params.scope ?? '')
          .split(' ')
          .find((s) => s !== '' && !isScope(s))
        if (unknown) throw new errors.InvalidScope('requested scope is not supported', unknown)
      }
      return {
        scope: apiScopes(resources().scopes).join(' '),
        audience: indicator,
        accessTokenTTL: accessTokenTtl,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: SIGNING_ALG } },
      }
    },
    // Without openid, the one resource authorized is the token's audience even when the token
    // request omits it; with openid, omitting it asks for a userinfo token (OpenID Connect's default).
    useGrantedResource: (_ctx: KoaContextWithOIDC, model: Model) => !model.scopes.has('openid'),
  }
}
