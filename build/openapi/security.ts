/**
 * Security schemes: OAuth 2.0 (authorization code with PKCE for people and
 * agent hosts, client credentials for machines) with the scopes (the fixed
 * ones and each collection's of the content model), and bearer API keys
 * with their roles. Scopes and roles come from the gateway's own list
 * (contract/scopes.ts), so the document describes exactly what it grants.
 */
import {
  AUTHORIZATION_SERVER_PATH,
  AUTHORIZE_PATH,
  OPENID_CONFIGURATION_PATH,
  REGISTRATION_PATH,
  TOKEN_PATH,
} from '../../contract/public-paths.ts'
import { SANDBOX_KEY } from '../../contract/sandbox.ts'
import type { ContentModel } from '../../contract/model/model.ts'
import { ROLES, scopesOf } from '../../contract/scopes.ts'

export function securitySchemes(model: ContentModel): Record<string, unknown> {
  const scopes = scopesOf(model)
  const roles = Object.entries(ROLES)
    .map(
      ([role, { description, scopes }]) =>
        `- \`${role}\` → ${scopes.map((s) => `\`${s}\``).join(', ')}: ${description}`,
    )
    .join('\n')
  return {
    oauth2: {
      type: 'oauth2',
      description:
        'OAuth 2.0 access tokens (RFC 9068 JWTs) sent as `Authorization: Bearer <token>`, their audience the resource asked for (RFC 8707). ' +
        'The gateway ships an OpenID Provider: the authorization code flow with PKCE (S256) for people and agent hosts, which register ' +
        `themselves (\`${REGISTRATION_PATH}\`, RFC 7591) or use a Client ID Metadata Document, and client credentials for machine clients. ` +
        `Its metadata is at \`${AUTHORIZATION_SERVER_PATH}\` and \`${OPENID_CONFIGURATION_PATH}\`. ` +
        'In production the gateway may instead verify tokens of an external issuer, named in the same metadata document. ' +
        'Tokens are handled as RFC8725 (JSON Web Token Best Current Practices) asks: an allow-list of asymmetric algorithms (never `none` or HS*), ' +
        'explicit typing (`typ` at+jwt, RFC 9068), issuer and audience checked on every token, and short lives (an hour by default, `OAUTH_TOKEN_TTL`); ' +
        'people and agent hosts renew with rotated refresh tokens, machine clients ask again (the client credentials grant has no refresh token).',
      flows: {
        authorizationCode: {
          authorizationUrl: AUTHORIZE_PATH,
          tokenUrl: TOKEN_PATH,
          refreshUrl: TOKEN_PATH,
          scopes: { ...scopes },
        },
        clientCredentials: { tokenUrl: TOKEN_PATH, scopes: { ...scopes } },
      },
    },
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API key (tw_live_… or tw_sandbox_…)',
      description:
        'API keys are sent as `Authorization: Bearer <key>` and told apart from JWTs by their prefix. ' +
        `Each key has one role, which grants scopes:\n\n${roles}\n\n` +
        `The public sandbox key is \`${SANDBOX_KEY}\`.`,
    },
  }
}
