/**
 * GET /api/{collection} and /api/{collection}/{slug}. Page 1 of every limit
 * and every item are pre-rendered bytes from the build; any other list query
 * is rendered here with the build's own renderer.
 */
import { defineHandler, type H3Event } from 'h3'
import { isCollectionName, type CollectionName } from '../../contract/collections.ts'
import { itemFile, listFile } from '../../contract/paths.ts'
import { isPrerendered, listHref, parseListQuery, type ListQuery } from '../../contract/query.ts'
import { filterItems, listEnvelope, paginate } from '../../contract/render.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import type { RenderedFile } from '../snapshot.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { invalidParameters, JSON_TYPE_NAME, pageHeaders, readSnapshot } from './read.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)

export function listRoute(store: ArtifactStore) {
  return defineHandler((event) => {
    const { snapshot, collection } = prepare(event, store)
    const parsed = parseListQuery(event.url.searchParams)
    if (!parsed.ok) throw invalidParameters(parsed.errors)
    const { query } = parsed
    const prerendered = isPrerendered(query) ? snapshot.file(listFile(collection, query.limit)) : undefined
    const rendered = prerendered ? undefined : renderLongTail(snapshot, collection, query)
    // Page 1 of the whole collection: the total is its length; other pages filter it once per rendered body.
    const headers = rendered ? rendered.headers : listMeta(snapshot, collection, query)
    return respondWithFile(event, (prerendered ?? rendered)!, {
      contentType: JSON_TYPE,
      cacheControl: CACHE.content,
      headers,
      memo: { snapshot, accept: JSON_TYPE_NAME },
    })
  })
}

export function itemRoute(store: ArtifactStore) {
  return defineHandler((event) => {
    const { snapshot, collection } = prepare(event, store)
    const slug = event.context.params?.slug ?? ''
    const file = SLUG_RE.test(slug) ? snapshot.file(itemFile(collection, slug)) : undefined
    if (!file) {
      throw problem('not-found', {
        detail: `No published ${collection} item has the slug "${slug.slice(0, 120)}". List /api/${collection} to find slugs.`,
      })
    }
    return respondWithFile(event, file, {
      contentType: JSON_TYPE,
      cacheControl: CACHE.content,
      memo: { snapshot, accept: JSON_TYPE_NAME },
    })
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
 * A list no file has, rendered once per build with its headers: a body is
 * rendered for one canonical query, so its headers never change, and
 * filtering every item of a collection on each long-tail request cost more
 * than the rest of the answer.
 */
function renderLongTail(snapshot: Snapshot, collection: CollectionName, query: ListQuery): RenderedFile {
  return snapshot.rendered(listHref(collection, query), () => ({
    body: JSON.stringify(listEnvelope(collection, snapshot.summaries(collection), query)),
    headers: listMeta(snapshot, collection, query),
  }))
}

/** Link (next/prev) and X-Total-Count headers, from the same pagination as the body. */
function listMeta(snapshot: Snapshot, collection: CollectionName, query: ListQuery): Record<string, string> {
  const total = filterItems(snapshot.summaries(collection), query).length
  return pageHeaders(total, paginate(collection, total, query).links)
}
