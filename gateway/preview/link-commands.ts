/**
 * `npm run keys -- preview-link …`: share links (share-links.ts). `create`
 * finds the item in the preview beside the project's build (`--root`, its
 * DIST_DIR), so a link names an item that exists, in any state; the link is
 * printed once, on stdout, and only its hash is stored, in the state store
 * (STATE_STORE) every gateway reads. Each change is recorded in the audit
 * trail like a key's.
 */
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { UsageError } from '../../contract/errors.ts'
import { PREVIEW_FILE, previewDirOf, type PreviewArtifact } from '../../contract/preview.ts'
import type { Settings } from '../../contract/settings.ts'
import type { AuditTrail } from '../auth/audit/audit-trail.ts'
import type { CliIo } from '../auth/cli-io.ts'
import { parseExpiry } from '../auth/keys-expiry.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import { shareLinks, shareUrl } from './share-links.ts'

export const PREVIEW_LINK_USAGE = `usage: npm run keys -- preview-link <collection>/<slug> --expires <72h|7d|2027-06-30> [--root <project>]
       npm run keys -- preview-link list
       npm run keys -- preview-link revoke <link id or link>
A share link opens one item and its translations, read-only, drafts and scheduled items included, without an
account, until it expires or is revoked; PUBLIC_URL is the origin it is printed with.`

export interface LinkCommandContext {
  io: CliIo
  now: Date
  settings: Settings
  store: () => StateStore
  audit: () => AuditTrail
}

export async function previewLinkCommand(
  rest: readonly string[],
  values: { expires?: string | undefined; root?: string | undefined },
  { io, now, settings, store, audit }: LinkCommandContext,
): Promise<number> {
  const links = shareLinks(store, () => now)
  const [first, second] = rest
  if (first === 'list') {
    for (const l of await links.list()) {
      const state = l.revoked_at
        ? `revoked ${l.revoked_at}`
        : Date.parse(l.expires_at) <= now.getTime()
          ? `expired ${l.expires_at}`
          : `expires ${l.expires_at}`
      io.out(`${l.id}\t${l.collection}/${l.slug}\t${state}\tcreated ${l.created_at}`)
    }
    return 0
  }
  if (first === 'revoke') {
    if (!second) throw new UsageError('revoke needs a link id (pvl_…) or the link itself', PREVIEW_LINK_USAGE)
    const link = await links.revoke(second)
    if (!link) throw new UsageError(`no share link ${second.slice(0, 120)} in ${store().location}`)
    const unrecorded = await audit().record('revoke', 'share-link', link.id)
    io.err(`revoked ${link.id} (${link.collection}/${link.slug}); it opens on no gateway from now on`)
    if (unrecorded) throw unrecorded
    return 0
  }
  const target = /^([a-z0-9]+(?:-[a-z0-9]+)*)\/([^/\s]+)$/.exec(first ?? '')
  if (!target)
    throw new UsageError('name the item as <collection>/<slug>, e.g. blog-posts/our-launch', PREVIEW_LINK_USAGE)
  if (values.expires === undefined)
    throw new UsageError('--expires is needed: a share link always ends (72h, 7d, 2027-06-30)', PREVIEW_LINK_USAGE)
  const expires = parseExpiry(values.expires, now)
  const [, collection, slug] = target as unknown as [string, string, string]
  const dir = previewDirOf(resolve(io.cwd, values.root ?? '.', settings.DIST_DIR))
  let artifact: PreviewArtifact
  try {
    artifact = JSON.parse(await readFile(join(dir, PREVIEW_FILE), 'utf8')) as PreviewArtifact
  } catch {
    throw new UsageError(`no preview at ${dir}: run \`npm run build\` in the project (or give --root <project>) first`)
  }
  const entries = artifact.items.filter((e) => e.collection === collection && e.slug === slug)
  const entry = entries.find((e) => e.locale === artifact.language) ?? entries[0]
  if (!entry)
    throw new UsageError(`no item ${collection}/${slug} in the build's preview (${dir}), in any state or locale`)
  const { link, token } = await links.create({ collection, item: entry.item, slug, expiresAt: expires.at })
  const unrecorded = await audit().record('create', 'share-link', link.id, {
    item: `${collection}/${slug}`,
    expires_at: expires.at,
  })
  const origin = settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`
  io.err(
    `created ${link.id} for ${collection}/${slug} (${entry.state}; expires ${expires.understood}) in ${store().location}; the link is shown only now:`,
  )
  io.out(shareUrl(origin, token))
  if (unrecorded) throw unrecorded
  return 0
}
