/**
 * The embedded authorization server's endpoints (an OpenID Provider, on
 * unless an external issuer is configured): authorization code with PKCE,
 * the token endpoint for every grant, Dynamic Client Registration,
 * revocation and userinfo. Its errors are OAuth JSON (RFC 6749 §5.2,
 * RFC 7591 §3.2.2), as those specifications require; limits and rate
 * limiting answer with problems, like every other route.
 */
import {
  CLIENT_METADATA_LIMITS,
  MAX_ERROR_DESCRIPTION_LENGTH,
  MAX_REDIRECT_URIS,
  MAX_SCOPE_LENGTH,
  MAX_TOKEN_LENGTH,
  OAUTH_PARAMETER_LIMITS as LIMITS,
} from '../../contract/oauth-params.ts'
import { MAX_URL_LENGTH } from '../../contract/patterns.ts'
import { arrayOf, count, int32, text, uri } from './bounded.ts'
import { CORS_HEADERS, headerRef, RATE_LIMIT_HEADERS, schemaRef } from './components.ts'
import { problems } from './paths-content.ts'
import { ANONYMOUS } from './security.ts'
import {
  AUTHORIZE_PATH,
  INTERACTION_PREFIX,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from '../../contract/public-paths.ts'

type Json = Record<string, unknown>

const OAUTH_ERROR = {
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
/** Every answer of the provider's endpoints carries the rate limiter's fields (gateway/http/limits.ts limits /oauth/*). */
const providerHeaders = (cors: Json = PROVIDER_CORS): Json => ({
  'Cache-Control': headerRef('Cache-Control'),
  'X-Request-Id': headerRef('X-Request-Id'),
  ...cors,
  ...RATE_LIMIT_HEADERS,
})
const oauthError = (description: string, cors?: Json): Json => ({
  description,
  headers: providerHeaders(cors),
  content: { 'application/json': { schema: OAUTH_ERROR } },
})
/** Answered either by a cap or limiter in front of the endpoint (a problem) or by the endpoint itself (an OAuth error). */
const oauthOrProblem = (description: string, cors?: Json): Json => ({
  description,
  headers: providerHeaders(cors),
  content: {
    'application/json': { schema: OAUTH_ERROR },
    'application/problem+json': { schema: schemaRef('Problem') },
  },
})
const challenge = (description: string) => ({ 'WWW-Authenticate': { description, required: true, schema: text(2000) } })
const form = (schema: Json): Json => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } })
/** A parameter of the table in contract/oauth-params.ts, bounded by it. */
const param = (name: keyof typeof LIMITS, description?: string, extra: Json = {}): Json =>
  text(LIMITS[name], { ...(description && { description }), ...extra })
const SCOPE = text(MAX_SCOPE_LENGTH, { pattern: '^[a-z.-]+( [a-z.-]+)*$', description: 'Space-separated scopes.' })
const TOKEN = (description: string) => text(MAX_TOKEN_LENGTH, { pattern: '^[A-Za-z0-9._~+/-]+=*$', description })

