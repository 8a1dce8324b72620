/**
 * The full-text search index over every published item: BM25+ with field
 * weights, computed here once per build so that a query only looks up terms
 * and adds (the gateway's search reads it, gateway/search/). Written as one
 * compact binary file (contract/search-index-format.ts): deterministic,
 * built in a single pass over the documents' terms.
 */
import { COLLECTION_NAMES, type CollectionName } from '../../contract/collections.ts'
import { etagOf } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { FullRecord } from '../../contract/records.ts'
import {
  BM25,
  localeSearchIndexFile,
  SEARCH_BOOST,
  SEARCH_FIELDS,
  SEARCH_INDEX_FILE,
  type SearchDocument,
} from '../../contract/search.ts'
import { stemmerOf } from '../../contract/stemming.ts'
import { encodeSearchIndex } from '../../contract/search-index-format.ts'
import { forEachTerm } from '../../contract/search-terms.ts'
import { checkpoint } from '../core/interrupt.ts'
import { documentChars, OFF_THREAD_MIN_CHARS, searchIndexOffThread } from './search-index-thread.ts'
import type { BuiltContent, Emitter } from './types.ts'
import { Postings } from './search-postings.ts'

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
    // URLs (absolute, or a processed image's root-relative one) are not words a reader searches by.
    if (typeof value === 'string' && !/^(?:https?:\/\/|\/)/.test(value)) out.push(value)
    else if (Array.isArray(value)) value.forEach(visit)
    // A portrait's image object (`avatar`): files, sizes and a placeholder, nothing to search.
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) if (key !== 'avatar') visit(inner)
  }
  for (const field of ['customer', 'results', 'quote', 'products', 'authors', 'speakers', 'location'])
    visit(record[field])
  return out.join(' ')
}

/**
 * One index per locale: a single-language site's as it always was (terms folded, not stemmed); a
 * multilingual site's stemmed in each locale's language (contract/stemming.ts), the other locales'
 * holding their lists' records (translations, and the default's where they fall back).
 */
export interface SearchIndexJob {
  path: string
  documents: SearchDocument[]
  /** The locale whose stemmer the terms go through; none for a single-language site. */
  stem?: string
}

export function searchIndexJobs(content: BuiltContent): SearchIndexJob[] {
  const { site, locales } = content
  if (!locales) return [{ path: SEARCH_INDEX_FILE, documents: searchDocuments(content) }]
  return [
    { path: SEARCH_INDEX_FILE, documents: searchDocuments(content), stem: site.language },
    ...Object.entries(locales).map(([locale, view]) => ({
      path: localeSearchIndexFile(locale),
      documents: COLLECTION_NAMES.flatMap((c) => view.collections[c].map((r) => searchDocument(c, r))),
      stem: locale,
    })),
  ]
}

/** Deterministic: documents are added in collection order, newest first, as the build sorted them. */
export const emitSearchIndex = {
  name: 'search-index',
  input: 'content',
  emit: (content) =>
    Object.fromEntries(searchIndexJobs(content).map((job) => [job.path, searchIndexFile(job.documents, job.stem)])),
  offThread(content) {
    const jobs = searchIndexJobs(content)
    if (documentChars(jobs.flatMap((j) => j.documents)) < OFF_THREAD_MIN_CHARS) return undefined
    const task = searchIndexOffThread(jobs)
    return {
      result: task.result.then((files) => Object.fromEntries(jobs.map((job, i) => [job.path, files[i]!]))),
      cancel: task.cancel,
    }
  },
} satisfies Emitter

export function searchDocuments(content: BuiltContent): SearchDocument[] {
  return COLLECTION_NAMES.flatMap((collection) =>
    content.collections[collection].map((record) => searchDocument(collection, record)),
  )
}

/** The index file's bytes and ETag; for large content it is built on a worker thread (search-index-thread.ts). */
export function searchIndexFile(documents: readonly SearchDocument[], stem?: string): BuildFile {
  const body = serializeSearchIndex(documents, stem)
  return { body, etag: etagOf(body) }
}

export function serializeSearchIndex(documents: readonly SearchDocument[], stem?: string): Buffer {
  const stemmer = stem === undefined ? undefined : stemmerOf(stem)
  // Each distinct word stemmed once for the whole index (forEachTerm).
  const stemmed = stemmer && new Map<string, string>()
  const postings = new Postings(SEARCH_FIELDS.length)
  const lengths = new Float64Array(documents.length * SEARCH_FIELDS.length)
  documents.forEach((doc, d) => {
    checkpoint()
    SEARCH_FIELDS.forEach((field, f) => {
      let length = 0
      postings.startField(d, f)
      forEachTerm(
        doc[field],
        (term) => {
          length++
          postings.add(term)
        },
        stemmer,
        stemmed,
      )
      lengths[d * SEARCH_FIELDS.length + f] = length
    })
  })
  const fields = SEARCH_FIELDS.length
  const n = documents.length
  const avg = SEARCH_FIELDS.map((_, f) => {
    let sum = 0
    for (let d = 0; d < n; d++) sum += lengths[d * fields + f]!
    return sum / Math.max(1, n) || 1
  })
  const boosts = SEARCH_FIELDS.map((f) => SEARCH_BOOST[f])
  // Everything of BM25+ but tf, computed once: idf per document frequency, length norm per document field.
  const idf = Float64Array.from({ length: n + 1 }, (_, df) => Math.log(1 + (n - df + 0.5) / (df + 0.5)))
  const norm = lengths.map((length, i) => BM25.k * (1 - BM25.b + (BM25.b * length) / avg[i % fields]!))
  const impact = (tf: number, df: number, d: number, f: number) =>
    boosts[f]! * idf[df]! * (BM25.d + (tf * (BM25.k + 1)) / (tf + norm[d * fields + f]!))
  const data = postings.finish(impact)
  return encodeSearchIndex({
    ...data,
    collections: Uint8Array.from(documents, (doc) => COLLECTION_NAMES.indexOf(doc.collection)),
    slugs: documents.map((doc) => doc.slug),
  })
}
