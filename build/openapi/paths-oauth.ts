/**
 * The embedded authorization server's endpoints (an OpenID Provider, on
 * unless an external issuer is configured): authorization code with PKCE,
 * the token endpoint for every grant, Dynamic Client Registration,
 * revocation and userinfo. Its errors are OAuth JSON (RFC 6749 §5.2,
 * RFC 7591 §3.2.2), as those specifications require; limits and rate
 * limiting answer with problems, like every other route.
 */
import { headerRef, schemaRef } from './components.ts'
import { problems } from './paths-content.ts'
import { AUTHORIZE_PATH, INTERACTION_PREFIX, REGISTRATION_PATH, REVOCATION_PATH, TOKEN_PATH, USERINFO_PATH } from '../contract/public-paths.ts'

type Json = Record<string, unknown>

const OAUTH_ERROR = {
  type: 'object',
  required: ['error'],
  description: 'OAuth error response (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 6750 §3.1).',
  properties: {
    error: {
      enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'invalid_target',
        'invalid_client_metadata', 'invalid_redirect_uri', 'invalid_token', 'insufficient_scope', 'unsupported_token_type', 'server_error'],
    },
    error_description: { type: 'string' },
  },
}

const noStore = { 'Cache-Control': headerRef('CacheControl') }
const oauthError = (description: string): Json => ({ description, headers: noStore, content: { 'application/json': { schema: OAUTH_ERROR } } })
/** Answered either by a cap or limiter in front of the endpoint (a problem) or by the endpoint itself (an OAuth error). */
const oauthOrProblem = (description: string): Json => ({ description, content: { 'application/json': { schema: OAUTH_ERROR }, 'application/problem+json': { schema: schemaRef('Problem') } } })
const challenge = (description: string) => ({ 'WWW-Authenticate': { description, required: true, schema: { type: 'string' } } })
const form = (schema: Json): Json => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } })
const string = (description: string): Json => ({ type: 'string', description })

const TOKEN_RESPONSE = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: {
    access_token: string('An RFC 9068 JWT for a resource of this gateway (`aud` is the resource); for the userinfo endpoint, an opaque token.'),
    token_type: { enum: ['Bearer', 'bearer'] },
    expires_in: { type: 'integer', minimum: 1 },
    scope: { type: 'string' },
    refresh_token: string('Authorization code clients allowed the refresh_token grant; rotated on every use.'),
    id_token: string('With the `openid` scope: an OpenID Connect ID token (ES256).'),
  },
}

const CLIENT_METADATA = {
  type: 'object',
  description: 'RFC 7591 client metadata. Policy: grant types authorization_code and refresh_token only; redirect URIs https, or http on localhost, 127.0.0.1 or [::1]; at most 10.',
  required: ['redirect_uris'],
  properties: {
    redirect_uris: { type: 'array', items: { type: 'string', format: 'uri' }, minItems: 1, maxItems: 10 },
    client_name: { type: 'string' },
    grant_types: { type: 'array', items: { enum: ['authorization_code', 'refresh_token'] } },
    response_types: { type: 'array', items: { const: 'code' } },
    token_endpoint_auth_method: { enum: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] },
    scope: { type: 'string' },
    software_id: { type: 'string', maxLength: 200 },
    software_version: { type: 'string', maxLength: 200 },
  },
}

const query = (name: string, description: string, required = false, schema: Json = { type: 'string' }): Json => ({ name, in: 'query', required, description, schema })