const TOKEN_RESPONSE = {
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

const CLIENT_METADATA = {
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

const query = (name: keyof typeof LIMITS, description: string, required = false, schema: Json = param(name)): Json => ({
  name,
  in: 'query',
  required,
  description,
  schema,
})

export function oauthPaths(): Record<string, Json> {
  const userinfo = (method: string): Json => ({
    operationId: `userinfo${method}`,
    tags: ['Authorization'],
    summary: 'Claims about the signed-in person (OpenID Connect userinfo)',
    description:
      'Send the access token of a flow with the `openid` scope (without a resource). `profile` adds `name`, `email` adds `email`.',
    security: [{ oauth2: ['openid'] }],
    responses: {
      '200': {
        description: 'The claims.',
        headers: providerHeaders(),
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['sub'],
              properties: { sub: text(100), name: text(200), email: text(254, { format: 'email' }) },
            },
          },
        },
      },
      '400': oauthError('A malformed request.'),
      '401': {
        ...oauthError('No token, or one that is not valid here.'),
        headers: { ...providerHeaders(), ...challenge('The Bearer challenge (RFC 6750).') },
      },
      ...problems(413, 429, 503),
      '500': oauthOrProblem('An error on our side.'),
    },
  })
  return {
    [AUTHORIZE_PATH]: {
      get: {
        operationId: 'authorize',
        tags: ['Authorization'],
        summary: 'Start an authorization code flow (browser)',
        description:
          "OAuth 2.1 authorization code with PKCE (`S256` only, required for every client). The browser signs in and consents on this server's own pages " +
          `(\`${INTERACTION_PREFIX}/…\`), then returns to \`redirect_uri\` with \`code\`, \`state\` and \`iss\` (RFC 9207), or with \`error\`. ` +
          'A `client_id` may be an https URL serving a Client ID Metadata Document instead of a registered id.',
        security: ANONYMOUS,
        parameters: [
          query('response_type', 'Always `code`.', true, { const: 'code' }),
          query('client_id', 'A registered client id, or the https URL of a Client ID Metadata Document.', true),
          query('redirect_uri', "One of the client's redirect URIs."),
          query('scope', 'Space-separated scopes.'),
          query('state', 'Returned unchanged.'),
          query(
            'code_challenge',
            'PKCE challenge (RFC 7636): base64url of the SHA-256 of the verifier.',
            true,
            param('code_challenge', undefined, { pattern: '^[A-Za-z0-9_-]+$' }),
          ),
          query('code_challenge_method', 'Always `S256`.', true, { const: 'S256' }),
          query(
            'resource',
            "RFC 8707 resource indicator, e.g. `<this origin>/mcp`; the access token's audience.",
            false,
            uri(),
          ),
          query('nonce', 'OpenID Connect nonce, echoed in the ID token.'),
        ],
        responses: {
          '303': {
            description:
              'To the sign-in or consent page, or back to the client with a code or an error (with a short "Redirecting to …" body).',
            headers: {
              Location: { required: true, schema: text(MAX_URL_LENGTH + LIMITS.state + 500) },
              ...RATE_LIMIT_HEADERS,
            },
            content: { 'text/html': {}, 'text/plain': {} },
          },
          '400': {
            description: `The client or its redirect URI cannot be trusted (or a parameter is longer than contract/oauth-params.ts allows), so the error is shown here instead.`,
            headers: RATE_LIMIT_HEADERS,
            content: { 'text/html': {} },
          },
          ...problems(413, 429, 500, 503),
        },
      },
    },
    [TOKEN_PATH]: {
      post: {
        operationId: 'createToken',
        tags: ['Authorization'],
        summary: 'Get tokens: client credentials, authorization code, refresh token',
        description:
          "Machine clients (from the operator's clients file) use `client_credentials` with HTTP Basic or `client_id`/`client_secret`; " +
          'a missing `scope` means all the client may have. Authorization code clients redeem `code` with `code_verifier`. ' +
          '`resource` (RFC 8707) picks the audience; without it a machine client gets the API as its audience.',
        security: ANONYMOUS,
        requestBody: form({
          type: 'object',
          required: ['grant_type'],
          properties: {
            grant_type: { enum: ['client_credentials', 'authorization_code', 'refresh_token'] },
            scope: param('scope', 'Space-separated scopes.'),
            resource: uri({ description: 'RFC 8707 resource indicator (the audience).' }),
            code: param('code'),
            redirect_uri: param('redirect_uri'),
            code_verifier: param(
              'code_verifier',
              'PKCE verifier of the authorization request (43 to 128 characters).',
              { pattern: '^[A-Za-z0-9._~-]+$' },
            ),
            refresh_token: param('refresh_token'),
            client_id: param('client_id'),
            client_secret: param('client_secret'),
          },
        }),
        responses: {
          '200': {
            description: 'The tokens.',
            headers: providerHeaders(),
            content: { 'application/json': { schema: TOKEN_RESPONSE } },
          },
          '400': oauthError(
            'Bad grant, code, verifier, scope, resource or request, or a parameter longer than the schema allows.',
          ),
          '401': {
            ...oauthError('Unknown client or wrong secret.'),
            headers: { ...providerHeaders(), ...challenge('The Basic challenge.') },
          },
          '413': oauthOrProblem('The body is larger than the endpoint accepts.'),
          '415': oauthOrProblem('The body is not application/x-www-form-urlencoded.'),
          ...problems(429, 503),
          '500': oauthOrProblem('An error on our side.'),
        },
      },
    },
    [REGISTRATION_PATH]: {
      post: {
        operationId: 'registerClient',
        tags: ['Authorization'],
        summary: 'Register a client (RFC 7591 Dynamic Client Registration)',
        description:
          "Open to anyone, under the policy in the body schema. A confidential client's `client_secret` is in the answer only; the server keeps its hash.",
        security: ANONYMOUS,
        requestBody: { required: true, content: { 'application/json': { schema: CLIENT_METADATA } } },
        responses: {
          '201': {
            description: 'The registered client.',
            headers: providerHeaders(CORS_HEADERS),
            content: {
              'application/json': {
                schema: {
                  ...CLIENT_METADATA,
                  required: ['client_id', 'redirect_uris'],
                  properties: {
                    ...CLIENT_METADATA.properties,
                    client_id: text(100),
                    client_secret: param('client_secret'),
                    client_id_issued_at: count({ description: 'Epoch seconds.' }),
                  },
                },
              },
            },
          },
          '400': oauthError(
            'Metadata the policy refuses (`invalid_client_metadata`, `invalid_redirect_uri`) or a malformed body.',
            CORS_HEADERS,
          ),
          '413': oauthOrProblem('The body is larger than the endpoint accepts.', CORS_HEADERS),
          ...problems(429, 503),
          '500': oauthOrProblem('An error on our side.', CORS_HEADERS),
        },
      },
    },
    [REVOCATION_PATH]: {
      post: {
        operationId: 'revokeToken',
        tags: ['Authorization'],
        summary: 'Revoke a refresh token (RFC 7009)',
        description:
          'Revoking a refresh token ends its grant. Access tokens are JWTs: they stay valid until they expire.',
        security: ANONYMOUS,
        requestBody: form({
          type: 'object',
          required: ['token'],
          properties: {
            token: param('token'),
            token_type_hint: { enum: ['refresh_token', 'access_token'] },
            client_id: param('client_id'),
            client_secret: param('client_secret'),
          },
        }),
        responses: {
          '200': { description: 'Revoked, or the token was not valid anyway.', headers: providerHeaders() },
          '400': oauthError('A malformed request, or a parameter longer than the schema allows.'),
          '401': {
            ...oauthError('Unknown client or wrong secret.'),
            headers: { ...providerHeaders(), ...challenge('The Basic challenge.') },
          },
          '413': oauthOrProblem('The body is larger than the endpoint accepts.'),
          ...problems(429, 503),
          '500': oauthOrProblem('An error on our side.'),
        },
      },
    },
    [USERINFO_PATH]: { get: userinfo('Get'), post: userinfo('Post') },
  }
}
