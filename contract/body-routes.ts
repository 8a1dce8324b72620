/**
 * Every route that reads a request body, in one table: the media types it
 * accepts and the setting that bounds its size. The gateway's one body limit
 * (gateway/http/body-limit.ts) enforces it — 413 and 415 as problems, before
 * any handler or library sees the body — and the OpenAPI document documents
 * those answers from it.
 */
import {
  INTERACTION_PREFIX,
  MCP_PATH,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from './public-paths.ts'
import type { SettingName } from './settings.ts'

export const JSON_MEDIA_TYPE = 'application/json'
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded'

export interface BodyRoute {
  /** The path, or the prefix of the paths (`prefix: true`), that read a body. */
  path: string
  prefix?: true
  /** Media types the body may have (parameters such as charset aside). */
  types: readonly string[]
  /** The setting with the most bytes the body may have. */
  limit: Extract<SettingName, 'MCP_MAX_BODY_BYTES' | 'TOKEN_MAX_BODY_BYTES'>
}

export const BODY_ROUTES: readonly BodyRoute[] = [
  { path: MCP_PATH, types: [JSON_MEDIA_TYPE], limit: 'MCP_MAX_BODY_BYTES' },
  { path: TOKEN_PATH, types: [FORM_MEDIA_TYPE], limit: 'TOKEN_MAX_BODY_BYTES' },
  { path: REVOCATION_PATH, types: [FORM_MEDIA_TYPE], limit: 'TOKEN_MAX_BODY_BYTES' },
  { path: USERINFO_PATH, types: [FORM_MEDIA_TYPE], limit: 'TOKEN_MAX_BODY_BYTES' },
  { path: REGISTRATION_PATH, types: [JSON_MEDIA_TYPE], limit: 'TOKEN_MAX_BODY_BYTES' },
  // The sign-in and consent forms.
  { path: `${INTERACTION_PREFIX}/`, prefix: true, types: [FORM_MEDIA_TYPE], limit: 'TOKEN_MAX_BODY_BYTES' },
]

/** The body route of a request path, if it reads a body. */
export function bodyRouteOf(pathname: string): BodyRoute | undefined {
  return BODY_ROUTES.find((r) => (r.prefix ? pathname.startsWith(r.path) : pathname === r.path))
}