export function oauthPaths(): Record<string, Json> {
  const userinfo = (method: string): Json => ({
    operationId: `userinfo${method}`,
    tags: ['Authorization'],
    summary: 'Claims about the signed-in person (OpenID Connect userinfo)',
    description: 'Send the access token of a flow with the `openid` scope (without a resource). `profile` adds `name`, `email` adds `email`.',
    security: [{ oauth2: ['openid'] }],
    responses: {
      '200': { description: 'The claims.', content: { 'application/json': { schema: { type: 'object', required: ['sub'], properties: { sub: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' } } } } } },
      '400': oauthError('A malformed request.'),
      '401': { ...oauthError('No token, or one that is not valid here.'), headers: { ...noStore, ...challenge('The Bearer challenge (RFC 6750).') } },
      ...problems(429, 500, 503),
    },
  })
  return {
    [AUTHORIZE_PATH]: {
      get: {
        operationId: 'authorize',
        tags: ['Authorization'],
        summary: 'Start an authorization code flow (browser)',
        description:
          'OAuth 2.1 authorization code with PKCE (`S256` only, required for every client). The browser signs in and consents on this server\'s own pages ' +
          `(\`${INTERACTION_PREFIX}/…\`), then returns to \`redirect_uri\` with \`code\`, \`state\` and \`iss\` (RFC 9207), or with \`error\`. ` +
          'A `client_id` may be an https URL serving a Client ID Metadata Document instead of a registered id.',
        security: [],
        parameters: [
          query('response_type', 'Always `code`.', true, { const: 'code' }),
          query('client_id', 'A registered client id, or the https URL of a Client ID Metadata Document.', true),
          query('redirect_uri', 'One of the client\'s redirect URIs.'),
          query('scope', 'Space-separated scopes.'),
          query('state', 'Returned unchanged.'),
          query('code_challenge', 'PKCE challenge (RFC 7636).', true),
          query('code_challenge_method', 'Always `S256`.', true, { const: 'S256' }),
          query('resource', 'RFC 8707 resource indicator, e.g. `<this origin>/mcp`; the access token\'s audience.'),
          query('nonce', 'OpenID Connect nonce, echoed in the ID token.'),
        ],
        responses: {
          '303': { description: 'To the sign-in or consent page, or back to the client with a code or an error.', headers: { Location: { required: true, schema: { type: 'string' } } } },
          '400': { description: 'The client or its redirect URI cannot be trusted, so the error is shown here instead.', content: { 'text/html': { schema: { type: 'string' } } } },
          ...problems(429, 500, 503),
        },
      },
    },
    [TOKEN_PATH]: {
      post: {
        operationId: 'createToken',
        tags: ['Authorization'],
        summary: 'Get tokens: client credentials, authorization code, refresh token',
        description:
          'Machine clients (from the operator\'s clients file) use `client_credentials` with HTTP Basic or `client_id`/`client_secret`; ' +
          'a missing `scope` means all the client may have. Authorization code clients redeem `code` with `code_verifier`. ' +
          '`resource` (RFC 8707) picks the audience; without it a machine client gets the API as its audience.',
        security: [],
        requestBody: form({
          type: 'object',
          required: ['grant_type'],
          properties: {
            grant_type: { enum: ['client_credentials', 'authorization_code', 'refresh_token'] },
            scope: string('Space-separated scopes.'),
            resource: { type: 'string', format: 'uri', description: 'RFC 8707 resource indicator (the audience).' },
            code: { type: 'string' },
            redirect_uri: { type: 'string' },
            code_verifier: string('PKCE verifier of the authorization request.'),
            refresh_token: { type: 'string' },
            client_id: { type: 'string' },
            client_secret: { type: 'string' },
          },
        }),
        responses: {
          '200': { description: 'The tokens.', headers: noStore, content: { 'application/json': { schema: TOKEN_RESPONSE } } },
          '400': oauthError('Bad grant, code, verifier, scope, resource or request.'),
          '401': { ...oauthError('Unknown client or wrong secret.'), headers: { ...noStore, ...challenge('The Basic challenge.') } },
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
        description: 'Open to anyone, under the policy in the body schema. A confidential client\'s `client_secret` is in the answer only; the server keeps its hash.',
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: CLIENT_METADATA } } },
        responses: {
          '201': { description: 'The registered client.', headers: noStore, content: { 'application/json': { schema: { ...CLIENT_METADATA, required: ['client_id', 'redirect_uris'], properties: { ...CLIENT_METADATA.properties, client_id: { type: 'string' }, client_secret: { type: 'string' }, client_id_issued_at: { type: 'integer' } } } } } },
          '400': oauthError('Metadata the policy refuses (`invalid_client_metadata`, `invalid_redirect_uri`) or a malformed body.'),
          '413': oauthOrProblem('The body is larger than the endpoint accepts.'),
          ...problems(429, 503),
          '500': oauthOrProblem('An error on our side.'),
        },
      },
    },
    [REVOCATION_PATH]: {
      post: {
        operationId: 'revokeToken',
        tags: ['Authorization'],
        summary: 'Revoke a refresh token (RFC 7009)',
        description: 'Revoking a refresh token ends its grant. Access tokens are JWTs: they stay valid until they expire.',
        security: [],
        requestBody: form({ type: 'object', required: ['token'], properties: { token: { type: 'string' }, token_type_hint: { enum: ['refresh_token', 'access_token'] }, client_id: { type: 'string' }, client_secret: { type: 'string' } } }),
        responses: {
          '200': { description: 'Revoked, or the token was not valid anyway.' },
          '400': oauthError('A malformed request.'),
          '401': { ...oauthError('Unknown client or wrong secret.'), headers: { ...noStore, ...challenge('The Basic challenge.') } },
          '413': oauthOrProblem('The body is larger than the endpoint accepts.'),
          ...problems(429, 503),
          '500': oauthOrProblem('An error on our side.'),
        },
      },
    },
    [USERINFO_PATH]: { get: userinfo('Get'), post: userinfo('Post') },
  }
}
