/**
 * The embedded authorization server's routes, in one table: the endpoints
 * oidc-provider answers (its `routes`), the methods each takes (anything
 * else is our 405 before the provider sees it), and our own sign-in and
 * consent pages. The paths themselves are spelled once, in the public-paths
 * table of contract/.
 */
import {
  AUTHORIZE_PATH,
  INTERACTION_PREFIX,
  JWKS_PATH,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from '../../../contract/public-paths.ts'

/** oidc-provider's `routes` configuration. */
export const PROVIDER_PATHS = {
  authorization: AUTHORIZE_PATH,
  token: TOKEN_PATH,
  jwks: JWKS_PATH,
  registration: REGISTRATION_PATH,
  revocation: REVOCATION_PATH,
  userinfo: USERINFO_PATH,
} as const

/** Routes the provider answers through the bridge, with their methods (OPTIONS is the app's preflight). */
export const PROVIDER_ROUTES: readonly { path: string; methods: readonly string[] }[] = [
  { path: AUTHORIZE_PATH, methods: ['GET'] },
  // Where the browser resumes the authorization request after our pages.
  { path: `${AUTHORIZE_PATH}/:uid`, methods: ['GET'] },
  { path: TOKEN_PATH, methods: ['POST'] },
  { path: REGISTRATION_PATH, methods: ['POST'] },
  { path: REVOCATION_PATH, methods: ['POST'] },
  { path: USERINFO_PATH, methods: ['GET', 'POST'] },
]

/** Our pages: the one the provider sends the browser to, and the forms it posts. */
export const interactionPath = (uid: string) => `${INTERACTION_PREFIX}/${encodeURIComponent(uid)}`
export const INTERACTION_ROUTES = {
  page: `${INTERACTION_PREFIX}/:uid`,
  login: `${INTERACTION_PREFIX}/:uid/login`,
  confirm: `${INTERACTION_PREFIX}/:uid/confirm`,
  abort: `${INTERACTION_PREFIX}/:uid/abort`,
} as const
