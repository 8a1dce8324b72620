/**
 * GET /api/{collection} and /api/{collection}/{slug}. Page 1 of every limit
 * and every item are pre-rendered bytes from the build; any other list query
 * is rendered here with the build's own renderer. A multilingual build
 * answers in the request's locale (`locale`, else Accept-Language:
 * content/locales.ts), from that locale's files and records.
 */
import { defineHandler, type H3Event } from 'h3'
import { collectionOf, listed, type CollectionModel, type CollectionName } from '../../contract/model/model.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { selectFields } from '../../contract/list-query.ts'
import { itemFile, listFile, localeListFile } from '../../contract/paths.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'
import { isPrerendered, listHref, parseFields, parseListQuery, type ListQuery } from '../../contract/query.ts'
import type { ParameterError } from '../../contract/query-values.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { listEnvelope, paginate } from '../../contract/render.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { readRecord } from '../content/items.ts'
import { findItem, localeHeaders, localesOf, requestLocale, summariesIn } from '../content/locales.ts'
import { timed, type Timed } from '../content/schedule.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import type { RenderedFile } from '../snapshot.ts'
import { invalidParameters, JSON_TYPE_NAME, pageHeaders, readSnapshot } from './read.ts'
import { fateOf } from '../content/redirects.ts'
import { answerFate } from './redirects.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)

/** `now`: the clock `when=upcoming|past` reads and Cache-Control is capped by (the platform's). */
export function listRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const { snapshot, collection, def } = prepare(event, store)
    const params = event.url.searchParams
    const parsed = parseListQuery(params, def, snapshot.model)
    const errors = parsed.ok ? [] : [...parsed.errors]
    const chosen = requestLocale(event, snapshot, errors, params)
    if (!parsed.ok || errors.length) throw invalidParameters(errors)
    // Another locale than the default: its own files and records, and links that keep the locale.
    const locale = chosen && chosen.locale !== localesOf(snapshot).default ? chosen.locale : undefined
    const query: ListQuery = locale ? { ...parsed.query, locale } : parsed.query
    const summaries = summariesIn(snapshot, collection, locale)
    const at = now().getTime()
    // Capped at the build's next release or expiry however the locale was chosen; an answer Accept-Language
    // chose is not the target's alone, though: the fast path must not repeat it.
    const build = { snapshot, now: at }
    const memo = chosen?.negotiated ? undefined : { accept: JSON_TYPE_NAME }
    const languages = localeHeaders(chosen)
    if (isPrerendered(query)) {
      // Page 1 of the whole collection: the total is its length.
      const total = summaries.length
      const file = snapshot.file(
        locale ? localeListFile(collection, locale, query.limit) : listFile(collection, query.limit),
      )!
      const headers = { ...pageHeaders(total, paginate(collection, total, query).links), ...languages }
      return respondWithFile(event, file, {
        contentType: JSON_TYPE,
        cacheControl: CACHE.content,
        headers,
        build,
        ...(memo && { memo }),
      })
    }
    const clock = query.when ? timed(snapshot, [collection], at) : undefined
    const rendered = renderLongTail(snapshot, def, query, summaries, at, clock)
    return respondWithFile(event, rendered, {
      contentType: JSON_TYPE,
      cacheControl: clock?.cacheControl ?? CACHE.content,
      headers: { ...rendered.headers, ...languages },
      build,
      // An answer of the clock's is repeated only while it stays the same, headers and all.
      ...(memo && (clock ? clock.repeatable && { memo: { ...memo, during: clock.repeatable } } : { memo })),
    })
  })
}

/** `now`: the gateway's clock, which caps Cache-Control at the build's next release or expiry. */
export function itemRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const { snapshot, collection, def } = prepare(event, store)
    const slug = event.context.params?.slug ?? ''
    const errors: ParameterError[] = []
    const chosen = requestLocale(event, snapshot, errors)
    const fields = parseFields(event.url.searchParams, snapshot.model, def, 'full', errors)
    // A multilingual build: the item in the request's locale, found by its slug in any locale.
    const found = chosen && SLUG_RE.test(slug) ? findItem(snapshot, collection, slug, chosen) : undefined
    const path = chosen ? found?.file : itemFile(collection, slug)
    if (!SLUG_RE.test(slug) || path === undefined || !snapshot.has(path)) {
      const locales = localesOf(snapshot)
      // Only another locale can fall back (to the default one); the default locale has nothing to fall back to.
      const noFallback = chosen && chosen.locale !== locales.default && !locales.fallback.includes(chosen.locale)
      const notFound = problem('not-found', {
        detail: chosen
          ? `No published ${collection} item has the slug "${slug.slice(0, 120)}" in ${chosen.locale}${noFallback ? ' (this locale does not fall back to the default one)' : ''}. List /api/${collection}?locale=${chosen.locale} to find slugs.`
          : `No published ${collection} item has the slug "${slug.slice(0, 120)}". List /api/${collection} to find slugs.`,
      })
      if (!SLUG_RE.test(slug)) throw notFound
      // An old address of an item (content/'s history): where it is now, or its tombstone.
      return fateOf(snapshot, collection, slug, chosen && !chosen.negotiated ? chosen.locale : undefined).then(
        (found) => {
          if (!found) throw notFound
          return answerFate(event, snapshot, collection, found.fate, now().getTime())
        },
      )
    }
    if (errors.length) throw invalidParameters(errors)
    const options = {
      contentType: JSON_TYPE,
      cacheControl: CACHE.content,
      headers: localeHeaders(chosen, found?.record.locale),
      build: { snapshot, now: now().getTime() },
      ...(!chosen?.negotiated && { memo: { accept: JSON_TYPE_NAME } }),
    }
    if (!fields) return respondWithFile(event, snapshot.file(path)!, options)
    const record: Pick<ContentRecord, 'slug' | 'locale'> = found?.record ?? { slug }
    const key = `/api/${collection}/${record.slug}?fields=${fields.join(',')}${found && record.locale !== localesOf(snapshot).default ? `&locale=${record.locale}` : ''}`
    const rendered =
      snapshot.peekRendered(key) ??
      readRecord(snapshot, collection, record).then((full) =>
        snapshot.rendered(key, () => ({ body: JSON.stringify(selectFields(full!, fields)) })),
      )
    return respondWithFile(event, rendered, options)
  })
}

/** The build to answer from and the collection of the path, one of its model's (else a 404 naming them). */
function prepare(
  event: H3Event,
  store: ArtifactStore,
): { snapshot: Snapshot; collection: CollectionName; def: CollectionModel } {
  const name = event.context.params?.collection ?? ''
  const snapshot = readSnapshot(event, store)
  const def = collectionOf(snapshot.model, name)
  if (!def) {
    throw problem('not-found', {
      detail: `There is no collection "${name.slice(0, 120)}"; collections are ${listed(snapshot.model.names)}.`,
    })
  }
  return { snapshot, collection: name, def }
}

/**
 * A list no file has, rendered once per build (per window, for `when=`) with
 * its headers: a body is rendered for one canonical query, so its headers
 * never change, and filtering every item of a collection on each long-tail
 * request cost more than the rest of the answer.
 */
function renderLongTail(
  snapshot: Snapshot,
  collection: CollectionModel,
  query: ListQuery,
  summaries: readonly ContentRecord[],
  now: number,
  clock: Timed | undefined,
): RenderedFile {
  return snapshot.rendered(listHref(collection.name, query) + (clock?.key ?? ''), () => {
    const envelope = listEnvelope(collection, summaries, query, now)
    return { body: JSON.stringify(envelope), headers: pageHeaders(envelope.meta.total, envelope.links) }
  })
}
