/**
 * The embedded authorization server: oidc-provider (OpenID Certified),
 * configured for this gateway. client_credentials for machine clients,
 * authorization code with PKCE (S256, always) for people and agent hosts,
 * refresh tokens with rotation, revocation, Dynamic Client Registration and
 * Client ID Metadata Documents under one policy, ID tokens and userinfo for
 * openid/profile/email, RFC 9068 JWT access tokens for the API and /mcp.
 * State goes through the state store; keys come from the signing key.
 */
import { randomBytes } from 'node:crypto'
import type { EventEmitter } from 'node:events'
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider'
import type { Logger } from '../../log.ts'
import type { People } from '../people/people.ts'
import type { StateStore } from '../store/state-store.ts'
import { storeFaultIn } from '../store/store-errors.ts'
import { stateAdapter, type ClientSource } from './adapter.ts'
import { REGISTERED_CLIENT_PREFIX, type ClientLifetime } from './client-lifetime.ts'
import { allowMetadataDocumentClient, clientMetadataValidator, EXTRA_CLIENT_PROPERTIES } from './client-policy.ts'
import { compareHashedSecrets } from './client-secrets.ts'
import { allowLoopbackPorts, redirectMismatch } from './loopback-redirects.ts'
import { errorPage, PAGE_CSP } from './interaction/pages.ts'
import { interactionPath, PROVIDER_PATHS } from './paths.ts'
import { resourceIndicators, type Resources } from './resources.ts'
import { deriveSecret, SIGNING_ALG, type SigningKey } from './signing-key.ts'
import { GRANT_CLAIM, type TokenRevocations } from './token-revocation.ts'

/** The provider's routes a person's browser is on, where an error is a page rather than JSON. */
const BROWSER_ROUTES = new Set(['authorization', 'resume'])

export interface ProviderOptions {
  issuer: string
  key: SigningKey
  store: StateStore
  /** Machine clients (the clients file); every other client is registered and stored. */
  clients: ClientSource
  /** Where a revoked grant is recorded, so the JWT access tokens issued from it are refused. */
  revocations: TokenRevocations
  people: People
  resources: () => Resources
  accessTokenTtl: number
  /** How long a registered client is kept unused. */
  clientLifetime: ClientLifetime
  log: Logger
  /** How Client ID Metadata Documents are fetched; the provider's own SSRF-guarded fetch unless a test supplies one. */
  fetch?: Configuration['fetch']
}

const DAY = 24 * 60 * 60

