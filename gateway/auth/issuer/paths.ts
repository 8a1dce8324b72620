/**
 * Where oidc-provider answers (its `routes`) and where our sign-in pages
 * are. The routes themselves, with their methods and bodies, are the route
 * table's (contract/routes/oauth.ts); the paths are spelled once, in
 * contract/public-paths.ts.
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

/** Our page an interaction starts on (the route table's `signIn`). */
export const interactionPath = (uid: string) => `${INTERACTION_PREFIX}/${encodeURIComponent(uid)}`
