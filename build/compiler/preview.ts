/**
 * The preview's view of the compiler's files (`npm run dev`'s /preview/):
 * every item, drafts and files with errors included, with its publication
 * as of the compiler's clock.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { FullRecord } from '../../contract/records.ts'
import type { BuiltContent } from '../emit/types.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { isoSeconds } from '../pipeline/schedule.ts'
import { fileSchedule, publicationOf, type FileSchedule, type Schedules } from './translation-schedule.ts'

/** An item as the author sees it in the preview: drafts too, with its own errors. */
export interface PreviewItem {
  path: string
  collection: CollectionName
  /** The locale the file is written in (the default locale's for a file without one in its name). */
  locale: string
  slug: string
  /** The item the file is of, the same for an item and its translations (`<collection>/<key>`: the preview's `item`). */
  key: string
  /** Never published as it stands: a draft, or a translation of an item that is (`draftItem`). */
  draft: boolean
  /** A translation's item (its default-locale file) when that item is a draft. */
  draftItem?: string
  /** Its record (a published one with its related items resolved); undefined when the file has errors. */
  record: FullRecord | undefined
  /** Whether `record` is the one dist/ answers as the item's file (a published item's). */
  inDist: boolean
  /**
   * Published as of the compiler's clock, or scheduled (released at `at`) or
   * expired (since `at`); `item`: a translation's item, when its time is the
   * one the translation waits for (or came down with).
   */
  release: { state: 'live' } | { state: 'scheduled' | 'expired'; at: string; item?: string }
}

/** Every compiled file as a preview item, in path order; `content` is the published content, if any. */
export function previewItems(
  content: BuiltContent | undefined,
  language: string | undefined,
  compiled: Iterable<CompiledFile>,
  schedules: Schedules,
  asOf: number,
): PreviewItem[] {
  // Published records by locale, collection and slug (a translation may share its item's slug).
  const published = new Map<string, FullRecord>()
  if (content) {
    const { names } = content.site.model
    for (const c of names) for (const r of content.collections[c]!) published.set(`${language}/${c}/${r.slug}`, r)
    for (const [locale, own] of Object.entries(content.locales ?? {}))
      for (const c of names)
        for (const r of own.collections[c]!) if (r.locale === locale) published.set(`${locale}/${c}/${r.slug}`, r)
  }
  return [...compiled]
    .map((c): PreviewItem => {
      const item = schedules.get(c)?.item
      const own = published.get(`${c.locale}/${c.collection}/${c.slug}`)
      return {
        path: c.source.path,
        collection: c.collection,
        locale: c.locale,
        slug: c.slug,
        key: c.key,
        draft: publicationOf(c, schedules).draft,
        ...(item?.draft && { draftItem: item.source.path }),
        record: own ?? c.record,
        inDist: own !== undefined,
        release: previewSchedule(fileSchedule(c, schedules, asOf)),
      }
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1))
}

function previewSchedule(release: FileSchedule): PreviewItem['release'] {
  if (release.state === 'live') return release
  return { state: release.state, at: isoSeconds(release.at), ...(release.item && { item: release.item.source.path }) }
}