export function createProvider(o: ProviderOptions): Provider {
  const configuration: Configuration = {
    adapter: stateAdapter(o.store, o.clients, o.clientLifetime, (grantId) => o.revocations.revokeGrant(grantId)),
    jwks: { keys: [o.key.privateJwk as Record<string, unknown> as never] },
    cookies: {
      keys: [deriveSecret(o.key, 'cookie signatures').toString('base64url')],
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    // The scopes of the build served when the provider is made (a collection added later: after a restart).
    scopes: [...o.resources().scopes],
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    async findAccount(_ctx, sub) {
      const person = await o.people.find(sub)
      if (!person || person.disabled_at) return undefined
      return { accountId: person.id, claims: () => ({ sub: person.id, name: person.name, email: person.email }) }
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: false },
      revocation: {
        enabled: true,
        // A client revokes its own tokens only; a public client asking about another's learns nothing (RFC 7009 §2.2).
        allowedPolicy(_ctx, client, token) {
          if (token.clientId === client.clientId) return true
          if (client.clientAuthMethod === 'none') return false
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token')
        },
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      // The gateway verifies bearer tokens only: no DPoP-bound tokens, no endpoints it does not mount.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
        idFactory: () => `${REGISTERED_CLIENT_PREFIX}${randomBytes(16).toString('base64url')}`,
      },
      registrationManagement: { enabled: false },
      resourceIndicators: resourceIndicators(o.resources, o.accessTokenTtl),
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02', allowClient: allowMetadataDocumentClient },
    },
    extraClientMetadata: {
      properties: [...EXTRA_CLIENT_PROPERTIES],
      validator: clientMetadataValidator(o.clientLifetime),
    },
    // Shared secrets are stored hashed, so nothing may use them as keys (client_secret_jwt, HS*).
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: SIGNING_ALG,
    },
    enabledJWA: {
      idTokenSigningAlgValues: [SIGNING_ALG],
      userinfoSigningAlgValues: [SIGNING_ALG],
      authorizationSigningAlgValues: [SIGNING_ALG],
    },
    responseTypes: ['code'],
    // PKCE for every client (OAuth 2.1); the provider accepts S256 only.
    pkce: { required: () => true },
    routes: { ...PROVIDER_PATHS },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    ttl: {
      AccessToken: o.accessTokenTtl,
      ClientCredentials: o.accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Grant: 30 * DAY,
      Session: 14 * DAY,
      RefreshToken: 30 * DAY,
    },
    // A JWT access token names its grant: revoking the grant (a code replayed, a refresh token revoked) refuses it.
    extraTokenClaims: (_ctx, token) =>
      token.kind === 'AccessToken' && token.grantId ? { [GRANT_CLAIM]: token.grantId } : undefined,
    // Agent hosts keep a connection for weeks: a refresh token for every client allowed the grant, rotated on each use.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: () => false,
    clientBasedCORS(_ctx, origin, client) {
      // Browser-based public clients (the MCP Inspector) call the token endpoint from their redirect URI's origin.
      return origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin)
    },
    discovery: { service_documentation: `${o.issuer}/docs/` },
    renderError(ctx, out) {
      // Only the browser steps get a page; an endpoint a program calls (token, registration,
      // revocation, userinfo) answers the OAuth JSON error whatever its Accept header prefers.
      if (!BROWSER_ROUTES.has(ctx.oidc?.route ?? '')) {
        ctx.type = 'json'
        ctx.body = out
        return
      }
      ctx.type = 'html'
      ctx.set('content-security-policy', PAGE_CSP)
      ctx.set('cache-control', 'no-store')
      const details: Record<string, string> = {}
      for (const [k, v] of Object.entries(out)) if (typeof v === 'string') details[k] = v
      if (out.error === 'invalid_redirect_uri')
        details.error_description = redirectMismatch(ctx.oidc?.params?.redirect_uri)
      ctx.body = errorPage(
        'Sign-in cannot continue',
        'The application sent a request this server cannot accept. Go back to the application and try again; if it keeps happening, tell its developers what is below.',
        details,
      )
    },
    ...(o.fetch ? { fetch: o.fetch } : {}),
  }
  const provider = new Provider(o.issuer, configuration)
  // The gateway hands the provider its public origin and the client address in X-Forwarded-* (node-bridge.ts).
  provider.proxy = true
  compareHashedSecrets(provider.Client as never)
  allowLoopbackPorts(provider.Client as never)
  logEvents(provider, o.log)
  return provider
}

/** Log what operators need, never a token or secret: failures, registrations, issued grants. */
function logEvents(provider: Provider, log: Logger): void {
  // The typings list each event separately; one loosely typed emitter keeps this table short.
  const events = provider as unknown as EventEmitter
  // A store fault is logged once, with its store, where the request is answered (provider-routes.ts).
  const serverError = (error: Error) =>
    storeFaultIn(error) || log('error', 'authorization server error', { error: error.message })
  events.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) => serverError(error))
  // Koa writes unhandled errors to stderr unless someone listens; we do, through our logger.
  events.on('error', serverError)
  for (const event of [
    'grant.error',
    'authorization.error',
    'registration_create.error',
    'revocation.error',
    'userinfo.error',
  ]) {
    events.on(event, (ctx: KoaContextWithOIDC, error: { error?: string; error_description?: string }) =>
      log('info', 'oauth request refused', {
        route: ctx.oidc?.route,
        client_id: ctx.oidc?.client?.clientId,
        error: error.error,
        description: error.error_description,
      }),
    )
  }
  events.on('grant.success', (ctx: KoaContextWithOIDC) =>
    log('info', 'token issued', { client_id: ctx.oidc.client?.clientId, grant_type: ctx.oidc.params?.grant_type }),
  )
  events.on('registration_create.success', (_ctx: KoaContextWithOIDC, client: { clientId: string }) =>
    log('info', 'client registered', { client_id: client.clientId }),
  )
}
