/**
 * The change feed: the change log the gateway answers `?since=` from
 * (`_build/changes.json`), and the first page, pre-rendered for the CDN
 * (`GET /api/changes`), with the same renderer; on a multilingual site the
 * same of each other locale (`?locale=<tag>`: contract/paths.ts).
 */
import { CHANGE_LOG_FILE, CHANGES_FILE, renderChanges } from '../../contract/changes.ts'
import { DEFAULT_CHANGES_LIMIT } from '../../contract/routes/search-changes-parameters.ts'
import type { CollectionName } from '../../contract/model/model.ts'
import { localeChangeLogFile, localeChangesFile } from '../../contract/paths.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { isMultilingual } from '../core/site.ts'
import { changeLogsOf } from './change-log.ts'
import type { Emitter, EmittedFiles } from './types.ts'

export const emitChanges = {
  name: 'changes',
  input: 'history',
  emit(content, history) {
    const { log, locales } = changeLogsOf(history, content)
    const defaultLocale = isMultilingual(content.site) ? content.site.language : undefined
    const firstPage = { since: undefined, limit: DEFAULT_CHANGES_LIMIT }
    const files: EmittedFiles = {
      [CHANGE_LOG_FILE]: JSON.stringify(log),
      [CHANGES_FILE]: renderChanges(log, recordLookup(content.summaries), firstPage, defaultLocale),
    }
    for (const [locale, localeLog] of Object.entries(locales)) {
      const summaries = content.locales?.[locale]?.summaries
      files[localeChangeLogFile(locale)] = JSON.stringify(localeLog)
      files[localeChangesFile(locale)] = renderChanges(
        localeLog,
        recordLookup(summaries),
        { ...firstPage, locale },
        defaultLocale,
      )
    }
    return files
  },
} satisfies Emitter

function recordLookup(
  summaries: Record<CollectionName, readonly ContentRecord[]> | undefined,
): (collection: CollectionName, slug: string) => ContentRecord | undefined {
  const bySlug = new Map<string, ContentRecord>()
  for (const [collection, records] of Object.entries(summaries ?? {}))
    for (const r of records) bySlug.set(`${collection}/${r.slug}`, r)
  return (collection, slug) => bySlug.get(`${collection}/${slug}`)
}
