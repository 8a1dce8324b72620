/**
 * POST /api/preview/{collection}/{slug}/share-links: the editor's "Share
 * preview link" button (build/emit/admin/share-link.js) makes a share link
 * (share-links.ts, the same store and records as `npm run keys -- preview-link`)
 * for one item, with `{"expires": "72h"}`.
 *
 * It needs the preview scope: a share link shows one item of what its holder
 * may read already, so whoever may review every draft may pass one on, and
 * no one else. The credential is checked before anything else (RFC 6750: 401
 * without one, 403 `insufficient_scope` without the scope); an item no build
 * has is a 404; a body that is not a JSON object a 400; an `expires` missing,
 * unknown members or an expiry past the API key's own a 422. The answer holds
 * the link once, like the CLI's output, and no cache keeps it.
 */
import { defineHandler, type EventHandler, type H3Event } from 'h3'
import { FastResponse } from 'srvx'
import { UsageError } from '../../contract/errors.ts'
import { baseHeaderRecord, JSON_TYPE } from '../../contract/headers.ts'
import { collectionOf, listed } from '../../contract/model/model.ts'
import { PREVIEW_CACHE, PREVIEW_HEADERS, PREVIEW_SCOPE } from '../../contract/preview.ts'
import type { ArtifactStore } from '../artifacts.ts'
import type { AuditTrail } from '../auth/audit/audit-trail.ts'
import type { Guard, Principal } from '../auth/guard.ts'
import { parseExpiry } from '../auth/keys-expiry.ts'
import { problem } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'
import type { Logger } from '../log.ts'
import { readSnapshot } from '../routes/read.ts'
import type { PreviewSource } from './artifact.ts'
import { shareUrl, type ShareLinks } from './share-links.ts'

export interface ShareLinkDeps {
  store: ArtifactStore
  source: PreviewSource
  guard: Guard
  links: ShareLinks
  publicUrl: () => string
  now: () => Date
  /** The audit trail, its entries saying which credential made the link. */
  audit: (by: string) => AuditTrail
  log: Logger
}

const MEMBERS = new Set(['expires'])

/** A 422 naming the member at fault. */
const invalid = (parameter: string, message: string) =>
  problem('invalid-body', { detail: `${parameter} ${message}`, errors: [{ parameter, message }] })

/** The body's `expires`, once the body is known to be a JSON object with nothing else in it. */
async function expiresOf(event: H3Event): Promise<string> {
  let body: unknown
  try {
    body = JSON.parse(await event.req.text())
  } catch {
    body = undefined
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw problem('bad-request', { detail: 'The request body must be a JSON object, like {"expires": "72h"}.' })
  const unknown = Object.keys(body).filter((k) => !MEMBERS.has(k))
  if (unknown.length)
    throw invalid(unknown[0]!.slice(0, 100), 'is not a member this endpoint takes: it takes `expires` only')
  const { expires } = body as { expires?: unknown }
  if (typeof expires !== 'string' || expires === '')
    throw invalid('expires', 'is needed: a share link always ends (72h, 7d, 2027-06-30)')
  return expires
}

/** Who made the link, for the audit trail: the key's id, or the token's client and subject. */
const byOf = (p: Principal) =>
  p.kind === 'api-key' ? `api key ${p.subject}` : `oauth ${p.clientId ?? '-'} for ${p.subject}`

export function shareLinkRoute(deps: ShareLinkDeps): EventHandler {
  return defineHandler(async (event) => {
    const principal = await deps.guard.requireScope(event, PREVIEW_SCOPE)
    const snapshot = readSnapshot(event, deps.store)
    const name = event.context.params?.collection ?? ''
    const slug = decodeURIComponent(event.context.params?.slug ?? '')
    const def = collectionOf(snapshot.model, name)
    if (!def)
      throw problem('not-found', {
        detail: `There is no collection "${name.slice(0, 120)}"; collections are ${listed(snapshot.model.names)}.`,
      })
    const given = await expiresOf(event)
    const now = deps.now()
    let expiresAt: string
    try {
      expiresAt = parseExpiry(given.slice(0, 100), now).at
    } catch (error) {
      if (!(error instanceof UsageError)) throw error
      throw invalid('expires', error.message.replace(/^--expires\s*/, '').replaceAll('--expires', '`expires`'))
    }
    // A key that ends does not leave links behind it that outlive it (a token's lifetime is its grant's, not its own).
    if (principal.kind === 'api-key' && principal.expiresAt && Date.parse(expiresAt) > principal.expiresAt.getTime())
      throw invalid(
        'expires',
        `is after the API key's own expiry (${principal.expiresAt.toISOString()}): a link may not outlive the key that makes it`,
      )
    const entry = (await deps.source.of(snapshot)).find(def.name, slug, undefined)
    if (!entry)
      throw problem('not-found', {
        detail: `No ${def.name} item has the slug "${slug.slice(0, 120)}", in any state, in the build served: save it and build again.`,
      })
    const { link, token } = await deps.links.create({
      collection: def.name,
      item: entry.item,
      slug,
      expiresAt,
    })
    const unrecorded = await deps
      .audit(byOf(principal))
      .record('create', 'share-link', link.id, { item: `${def.name}/${slug}`, expires_at: expiresAt })
    if (unrecorded)
      deps.log('warn', 'share link made but not in the audit trail', { id: link.id, error: unrecorded.message })
    const body = {
      id: link.id,
      url: shareUrl(deps.publicUrl(), token),
      collection: def.name,
      slug,
      state: entry.state,
      release_at: entry.release_at,
      created_at: link.created_at,
      expires_at: link.expires_at,
    }
    const headers = baseHeaderRecord(requestIdOf(event), JSON_TYPE, PREVIEW_CACHE)
    Object.assign(headers, PREVIEW_HEADERS, { 'x-robots-tag': 'noindex' })
    return new FastResponse(JSON.stringify(body), { status: 201, headers })
  })
}
