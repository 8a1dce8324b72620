/**
 * Share links: an unguessable token in a URL (`/review/<token>`) that opens
 * one item and its translations, read-only, for a reviewer without an
 * account. Like API keys, only the token's SHA-256 hash is kept, here as a
 * record of the state store (STATE_STORE: files, Redis or Netlify Blobs),
 * compared in constant time. Every opening reads the record: an expiry or a
 * revocation holds at once on every instance sharing the store. The record
 * outlives its expiry a while, so a stale link is told it expired (410)
 * rather than that it never was.
 *
 * A token is `<id>_<secret>`: the id (`pvl_` and 12 hex digits) names the
 * record and is what `list` shows and `revoke` takes; the 32 base62
 * characters after it are the secret.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { REVIEW_PREFIX } from '../../contract/public-paths.ts'
import type { StateStore } from '../auth/store/state-store.ts'

export interface ShareLink {
  id: string
  /** `sha256:<hex>` of the whole token. */
  hash: string
  collection: string
  /** The preview's `item` (contract/preview.ts): the item and its translations. */
  item: string
  /** The slug it was made for (the item's in the default locale, or a translation's). */
  slug: string
  created_at: string
  expires_at: string
  revoked_at: string | null
}

export type LinkLookup =
  | { ok: true; link: ShareLink }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'revoked' | 'expired'; link: ShareLink }

const PREFIX = 'preview-links/'
/** How long after its expiry a link's record is kept: its page says "expired", not "unknown". */
const KEPT_AFTER_EXPIRY_S = 30 * 24 * 60 * 60
const ID = /^pvl_[0-9a-f]{12}$/
const TOKEN = /^(pvl_[0-9a-f]{12})_([0-9A-Za-z]{32})$/
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

const hashOf = (token: string) => `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`

/** The URL of a token under `origin`. */
export const shareUrl = (origin: string, token: string) => `${origin.replace(/\/+$/, '')}${REVIEW_PREFIX}/${token}`

/** A link's id from its id, its token or its URL; undefined when it names none. */
export function linkIdOf(given: string): string | undefined {
  const last =
    given
      .trim()
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .at(-1) ?? ''
  if (ID.test(last)) return last
  return TOKEN.exec(last)?.[1]
}

export interface ShareLinks {
  create(input: { collection: string; item: string; slug: string; expiresAt: string }): Promise<{
    link: ShareLink
    token: string
  }>
  list(): Promise<ShareLink[]>
  /** Revoke by id, token or URL; the link as it is now (already revoked: unchanged), or undefined for none. */
  revoke(given: string): Promise<ShareLink | undefined>
  open(token: string): Promise<LinkLookup>
}

export function shareLinks(store: () => StateStore, now: () => Date = () => new Date()): ShareLinks {
  const ttl = (link: ShareLink) =>
    Math.max(1, Math.ceil((Date.parse(link.expires_at) - now().getTime()) / 1000) + KEPT_AFTER_EXPIRY_S)
  return {
    async create({ collection, item, slug, expiresAt }) {
      const id = `pvl_${randomBytes(6).toString('hex')}`
      let secret = ''
      for (let i = 0; i < 32; i++) secret += BASE62[randomInt(62)]
      const token = `${id}_${secret}`
      const link: ShareLink = {
        id,
        hash: hashOf(token),
        collection,
        item,
        slug,
        created_at: now().toISOString(),
        expires_at: expiresAt,
        revoked_at: null,
      }
      if (!(await store().create(`${PREFIX}${id}`, link, ttl(link))))
        throw new Error(`a share link ${id} exists already`)
      return { link, token }
    },
    async list() {
      const keys = await store().list(PREFIX)
      const links = await Promise.all(keys.map((key) => store().get<ShareLink>(key)))
      return links.filter((l): l is ShareLink => l !== undefined).sort((a, b) => (a.created_at < b.created_at ? -1 : 1))
    },
    async revoke(given) {
      const id = linkIdOf(given)
      if (!id) return undefined
      const key = `${PREFIX}${id}`
      const before = await store().get<ShareLink>(key)
      if (!before || before.revoked_at) return before
      // Kept as long as it would have been: its page says "revoked" until then.
      const after = await store().update<ShareLink>(
        key,
        (current) => (current && !current.revoked_at ? { ...current, revoked_at: now().toISOString() } : undefined),
        ttl(before),
      )
      return after ?? before
    },
    async open(token) {
      const match = TOKEN.exec(token)
      if (!match) return { ok: false, reason: 'unknown' }
      const link = await store().get<ShareLink>(`${PREFIX}${match[1]}`)
      const given = Buffer.from(hashOf(token))
      const stored = Buffer.from(link?.hash ?? '')
      if (!link || stored.length !== given.length || !timingSafeEqual(stored, given))
        return { ok: false, reason: 'unknown' }
      if (link.revoked_at) return { ok: false, reason: 'revoked', link }
      if (Date.parse(link.expires_at) <= now().getTime()) return { ok: false, reason: 'expired', link }
      return { ok: true, link }
    },
  }
}
