/**
 * GET /api/{collection} and /api/{collection}/{slug}. Page 1 of every limit
 * and every item are pre-rendered bytes from the build; any other list query
 * (another page, a filter, an order, a sparse fieldset) and an item's
 * `fields` are rendered here with the build's own renderer, once per build
 * (and, for `when=`, once per window between two starts: content/schedule.ts).
 */
import { defineHandler, type H3Event } from 'h3'
import { isCollectionName, type CollectionName } from '../../contract/collections.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { selectFields } from '../../contract/list-query.ts'
import { itemFile, listFile } from '../../contract/paths.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'
import { isPrerendered, listHref, parseFields, parseListQuery, type ListQuery } from '../../contract/query.ts'
import type { ParameterError } from '../../contract/query-values.ts'
import { listEnvelope, paginate } from '../../contract/render.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { readItem } from '../content/items.ts'
import { timed, type Timed } from '../content/schedule.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import type { RenderedFile } from '../snapshot.ts'
import { invalidParameters, JSON_TYPE_NAME, pageHeaders, readSnapshot } from './read.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)

/** `now`: the clock `when=upcoming|past` reads (the platform's). */
export function listRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const { snapshot, collection } = prepare(event, store)
    const parsed = parseListQuery(event.url.searchParams, collection)
    if (!parsed.ok) throw invalidParameters(parsed.errors)
    const { query } = parsed
    const memo = { snapshot, accept: JSON_TYPE_NAME }
    if (isPrerendered(query)) {
      // Page 1 of the whole collection: the total is its length.
      const total = snapshot.summaries(collection).length
      const file = snapshot.file(listFile(collection, query.limit))!
      const headers = pageHeaders(total, paginate(collection, total, query).links)
      return respondWithFile(event, file, { contentType: JSON_TYPE, cacheControl: CACHE.content, headers, memo })
    }
    const at = now().getTime()
    const clock = query.when ? timed(snapshot, [collection], at) : undefined
    const rendered = renderLongTail(snapshot, collection, query, at, clock)
    return respondWithFile(event, rendered, {
      contentType: JSON_TYPE,
      cacheControl: clock?.cacheControl ?? CACHE.content,
      headers: rendered.headers,
      // An answer of the clock's is repeated only while it stays the same, headers and all.
      ...(clock ? clock.repeatable && { memo: { ...memo, during: clock.repeatable } } : { memo }),
    })
  })
}

export function itemRoute(store: ArtifactStore) {
  return defineHandler((event) => {
    const { snapshot, collection } = prepare(event, store)
    const slug = event.context.params?.slug ?? ''
    const path = itemFile(collection, slug)
    if (!SLUG_RE.test(slug) || !snapshot.has(path)) {
      throw problem('not-found', {
        detail: `No published ${collection} item has the slug "${slug.slice(0, 120)}". List /api/${collection} to find slugs.`,
      })
    }
    const errors: ParameterError[] = []
    const fields = parseFields(event.url.searchParams, collection, 'full', errors)
    if (errors.length) throw invalidParameters(errors)
    const options = { contentType: JSON_TYPE, cacheControl: CACHE.content, memo: { snapshot, accept: JSON_TYPE_NAME } }
    if (!fields) return respondWithFile(event, snapshot.file(path)!, options)
    const key = `/api/${collection}/${slug}?fields=${fields.join(',')}`
    const rendered =
      snapshot.peekRendered(key) ??
      readItem(snapshot, collection, slug).then((record) =>
        snapshot.rendered(key, () => ({ body: JSON.stringify(selectFields(record!, fields)) })),
      )
    return respondWithFile(event, rendered, options)
  })
}

function prepare(event: H3Event, store: ArtifactStore): { snapshot: Snapshot; collection: CollectionName } {
  const name = event.context.params?.collection ?? ''
  if (!isCollectionName(name)) {
    throw problem('not-found', {
      detail: `There is no collection "${name.slice(0, 120)}"; collections are blog-posts, case-studies, webinars and events.`,
    })
  }
  return { snapshot: readSnapshot(event, store), collection: name }
}

/**
 * A list no file has, rendered once per build (per window, for `when=`) with
 * its headers: a body is rendered for one canonical query, so its headers
 * never change, and filtering every item of a collection on each long-tail
 * request cost more than the rest of the answer.
 */
function renderLongTail(
  snapshot: Snapshot,
  collection: CollectionName,
  query: ListQuery,
  now: number,
  clock: Timed | undefined,
): RenderedFile {
  return snapshot.rendered(listHref(collection, query) + (clock?.key ?? ''), () => {
    const envelope = listEnvelope(collection, snapshot.summaries(collection), query, now)
    return { body: JSON.stringify(envelope), headers: pageHeaders(envelope.meta.total, envelope.links) }
  })
}
