/**
 * GET /api/tags and /api/tags/{tag}. Every answer of /api/tags and the first
 * page of each tag's items are the build's files; a tag's other pages and
 * filters are rendered here with the same renderer (contract/tags.ts),
 * cached per build. In the request's locale (`locale`, else
 * Accept-Language), as the lists are.
 */
import { defineHandler, type H3Event } from 'h3'
import type { CollectionName } from '../../contract/model/model.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { TAG_PATTERN } from '../../contract/patterns.ts'
import type { ParameterError } from '../../contract/query-values.ts'
import { parametersOf } from '../../contract/routes/index.ts'
import { readQuery } from '../../contract/routes/query-reader.ts'
import { tag as tagRouteSpec, tags as tagsRouteSpec, TAG_PRERENDERED_LIMITS } from '../../contract/routes/taxonomy.ts'
import {
  isPrerenderedTagPage,
  tagEntry,
  tagHref,
  tagItems,
  tagItemsEnvelope,
  tagItemsFile,
  tagsFile,
  type TagQuery,
} from '../../contract/tags.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { localeHeaders, localesOf, requestLocale } from '../content/locales.ts'
import { tagIndexOf, tagLabels } from '../content/tags.ts'
import { problem, unavailable } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { invalidParameters, JSON_TYPE_NAME, pageHeaders, readSnapshot } from './read.ts'

const TAG_RE = new RegExp(TAG_PATTERN)

/** The locale a request reads: another than the default, else undefined (and whether Accept-Language chose it). */
function readLocale(event: H3Event, snapshot: Snapshot, errors: ParameterError[]) {
  const chosen = requestLocale(event, snapshot, errors)
  const locale = chosen && chosen.locale !== localesOf(snapshot).default ? chosen.locale : undefined
  return { chosen, locale }
}

/** `now`: the gateway's clock, which caps Cache-Control at the build's next release or expiry. */
export function tagsRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const errors: ParameterError[] = []
    const { collection } = readQuery(parametersOf(tagsRouteSpec, snapshot.model), event.url.searchParams, errors) as {
      collection?: CollectionName
    }
    const { chosen, locale } = readLocale(event, snapshot, errors)
    if (errors.length) throw invalidParameters(errors)
    const file = snapshot.file(tagsFile(collection, locale))
    if (!file) throw unavailable('This build has no tag index; rebuild with `npm run build`.')
    return respondWithFile(event, file, {
      contentType: JSON_TYPE,
      cacheControl: CACHE.content,
      headers: localeHeaders(chosen),
      build: { snapshot, now: now().getTime() },
      ...(!chosen?.negotiated && { memo: { accept: JSON_TYPE_NAME } }),
    })
  })
}

export function tagRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const tag = event.context.params?.tag ?? ''
    const errors: ParameterError[] = []
    const values = readQuery(parametersOf(tagRouteSpec, snapshot.model), event.url.searchParams, errors) as Omit<
      TagQuery,
      'locale'
    >
    const { chosen, locale } = readLocale(event, snapshot, errors)
    const index = tagIndexOf(snapshot, locale)
    if (!TAG_RE.test(tag) || !index.has(tag)) {
      const where = chosen ? ` in ${chosen.locale}` : ''
      throw problem('not-found', {
        detail: `No published item has the tag "${tag.slice(0, 60)}"${where}. List /api/tags${locale ? `?locale=${locale}` : ''} to find tags.`,
      })
    }
    if (errors.length) throw invalidParameters(errors)
    const query: TagQuery = { ...values, ...(locale !== undefined && { locale }) }
    const items = tagItems(snapshot.model, index, tag)
    const options = {
      contentType: JSON_TYPE,
      cacheControl: CACHE.content,
      build: { snapshot, now: now().getTime() },
      ...(!chosen?.negotiated && { memo: { accept: JSON_TYPE_NAME } }),
    }
    if (isPrerenderedTagPage(query, TAG_PRERENDERED_LIMITS)) {
      const file = snapshot.file(tagItemsFile(tag, query.limit, locale))
      if (file) {
        const pages = Math.ceil(items.length / query.limit)
        const next = pages > 1 ? tagHref(tag, { ...query, page: 2 }) : null
        const headers = { ...pageHeaders(items.length, { next, prev: null }), ...localeHeaders(chosen) }
        return respondWithFile(event, file, { ...options, headers })
      }
    }
    const key = tagHref(tag, query)
    const rendered =
      snapshot.peekRendered(key) ??
      tagLabels(snapshot).then((labels) =>
        snapshot.rendered(key, () => {
          const envelope = tagItemsEnvelope(tagEntry(index, labels, tag, snapshot.model.names, locale), items, query)
          return { body: JSON.stringify(envelope), headers: pageHeaders(envelope.meta.total, envelope.links) }
        }),
      )
    return Promise.resolve(rendered).then((file) =>
      respondWithFile(event, file, { ...options, headers: { ...file.headers, ...localeHeaders(chosen) } }),
    )
  })
}
