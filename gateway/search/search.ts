/**
 * Full-text search over the build's index (search-index.ts: BM25+ with field
 * weights, the last word as a prefix, near spellings of unknown words),
 * loaded once per snapshot on first use: the one ranking behind
 * `GET /api/search` and the MCP search tools. Only the best `page × limit`
 * documents are ordered, and only the returned hits read their item's text
 * for a snippet (its text, headings and url alone, content/json-fields.ts).
 */
import { peopleFields, type CollectionName } from '../../contract/model/model.ts'
import type { RecordFilter } from '../../contract/filters.ts'
import { recordMatcher } from '../../contract/list-query.ts'
import type { ContentRecord, TocEntry } from '../../contract/records.ts'
import { localeSearchIndexFile, MAX_QUERY_LENGTH, SEARCH_INDEX_FILE } from '../../contract/search.ts'
import { stemmerOf } from '../../contract/stemming.ts'
import { recordsBySlug } from '../content/locales.ts'
import { termsOf } from '../../contract/search-terms.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'
import { readRecordFields } from '../content/items.ts'
import { fieldPaths } from '../content/json-fields.ts'
import { AppError } from '../../contract/errors.ts'
import { SearchIndex } from './search-index.ts'
import { snippetOf } from './snippet.ts'
import { type HitSection, sectionAt } from './hit-section.ts'
import { bestFirst } from './top-k.ts'

export { MAX_QUERY_LENGTH }

export class SearchIndexError extends AppError {
  readonly code = 'SEARCH_INDEX_UNAVAILABLE'
}

export interface SearchOptions extends RecordFilter {
  query: string
  collection?: CollectionName
  limit: number
  /** 1-based. */
  page: number
  /** A multilingual site's locale to search in (its index, its stemmer); the default's when absent. */
  locale?: string
  /** The clock `when` reads (epoch ms; default now). */
  now?: number
}

export interface SearchHit {
  collection: CollectionName
  slug: string
  /** A multilingual site's hits: the locale of the item found (a locale falling back finds default-locale items). */
  locale?: string
  score: number
  snippet: string
  /** The section of the body the snippet's match is in, with its anchor; null before the first heading. */
  section: HitSection | null
  matched_terms: string[]
}

/** What a hit shows of its item's file: the text for the snippet, and the headings and page for its section. */
const HIT_FIELDS = fieldPaths(['url', 'body.text', 'toc'])

const INDEXES = new MemoKey<Map<string, Promise<SearchIndex>>>('search indexes by locale')
/** Per index: each document as its record, and which documents have a tag (made for each tag asked for that some have). */
interface IndexRecords {
  records: readonly (ContentRecord | undefined)[]
  tags: Map<string, Uint8Array>
}

const DOC_RECORDS = new MemoKey<WeakMap<SearchIndex, IndexRecords>>('search documents as records')

/**
 * Each document of `index` as its record (in `locale`): looked up by slug once per index, not once per
 * candidate of every filtered search.
 */
function recordsOfIndex(snapshot: Snapshot, index: SearchIndex, locale: string | undefined): IndexRecords {
  const all = snapshot.memo(DOC_RECORDS, () => new WeakMap<SearchIndex, IndexRecords>())
  let found = all.get(index)
  if (!found) {
    const { names } = snapshot.model
    const bySlug = names.map((c) => recordsBySlug(snapshot, c, locale))
    const records = Array.from({ length: index.documents }, (_, doc) =>
      bySlug[index.collectionOf(doc)]?.get(index.slugOf(doc)),
    )
    found = { records, tags: new Map() }
    all.set(index, found)
  }
  return found
}

/**
 * Which documents have `tag` (1) or not (0), as the tag filter decides (contract/list-query.ts), kept per tag;
 * undefined when none has it, so a tag no item has keeps nothing in memory (the tags kept are the content's).
 */
function taggedDocs(of: IndexRecords, tag: string): Uint8Array | undefined {
  const known = of.tags.get(tag)
  if (known) return known
  const has = new Uint8Array(of.records.length)
  let any = false
  for (const [doc, record] of of.records.entries())
    if (record?.tags.includes(tag)) {
      has[doc] = 1
      any = true
    }
  if (!any) return undefined
  of.tags.set(tag, has)
  return has
}

