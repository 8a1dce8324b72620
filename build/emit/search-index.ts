/**
 * The full-text search index (MiniSearch, BM25) over every published item,
 * built once here and loaded by the gateway's MCP search tool. The options are
 * exported because an index must be loaded with the options it was built with.
 */
import MiniSearch from 'minisearch'
import { COLLECTION_NAMES, type CollectionName } from '../contract/collections.ts'
import type { FullRecord } from '../contract/records.ts'
import { OFF_THREAD_MIN, searchIndexOffThread } from './search-index-thread.ts'
import type { BuiltContent, Emitter } from './types.ts'
import { SEARCH_INDEX_FILE, SEARCH_INDEX_OPTIONS, type SearchDocument } from '../contract/search.ts'

export function searchDocument(collection: CollectionName, record: FullRecord): SearchDocument {
  return {
    id: `${collection}/${record.slug}`,
    collection,
    slug: record.slug,
    title: record.title,
    summary: typeof record.summary === 'string' ? record.summary : '',
    tags: record.tags.join(' '),
    details: detailsOf(record),
    text: record.body.text,
  }
}

/** The searchable strings of the collection-specific fields, flattened. */
function detailsOf(record: FullRecord): string {
  const out: string[] = []
  const visit = (value: unknown): void => {
    if (typeof value === 'string' && !/^https?:\/\//.test(value)) out.push(value)
    else if (Array.isArray(value)) value.forEach(visit)
    else if (value && typeof value === 'object') Object.values(value).forEach(visit)
  }
  for (const field of ['customer', 'results', 'quote', 'products', 'authors', 'speakers', 'location']) visit(record[field])
  return out.join(' ')
}

/** Deterministic: documents are added in collection order, newest first, as the build sorted them. */
export const emitSearchIndex = {
  name: 'search-index',
  input: 'content',
  emit: (content) => ({ [SEARCH_INDEX_FILE]: serializeSearchIndex(searchDocuments(content)) }),
  offThread(content) {
    const documents = searchDocuments(content)
    if (documents.length < OFF_THREAD_MIN) return undefined
    const task = searchIndexOffThread(documents)
    return { result: task.result.then((text) => ({ [SEARCH_INDEX_FILE]: text })), cancel: task.cancel }
  },
} satisfies Emitter

export function searchDocuments(content: BuiltContent): SearchDocument[] {
  return COLLECTION_NAMES.flatMap((collection) => content.collections[collection].map((record) => searchDocument(collection, record)))
}

/** The index file's text; for large content it is built on a worker thread (search-index-thread.ts). */
export function serializeSearchIndex(documents: SearchDocument[]): string {
  const index = new MiniSearch<SearchDocument>(SEARCH_INDEX_OPTIONS)
  index.addAll(documents)
  return JSON.stringify(index)
}
