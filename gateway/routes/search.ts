/**
 * GET /api/search?q=…: ranked full-text search across collections (the MCP
 * tools' ranking), as a list envelope whose items carry a score and a
 * snippet. Rendered here, cached per build like the long tail of lists.
 */
import { defineHandler } from 'h3'
import { isCollectionName, type CollectionName } from '../../contract/model/model.ts'
import { localeHeaders, localesOf, requestLocale, summariesIn } from '../content/locales.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { MAX_MATCHED_TERMS, MAX_QUERY_LENGTH } from '../../contract/search.ts'
import { parseSearchQuery, searchHref, type SearchQuery } from '../../contract/search-query.ts'
import { scheduledCollections } from '../../contract/list-query.ts'
import { ArtifactError, type ArtifactStore, type Snapshot } from '../artifacts.ts'
import { timed } from '../content/schedule.ts'
import type { RenderedFile } from '../snapshot.ts'
import { unavailable } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { search, SearchIndexError, type SearchHit } from '../search/search.ts'
import { invalidParameters, JSON_TYPE_NAME, pageHeaders, readSnapshot } from './read.ts'

/** The record fields a hit carries, before where to read it and why it matched. */
const HIT_FIELDS = ['title', 'summary', 'url', 'tags', 'published_at', 'updated_at'] as const

/** `now`: the clock `when=upcoming|past` reads and Cache-Control is capped by (the platform's). */
export function searchRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const parsed = parseSearchQuery(event.url.searchParams, snapshot.model)
    const errors = parsed.ok ? [] : [...parsed.errors]
    const chosen = requestLocale(event, snapshot, errors)
    if (!parsed.ok || errors.length) throw invalidParameters(errors)
    // Another locale than the default: its index, and links that keep it.
    const locale = chosen && chosen.locale !== localesOf(snapshot).default ? chosen.locale : undefined
    const query: SearchQuery = locale ? { ...parsed.query, locale } : parsed.query
    const at = now().getTime()
    // With `when`, the hits change at each start of an event or webinar searched: one answer per window between them.
    const clock = query.when ? timed(snapshot, scheduledCollections(snapshot.model, query.collection), at) : undefined
    const key = searchHref(query) + (clock?.key ?? '')
    // Capped at the build's next release or expiry however the locale was chosen; an answer Accept-Language
    // chose is not the target's alone, though: the fast path must not repeat it.
    const memo = chosen?.negotiated ? undefined : { accept: JSON_TYPE_NAME }
    const answer = (file: RenderedFile) =>
      respondWithFile(event, file, {
        contentType: JSON_TYPE,
        cacheControl: clock?.cacheControl ?? CACHE.content,
        headers: { ...file.headers, ...localeHeaders(chosen) },
        build: { snapshot, now: at },
        ...(memo && (clock ? clock.repeatable && { memo: { ...memo, during: clock.repeatable } } : { memo })),
      })
    const cached = snapshot.peekRendered(key)
    if (cached) return answer(cached)
    return searchEnvelope(snapshot, query, at).then((envelope) =>
      // The page headers go with the body: it does not change, so neither do they.
      answer(
        snapshot.rendered(key, () => ({
          body: JSON.stringify(envelope),
          headers: pageHeaders(envelope.meta.total, envelope.links),
        })),
      ),
    )
  })
}

async function searchEnvelope(snapshot: Snapshot, query: SearchQuery, now: number) {
  let result: Awaited<ReturnType<typeof search>>
  try {
    result = await search(snapshot, { ...query, now })
  } catch (error) {
    if (error instanceof SearchIndexError || error instanceof ArtifactError)
      throw unavailable(
        error instanceof SearchIndexError ? error.message : 'This build is not fully available; retry shortly.',
      )
    throw error
  }
  const data = result.hits.flatMap((hit) => {
    const record = isCollectionName(snapshot.model, hit.collection)
      ? summariesOf(snapshot, hit.collection, query.locale).get(hit.slug)
      : undefined
    return record ? [hitOf(record, hit, query.locale)] : []
  })
  const pages = Math.ceil(result.total / query.limit)
  return {
    data,
    meta: { query: query.query, limit: query.limit, page: query.page, count: data.length, total: result.total, pages },
    links: { self: searchHref(query), ...linksOf(query, result.total) },
  }
}

/** A locale's records by slug (the default's: the snapshot's own index). */
function summariesOf(snapshot: Snapshot, collection: CollectionName, locale: string | undefined) {
  if (locale === undefined) return snapshot.bySlug(collection)
  return new Map(summariesIn(snapshot, collection, locale).map((r) => [r.slug, r]))
}

function hitOf(record: ContentRecord, hit: SearchHit, locale: string | undefined) {
  const out: Record<string, unknown> = { id: record.id, type: record.type, collection: hit.collection, slug: hit.slug }
  for (const field of HIT_FIELDS) out[field] = record[field]
  // Within the bounds openapi.json states: a short prefix can match many long indexed words.
  const terms = hit.matched_terms.slice(0, MAX_MATCHED_TERMS).map((t) => t.slice(0, MAX_QUERY_LENGTH))
  return {
    ...out,
    // In the locale searched: the item's own file, or the default's where it stands in.
    href: `/api/${hit.collection}/${hit.slug}${locale && record.locale === locale ? `?locale=${locale}` : ''}`,
    score: hit.score,
    snippet: hit.snippet,
    section: hit.section,
    matched_terms: terms,
  }
}

function linksOf(query: SearchQuery, total: number): { next: string | null; prev: string | null } {
  const pages = Math.ceil(total / query.limit)
  const prevPage = Math.min(query.page - 1, pages)
  return {
    next: query.page < pages ? searchHref({ ...query, page: query.page + 1 }) : null,
    prev: prevPage >= 1 ? searchHref({ ...query, page: prevPage }) : null,
  }
}
