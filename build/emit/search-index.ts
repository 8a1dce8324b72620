/**
 * The full-text search index over every published item: BM25+ with field
 * weights, computed here once per build so that a query only looks up terms
 * and adds (the gateway's search reads it, gateway/search/). Written as one
 * compact binary file (contract/search-index-format.ts): deterministic,
 * built in a single pass over the documents' terms.
 */
import type { CollectionModel, CollectionName } from '../../contract/model/model.ts'
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

export function searchDocument(collection: CollectionModel, record: FullRecord): SearchDocument {
  return {
    id: `${collection.name}/${record.slug}`,
    collection: collection.name,
    slug: record.slug,
    title: record.title,
    summary: typeof record.summary === 'string' ? record.summary : '',
    tags: record.tags.join(' '),
    details: detailsOf(collection, record),
    text: record.body.text,
  }
}

/** The types of field whose words a reader searches by (a date, a number, an enum's value or a URL is not). */
const SEARCHED = new Set(['string', 'text', 'markdown', 'list', 'object', 'person'])

/** The fields of a collection whose strings the search reads, by name (memoised: the model is read once). */
const searched = new WeakMap<CollectionModel, string[]>()

/** The searchable strings of the collection's own fields (names, customers, places, results), flattened. */
function detailsOf(collection: CollectionModel, record: FullRecord): string {
  let fields = searched.get(collection)
  if (!fields) {
    fields = Object.keys(collection.fields).filter((f) => SEARCHED.has(collection.fields[f]!.type))
    searched.set(collection, fields)
  }
  const out: string[] = []
  const visit = (value: unknown): void => {
    // URLs (absolute, or a processed image's root-relative one) are not words a reader searches by.
    if (typeof value === 'string' && !/^(?:https?:\/\/|\/)/.test(value)) out.push(value)
    else if (Array.isArray(value)) value.forEach(visit)
    // A portrait's image object (`avatar`): files, sizes and a placeholder, nothing to search.
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) if (key !== 'avatar') visit(inner)
  }
  for (const field of fields) {
    const value = record[field]
    // Markdown: its words, not its HTML.
    visit(collection.fields[field]!.type === 'markdown' ? (value as { text?: string } | null)?.text : value)
  }
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
  /** The collections the index numbers its documents' by: the model's, in order. */
  names: readonly CollectionName[]
  /** The locale whose stemmer the terms go through; none for a single-language site. */
  stem?: string
}

export function searchIndexJobs(content: BuiltContent): SearchIndexJob[] {
  const { site, locales } = content
  const { names } = site.model
  if (!locales) return [{ path: SEARCH_INDEX_FILE, documents: searchDocuments(content), names }]
  return [
    { path: SEARCH_INDEX_FILE, documents: searchDocuments(content), names, stem: site.language },
    ...Object.entries(locales).map(([locale, view]) => ({
      path: localeSearchIndexFile(locale),
      documents: names.flatMap((c) => view.collections[c]!.map((r) => searchDocument(site.collections[c]!, r))),
      names,
      stem: locale,
    })),
  ]
}

/** Deterministic: documents are added in collection order, newest first, as the build sorted them. */
export const emitSearchIndex = {
  name: 'search-index',
  input: 'content',
  emit: (content) =>
    Object.fromEntries(
      searchIndexJobs(content).map((job) => [job.path, searchIndexFile(job.documents, job.names, job.stem)]),
    ),
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
  const { site } = content
  return site.model.names.flatMap((collection) =>
    content.collections[collection]!.map((record) => searchDocument(site.collections[collection]!, record)),
  )
}

/** The index file's bytes and ETag; for large content it is built on a worker thread (search-index-thread.ts). */
export function searchIndexFile(
  documents: readonly SearchDocument[],
  names: readonly CollectionName[],
  stem?: string,
): BuildFile {
  const body = serializeSearchIndex(documents, names, stem)
  return { body, etag: etagOf(body) }
}

/** The index of `documents`, each numbering its collection by its place among `names` (the model's). */
export function serializeSearchIndex(
  documents: readonly SearchDocument[],
  names: readonly CollectionName[],
  stem?: string,
): Buffer {
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
    collections: Uint8Array.from(documents, (doc) => names.indexOf(doc.collection)),
    slugs: documents.map((doc) => doc.slug),
  })
}
