/**
 * Redirects from content/'s history: every address that was once public in
 * a locale (the change feed's log says which: build/emit/change-log.ts) and
 * is not now leads somewhere. Following the moves build/history/moves.ts
 * found, each to a later one, it reaches a published item (a 301, one hop
 * however long the chain) or ends (a 410 naming the tombstone the feed
 * logged). A published item is never redirected, so there are no loops.
 *
 * An item's `aliases:` (the working tree's files: build/compiler/alias-checks.ts
 * has made sure no alias is a live address or another item's) add to them:
 * an old slug answers like a rename, and ends a chain of moves that reaches
 * it; an old page path is listed in `/api/redirects` only (it is no API address).
 *
 * Files: the index the gateway answers from (a gone address's 410 names
 * its tombstone from it) and the Netlify rules are written from
 * (contract/redirects.ts), and `/api/redirects`.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import { instant } from '../../contract/changes.ts'
import {
  REDIRECT_INDEX_FILE,
  REDIRECT_INDEX_FORMAT,
  REDIRECTS_FILE,
  type Fate,
  type RedirectEntry,
  type RedirectIndex,
  type RedirectsEnvelope,
} from '../../contract/redirects.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { addressEvents, addressKey, type Address } from '../history/moves.ts'
import { localeOfFile } from '../history/replay-site.ts'
import type { ContentHistory } from '../history/types.ts'
import { changeLogsOf } from './change-log.ts'
import { pageUrl } from './page-url.ts'
import type { BuiltContent, Emitter } from './types.ts'

export const emitRedirects = {
  name: 'redirects',
  input: 'history',
  emit(content, history) {
    const { site } = content
    const { log, locales: localeLogs } = changeLogsOf(history, content)
    const replaySite = { language: site.language, locales: site.locales, fallback: site.fallback }
    const events = addressEvents(history, replaySite)
    const live = liveRecords(content)
    const { slugs: aliased, paths } = aliasesOf(history, replaySite, live)
    const index: RedirectIndex = { format: REDIRECT_INDEX_FORMAT, locales: {} }
    // By `from`: an alias replaces what the history said of its address.
    const entries = new Map<string, RedirectEntry>()
    const multilingual = site.locales.length > 1
    for (const locale of site.locales) {
      const changes = locale === site.language ? log.changes : (localeLogs[locale]?.changes ?? [])
      // Each own address's last change in the locale's log: a deletion, for one not published now.
      const last = new Map<string, { time: number; id: string; deleted: boolean }>()
      for (const [time, , change, collection, slug, id, recordLocale] of changes)
        if ((recordLocale ?? site.language) === locale)
          last.set(`${collection}/${slug}`, { time, id, deleted: change === 'deleted' })
      const byCollection: Partial<Record<CollectionName, Record<string, Fate>>> = {}
      for (const [key, { time, id, deleted }] of [...last].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const [collection, slug] = key.split('/') as [CollectionName, string]
        const from: Address = { collection, locale, slug }
        if (!deleted || live.has(addressKey(from))) continue
        const target = follow(from, time, events, live, aliased)
        const fate: Fate = target
          ? { to: target.slug, ...(target.collection !== collection && { collection: target.collection }) }
          : {
              gone: {
                id,
                collection,
                slug,
                ...(multilingual && { locale }),
                deleted_at: instant(time),
              },
            }
        ;(byCollection[collection] ??= {})[slug] = fate
        const url = pageUrl(site, collection, slug, locale)
        entries.set(url, {
          from: url,
          to: target ? String(live.get(addressKey(target))!.url) : null,
          status: target ? 301 : 410,
          ...(multilingual && { locale }),
        })
      }
      index.locales[locale] = byCollection
    }
    for (const [key, target] of aliased) {
      const [collection, locale, slug] = key.split('/') as [CollectionName, string, string]
      ;((index.locales[locale] ??= {})[collection] ??= {})[slug] = {
        to: target.slug,
        ...(target.collection !== collection && { collection: target.collection }),
      }
      const url = pageUrl(site, collection, slug, locale)
      entries.set(url, {
        from: url,
        to: String(live.get(addressKey(target))!.url),
        status: 301,
        ...(multilingual && { locale }),
      })
    }
    for (const { path, locale, target } of paths) {
      const url = `${site.url}${path}`
      entries.set(url, {
        from: url,
        to: String(live.get(addressKey(target))!.url),
        status: 301,
        ...(multilingual && { locale }),
      })
    }
    const data = [...entries.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
    const envelope: RedirectsEnvelope = { data, meta: { count: data.length } }
    return { [REDIRECT_INDEX_FILE]: JSON.stringify(index), [REDIRECTS_FILE]: JSON.stringify(envelope) }
  },
} satisfies Emitter

/** Every published record of its own locale, by addressKey. */
function liveRecords(content: BuiltContent): Map<string, ContentRecord> {
  const live = new Map<string, ContentRecord>()
  const { language } = content.site
  for (const collection of content.site.model.names) {
    for (const record of content.summaries[collection] ?? [])
      live.set(addressKey({ collection, locale: language, slug: record.slug }), record)
    for (const [locale, view] of Object.entries(content.locales ?? {}))
      for (const record of view.summaries[collection] ?? [])
        if (record.locale === locale) live.set(addressKey({ collection, locale, slug: record.slug }), record)
  }
  return live
}

/**
 * Where `from` (last deleted at `deletedAt`, by the feed's log) leads: each move to the next
 * address, none older than what came before it (an item published at an address after its old
 * one moved away, and deleted since, leaves a tombstone there), until a published address;
 * undefined when the moves end elsewhere.
 */
function follow(
  from: Address,
  deletedAt: number,
  events: ReadonlyMap<string, { time: number; to?: Address }>,
  live: ReadonlyMap<string, ContentRecord>,
  aliased: ReadonlyMap<string, Address>,
): Address | undefined {
  const seen = new Set<string>()
  let at = from
  let since = deletedAt
  for (;;) {
    const key = addressKey(at)
    if (at !== from && live.has(key)) return at
    // An old slug an item now claims as its alias: the moves end there.
    const claimed = aliased.get(key)
    if (claimed) return claimed
    const event = events.get(key)
    if (!event?.to || event.time < since || seen.has(key)) return undefined
    seen.add(key)
    since = event.time
    at = event.to
  }
}

/**
 * The aliases of the published items (the working tree's files): old slugs by the addressKey
 * they stand for, to the item's address; old page paths, each with its item's.
 */
function aliasesOf(
  history: ContentHistory,
  site: Parameters<typeof localeOfFile>[1],
  live: ReadonlyMap<string, ContentRecord>,
): { slugs: Map<string, Address>; paths: { path: string; locale: string; target: Address }[] } {
  const slugs = new Map<string, Address>()
  const paths: { path: string; locale: string; target: Address }[] = []
  for (const state of [...history.working.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1))) {
    if (!state.aliases || !state.published) continue
    const locale = localeOfFile(state, site)
    if (locale === undefined) continue
    const target: Address = { collection: state.collection, locale, slug: state.slug }
    // Scheduled or expired: its aliases answer once it is published.
    if (!live.has(addressKey(target))) continue
    for (const alias of state.aliases)
      if (alias.startsWith('/')) paths.push({ path: alias, locale, target })
      else slugs.set(addressKey({ collection: state.collection, locale, slug: alias }), target)
  }
  return { slugs, paths }
}
