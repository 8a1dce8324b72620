/**
 * The embedded authorization server's endpoints (an OpenID Provider, on
 * unless an external issuer is configured): authorization code with PKCE,
 * the token endpoint for every grant, Dynamic Client Registration,
 * revocation and userinfo, and our sign-in and consent pages. Its errors are
 * OAuth JSON, as those specifications require; limits and budgets answer
 * with problems, like every other route.
 */
import { OAUTH_PARAMETER_LIMITS as LIMITS } from '../oauth-params.ts'
import { FORM_MEDIA_TYPE, JSON_MEDIA_TYPE } from '../headers.ts'
import { MAX_URL_LENGTH } from '../patterns.ts'
import {
  AUTHORIZE_PATH,
  INTERACTION_PREFIX,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from '../public-paths.ts'
import {
  challenge,
  CLIENT_METADATA,
  oauthError,
  oauthOrProblem,
  param,
  providerHeaders,
  query,
  TOKEN_RESPONSE,
} from './oauth-schemas.ts'
import { ANONYMOUS, CORS_HEADERS, problems } from './responses.ts'
import { route, type Operation, type RequestBody } from './route.ts'
import { count, text, uri } from './schema.ts'

const TAG = 'Authorization'
const budgets = ['dynamic'] as const
const FORM = { types: [FORM_MEDIA_TYPE], limit: 'TOKEN_MAX_BODY_BYTES' } as const satisfies RequestBody
const form = (schema: Record<string, unknown>): RequestBody => ({ ...FORM, content: { [FORM_MEDIA_TYPE]: schema } })

export const authorize = route({
  path: AUTHORIZE_PATH,
  methods: ['GET'],
  served: 'gateway',
  budgets: [...budgets, 'authorization'],
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
  operations: {
    get: {
      operationId: 'authorize',
      tags: [TAG],
      summary: 'Start an authorization code flow (browser)',
      description:
        "OAuth 2.1 authorization code with PKCE (`S256` only, required for every client). The browser signs in and consents on this server's own pages " +
        `(\`${INTERACTION_PREFIX}/…\`), then returns to \`redirect_uri\` with \`code\`, \`state\` and \`iss\` (RFC 9207), or with \`error\`. ` +
        'A `client_id` may be an https URL serving a Client ID Metadata Document instead of a registered id. ' +
        'Each request started is kept (for an hour at most) until it finishes; when the server holds as many as its operator allows (OAUTH_MAX_PENDING_AUTHORIZATIONS), a new one gets a 503 while those in progress finish.',
      security: ANONYMOUS,
      responses: {
        '303': {
          description:
            'To the sign-in or consent page, or back to the client with a code or an error (with a short "Redirecting to …" body).',
          headers: { Location: { required: true, schema: text(MAX_URL_LENGTH + LIMITS.state + 500) } },
          content: { 'text/html': {}, 'text/plain': {} },
        },
        '400': {
          description:
            'The client or its redirect URI cannot be trusted (or a parameter is longer than contract/oauth-params.ts allows), so the error is shown here instead.',
          content: { 'text/html': {} },
        },
        ...problems(413, 500, 503),
      },
    },
  },
})

/** Where the browser resumes the authorization request after our pages. */
export const authorizeResume = route({
  path: `${AUTHORIZE_PATH}/{uid}`,
  methods: ['GET'],
  served: 'gateway',
  budgets,
  undocumented:
    'the authorization request resumed by the browser after our pages: part of the flow /oauth/authorize starts',
})

export const token = route({
  path: TOKEN_PATH,
  methods: ['POST'],
  served: 'gateway',
  budgets,
  body: form({
    type: 'object',
    required: ['grant_type'],
    properties: {
      grant_type: { enum: ['client_credentials', 'authorization_code', 'refresh_token'] },
      scope: param('scope', 'Space-separated scopes.'),
      resource: uri({ description: 'RFC 8707 resource indicator (the audience).' }),
      code: param('code'),
      redirect_uri: param('redirect_uri'),
      code_verifier: param('code_verifier', 'PKCE verifier of the authorization request (43 to 128 characters).', {
        pattern: '^[A-Za-z0-9._~-]+$',
      }),
      refresh_token: param('refresh_token'),
      client_id: param('client_id'),
      client_secret: param('client_secret'),
    },
  }),
  operations: {
    post: {
      operationId: 'createToken',
      tags: [TAG],
      summary: 'Get tokens: client credentials, authorization code, refresh token',
      description:
        "Machine clients (from the operator's clients file) use `client_credentials` with HTTP Basic or `client_id`/`client_secret`; " +
        'a missing `scope` means all the client may have. Authorization code clients redeem `code` with `code_verifier`. ' +
        '`resource` (RFC 8707) picks the audience; without it a machine client gets the API as its audience.',
      security: ANONYMOUS,
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
        ...problems(503),
        '500': oauthOrProblem('An error on our side.'),
      },
    },
  },
})

