/** API files: every limit 1..100 of page 1 of each collection, and each item. */
import { COLLECTION_NAMES } from '../contract/collections.ts'
import { itemFile, listFile, PRERENDERED_LIMITS } from '../contract/paths.ts'
import { renderItem, renderList } from '../contract/render.ts'
import type { Emitter } from './types.ts'

export const emitApi: Emitter = (content) => {
  const files: Record<string, string> = {}
  for (const collection of COLLECTION_NAMES) {
    const records = content.collections[collection]
    const summaries = content.summaries[collection]
    for (const limit of PRERENDERED_LIMITS) {
      files[listFile(collection, limit)] = renderList(collection, summaries, { limit, page: 1, tag: undefined })
    }
    for (const record of records) files[itemFile(collection, record.slug)] = renderItem(record)
  }
  return files
}
