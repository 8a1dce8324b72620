/**
 * What the embedded authorization server's endpoints take and give, for the
 * route table (oauth.ts): OAuth errors (RFC 6749 §5.2, RFC 7591 §3.2.2), tokens,
 * client metadata, and each parameter bounded by contract/oauth-params.ts.
 */
import {
  CLIENT_METADATA_LIMITS,
  MAX_ERROR_DESCRIPTION_LENGTH,
  MAX_REDIRECT_URIS,
  MAX_SCOPE_LENGTH,
  MAX_TOKEN_LENGTH,
  OAUTH_PARAMETER_LIMITS as LIMITS,
} from '../oauth-params.ts'
import type { Parameter } from './route.ts'
import { arrayOf, headerRef, int32, schemaRef, text, uri, type Json } from './schema.ts'

export const OAUTH_ERROR = {
  type: 'object',
  required: ['error'],
  description: 'OAuth error response (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 6750 §3.1).',
  properties: {
    error: {
      enum: [
        'invalid_request',
        'invalid_client',
        'invalid_grant',
        'unauthorized_client',
        'unsupported_grant_type',
        'invalid_scope',
        'invalid_target',
        'invalid_client_metadata',
        'invalid_redirect_uri',
        'invalid_token',
        'insufficient_scope',
        'unsupported_token_type',
        'server_error',
      ],
    },
    error_description: text(MAX_ERROR_DESCRIPTION_LENGTH),
  },
}

/** oidc-provider answers a browser's cross-origin call only for clients whose redirect URIs share its origin. */
const PROVIDER_CORS = {
  'Access-Control-Allow-Origin': {
    description:
      "The calling page's origin, when it belongs to the client (a redirect URI's origin); absent otherwise.",
    required: false,
    schema: text(300),
  },
}

/** The headers of every answer of the provider's endpoints (the route's budget adds the RateLimit fields). */
export const providerHeaders = (cors: Json = PROVIDER_CORS): Json => ({
  'Cache-Control': headerRef('Cache-Control'),
  'X-Request-Id': headerRef('X-Request-Id'),
  ...cors,
})

export const oauthError = (description: string, cors?: Json): Json => ({
  description,
  headers: providerHeaders(cors),
  content: { 'application/json': { schema: OAUTH_ERROR } },
})

/** Answered either by a cap or limiter in front of the endpoint (a problem) or by the endpoint itself (an OAuth error). */
export const oauthOrProblem = (description: string, cors?: Json): Json => ({
  description,
  headers: providerHeaders(cors),
  content: {
    'application/json': { schema: OAUTH_ERROR },
    'application/problem+json': { schema: schemaRef('Problem') },
  },
})

export const challenge = (description: string) => ({
  'WWW-Authenticate': { description, required: true, schema: text(2000) },
})

/** A parameter of the table in contract/oauth-params.ts, bounded by it. */
export const param = (name: keyof typeof LIMITS, description?: string, extra: Json = {}): Json =>
  text(LIMITS[name], { ...(description && { description }), ...extra })

export const query = (
  name: keyof typeof LIMITS,
  description: string,
  required = false,
  schema: Json = param(name),
): Parameter => ({ name, in: 'query', required, description, schema })

const SCOPE = text(MAX_SCOPE_LENGTH, { pattern: '^[a-z.-]+( [a-z.-]+)*$', description: 'Space-separated scopes.' })
const TOKEN = (description: string) => text(MAX_TOKEN_LENGTH, { pattern: '^[A-Za-z0-9._~+/-]+=*$', description })

export const TOKEN_RESPONSE = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: {
    access_token: TOKEN(
      'An RFC 9068 JWT for a resource of this gateway (`aud` is the resource); for the userinfo endpoint, an opaque token.',
    ),
    token_type: { enum: ['Bearer', 'bearer'] },
    expires_in: int32(1, 86_400, {
      description: 'Seconds the access token stays valid (OAUTH_TOKEN_TTL, at most a day).',
    }),
    scope: SCOPE,
    refresh_token: text(LIMITS.refresh_token, {
      description: 'Authorization code clients allowed the refresh_token grant; rotated on every use.',
    }),
    id_token: TOKEN('With the `openid` scope: an OpenID Connect ID token (ES256).'),
  },
}

export const CLIENT_METADATA = {
  type: 'object',
  description: `RFC 7591 client metadata. Policy: grant types authorization_code and refresh_token only; redirect URIs https, or http on localhost, 127.0.0.1 or [::1]; at most ${MAX_REDIRECT_URIS}.`,
  required: ['redirect_uris'],
  properties: {
    redirect_uris: arrayOf(
      uri({
        maxLength: CLIENT_METADATA_LIMITS.redirect_uri,
        examples: ['https://app.example.com/oauth/callback', 'http://127.0.0.1:33418/callback'],
      }),
      MAX_REDIRECT_URIS,
      { minItems: 1 },
    ),
    client_name: text(CLIENT_METADATA_LIMITS.client_name),
    grant_types: arrayOf({ enum: ['authorization_code', 'refresh_token'] }, 2),
    response_types: arrayOf({ const: 'code' }, 1),
    token_endpoint_auth_method: { enum: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] },
    scope: text(CLIENT_METADATA_LIMITS.scope),
    software_id: text(CLIENT_METADATA_LIMITS.software),
    software_version: text(CLIENT_METADATA_LIMITS.software),
  },
}