export const register = route({
  path: REGISTRATION_PATH,
  methods: ['POST'],
  served: 'gateway',
  budgets: [...budgets, 'registration'],
  body: { types: [JSON_MEDIA_TYPE], limit: 'TOKEN_MAX_BODY_BYTES', content: { [JSON_MEDIA_TYPE]: CLIENT_METADATA } },
  operations: {
    post: {
      operationId: 'registerClient',
      tags: [TAG],
      summary: 'Register a client (RFC 7591 Dynamic Client Registration)',
      description:
        "Open to anyone, under the policy in the body schema. A confidential client's `client_secret` is in the answer only; the server keeps its hash. " +
        'A registration is kept while it is used: one that has obtained no token within a day of registering (OAUTH_CLIENT_GRACE_HOURS) is removed, and so is one that has obtained none for 90 days (OAUTH_CLIENT_IDLE_DAYS). ' +
        '`client_secret_expires_at` says when, for a client with a secret; each token it obtains moves that on. A public client (`token_endpoint_auth_method: none`) expires the same way, though nothing in the answer says so (RFC 7591 has no field for it). ' +
        'Register once and keep the `client_id`; a host that can should use a Client ID Metadata Document as its `client_id` instead, which the server does not store. ' +
        'When the server holds as many registered clients as its operator allows (OAUTH_MAX_REGISTERED_CLIENTS), a registration gets a 503 until unused ones expire; registered clients keep working.',
      security: ANONYMOUS,
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
                  client_secret_expires_at: count({
                    description:
                      'With a `client_secret` only: epoch seconds when the registration ends unless the client obtains a token before; each token moves it to 90 days after (OAUTH_CLIENT_IDLE_DAYS).',
                  }),
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
        ...problems(503),
        '500': oauthOrProblem('An error on our side.', CORS_HEADERS),
      },
    },
  },
})

export const revoke = route({
  path: REVOCATION_PATH,
  methods: ['POST'],
  served: 'gateway',
  budgets,
  body: form({
    type: 'object',
    required: ['token'],
    properties: {
      token: param('token'),
      token_type_hint: { enum: ['refresh_token', 'access_token'] },
      client_id: param('client_id'),
      client_secret: param('client_secret'),
    },
  }),
  operations: {
    post: {
      operationId: 'revokeToken',
      tags: [TAG],
      summary: 'Revoke a refresh token (RFC 7009)',
      description:
        'Revoking a refresh token ends its grant. Access tokens are JWTs: they stay valid until they expire.',
      security: ANONYMOUS,
      responses: {
        '200': { description: 'Revoked, or the token was not valid anyway.', headers: providerHeaders() },
        '400': oauthError('A malformed request, or a parameter longer than the schema allows.'),
        '401': {
          ...oauthError('Unknown client or wrong secret.'),
          headers: { ...providerHeaders(), ...challenge('The Basic challenge.') },
        },
        '413': oauthOrProblem('The body is larger than the endpoint accepts.'),
        ...problems(503),
        '500': oauthOrProblem('An error on our side.'),
      },
    },
  },
})

const userinfoOperation = (method: string): Operation => ({
  operationId: `userinfo${method}`,
  tags: [TAG],
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
    ...problems(413, 503),
    '500': oauthOrProblem('An error on our side.'),
  },
})

export const userinfo = route({
  path: USERINFO_PATH,
  methods: ['GET', 'POST'],
  served: 'gateway',
  budgets,
  // The token may come as a form field instead of the header (RFC 6750 §2.2); the document describes the header.
  body: FORM,
  operations: { get: userinfoOperation('Get'), post: userinfoOperation('Post') },
})

const PAGES = 'our sign-in and consent pages: HTML forms of the browser flow /oauth/authorize starts, not an API'

/** The page an interaction needs: sign-in or consent. */
export const signIn = route({
  path: `${INTERACTION_PREFIX}/{uid}`,
  methods: ['GET', 'HEAD'],
  served: 'gateway',
  budgets,
  undocumented: PAGES,
})

/** Email and password; throttled per address and per account. */
export const signInLogin = route({
  path: `${INTERACTION_PREFIX}/{uid}/login`,
  methods: ['POST'],
  served: 'gateway',
  budgets,
  body: FORM,
  undocumented: PAGES,
})

/** Allow: grant the requested scopes the person may grant. */
export const signInConfirm = route({
  path: `${INTERACTION_PREFIX}/{uid}/confirm`,
  methods: ['POST'],
  served: 'gateway',
  budgets,
  body: FORM,
  undocumented: PAGES,
})

/** Deny: the client gets access_denied. */
export const signInAbort = route({
  path: `${INTERACTION_PREFIX}/{uid}/abort`,
  methods: ['POST'],
  served: 'gateway',
  budgets,
  body: FORM,
  undocumented: PAGES,
})
