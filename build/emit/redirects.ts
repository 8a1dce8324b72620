/**
 * Redirects from content/'s history: every address that was once public in
 * a locale (the change feed's log says which: build/emit/change-log.ts) and
 * is not now leads somewhere. Following the moves build/history/moves.ts
 * found, each to a later one, it reaches a published item (a 301, one hop
 * however long the chain) or ends (a 410 naming the tombstone the feed
 * logged). A published item is never redirected, so there are no loops.
 *
 * Files: the index the gateway answers from (a gone address's 410 names
 * its tombstone from it) and the Netlify rules are written from
 * (contract/redirects.ts), and `/api/redirects`.
 */
import { COLLECTION_NAMES, type CollectionName } from '../../contract/collections.ts'
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
import { changeLogsOf } from './change-log.ts'
import { pageUrl } from './page-url.ts'
import type { BuiltContent, Emitter } from './types.ts'

export const emitRedirects = {
  name: 'redirects',
  input: 'history',
  emit(content, history) {
    const { site } = content
    const { log, locales: localeLogs } = changeLogsOf(history, content)
    const events = addressEvents(history, { language: site.language, locales: site.locales, fallback: site.fallback })
    const live = liveRecords(content)
    const index: RedirectIndex = { format: REDIRECT_INDEX_FORMAT, locales: {} }
    const entries: RedirectEntry[] = []
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
        const target = follow(from, time, events, live)
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
        entries.push({
          from: pageUrl(site, collection, slug, locale),
          to: target ? String(live.get(addressKey(target))!.url) : null,
          status: target ? 301 : 410,
          ...(multilingual && { locale }),
        })
      }
      index.locales[locale] = byCollection
    }
    entries.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
    const envelope: RedirectsEnvelope = { data: entries, meta: { count: entries.length } }
    return { [REDIRECT_INDEX_FILE]: JSON.stringify(index), [REDIRECTS_FILE]: JSON.stringify(envelope) }
  },
} satisfies Emitter

/** Every published record of its own locale, by addressKey. */
function liveRecords(content: BuiltContent): Map<string, ContentRecord> {
  const live = new Map<string, ContentRecord>()
  const { language } = content.site
  for (const collection of COLLECTION_NAMES) {
    for (const record of content.summaries[collection])
      live.set(addressKey({ collection, locale: language, slug: record.slug }), record)
    for (const [locale, view] of Object.entries(content.locales ?? {}))
      for (const record of view.summaries[collection])
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
): Address | undefined {
  const seen = new Set<string>()
  let at = from
  let since = deletedAt
  for (;;) {
    const key = addressKey(at)
    if (at !== from && live.has(key)) return at
    const event = events.get(key)
    if (!event?.to || event.time < since || seen.has(key)) return undefined
    seen.add(key)
    since = event.time
    at = event.to
  }
}
