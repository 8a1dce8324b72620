/**
 * The change feed: the change log the gateway answers `?since=` from
 * (`_build/changes.json`), and the first page, pre-rendered for the CDN
 * (`GET /api/changes`), with the same renderer.
 */
import { CHANGE_LOG_FILE, CHANGES_FILE, DEFAULT_CHANGES_LIMIT, renderChanges } from '../../contract/changes.ts'
import type { CollectionName } from '../../contract/collections.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { deriveChangeLog } from './change-log.ts'
import type { BuiltContent, Emitter } from './types.ts'

export const emitChanges = {
  name: 'changes',
  input: 'history',
  emit(content, history) {
    const log = deriveChangeLog(history, content)
    const first = renderChanges(log, recordLookup(content), { since: undefined, limit: DEFAULT_CHANGES_LIMIT })
    return { [CHANGE_LOG_FILE]: JSON.stringify(log), [CHANGES_FILE]: first }
  },
} satisfies Emitter

function recordLookup(content: BuiltContent): (collection: CollectionName, slug: string) => ContentRecord | undefined {
  const bySlug = new Map<string, ContentRecord>()
  for (const [collection, records] of Object.entries(content.summaries))
    for (const r of records) bySlug.set(`${collection}/${r.slug}`, r)
  return (collection, slug) => bySlug.get(`${collection}/${slug}`)
}