/** Whether one of the tag sets has `doc`: a loop, not a closure made per candidate document. */
function hasAny(tagged: readonly Uint8Array[], doc: number): boolean {
  for (let i = 0; i < tagged.length; i++) if (tagged[i]![doc] === 1) return true
  return false
}

/** The index of a locale (the default's is SEARCH_INDEX_FILE); loaded on its first search, a failed read is not remembered. */
function indexOf(snapshot: Snapshot, locale: string | undefined): Promise<SearchIndex> {
  const file = locale === undefined ? SEARCH_INDEX_FILE : localeSearchIndexFile(locale)
  const indexes = snapshot.memo(INDEXES, () => new Map<string, Promise<SearchIndex>>())
  let pending = indexes.get(file)
  if (!pending) {
    indexes.set(file, (pending = loadIndex(snapshot, file)))
    pending.catch(() => indexes.delete(file))
  }
  return pending
}

async function loadIndex(snapshot: Snapshot, path: string): Promise<SearchIndex> {
  const file = snapshot.file(path)
  if (!file) throw new SearchIndexError(`This build has no search index (${path}); rebuild with \`npm run build\`.`)
  try {
    return new SearchIndex((await file).body)
  } catch {
    throw new SearchIndexError(
      `The search index of this build (${path}) cannot be read; rebuild with \`npm run build\` and reload.`,
    )
  }
}

/** The matches of `query`, best first: how many in all, and the hits of one page. */
export async function search(
  snapshot: Snapshot,
  options: SearchOptions,
): Promise<{ total: number; hits: SearchHit[] }> {
  const locales = snapshot.manifest.locales
  // Another locale than the default: its own index; a multilingual site's terms are stemmed in the locale's language.
  const locale =
    locales && options.locale !== undefined && options.locale !== locales.default ? options.locale : undefined
  const index = await indexOf(snapshot, locale)
  const stem = locales ? stemmerOf(locale ?? locales.default) : undefined
  const indexRecords = recordsOfIndex(snapshot, index, locale)
  const docRecords = indexRecords.records
  const queryTerms = [...new Set(termsOf(options.query.slice(0, MAX_QUERY_LENGTH), stem))]
  const matches = index.matchTerms(queryTerms)
  // The index numbers each document's collection by its place in the build's model.
  const { names } = snapshot.model
  const wantedCollection = options.collection === undefined ? -1 : names.indexOf(options.collection)
  // The tag filter by the index's tag sets; the other filters by the record.
  const { tag, ...others } = options
  const tagged = tag?.map((t) => taggedDocs(indexRecords, t)).filter((has) => has !== undefined)
  const kept = recordMatcher(others, options.now ?? Date.now(), peopleFields(snapshot.model))
  // The index's own array of touched documents, compacted in place to those the filters keep.
  const touched = index.run(matches)
  let total = 0
  for (let at = 0; at < touched.length; at++) {
    const doc = touched[at]!
    if (wantedCollection >= 0 && index.collectionOf(doc) !== wantedCollection) continue
    if (tagged && !hasAny(tagged, doc)) continue
    if (kept) {
      const record = docRecords[doc]
      if (record === undefined || !kept(record)) continue
    }
    touched[total++] = doc
  }
  const start = (options.page - 1) * options.limit
  const page = bestFirst(touched.subarray(0, total), start + options.limit, (doc) => index.score(doc)).slice(start)
  // Read before the first await: another search may run on this index meanwhile and overwrite the scores.
  const scores = page.map((doc) => Math.round(index.score(doc) * 1000) / 1000)
  const termsByDoc = index.termsIn(matches, page)
  const hits = await Promise.all(
    page.map(async (doc, rank): Promise<SearchHit> => {
      const collection = names[index.collectionOf(doc)]!
      const slug = index.slugOf(doc)
      const terms = (termsByDoc.get(doc) ?? []).map((t) => index.termName(t))
      const record = docRecords[doc]
      const full = record && (await readRecordFields(snapshot, collection, record, HIT_FIELDS))
      const text = (full?.get('body.text') as string | undefined) ?? ''
      const { snippet, at } = snippetOf(text, options.query, terms)
      const toc = (full?.get('toc') as TocEntry[] | undefined) ?? []
      return {
        collection,
        slug,
        locale: record?.locale,
        score: scores[rank]!,
        snippet,
        section: full ? sectionAt(text, toc, at, String(full.get('url'))) : null,
        matched_terms: terms,
      }
    }),
  )
  return { total, hits }
}
