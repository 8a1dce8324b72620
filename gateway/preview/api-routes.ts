/**
 * GET /api/preview/{collection}, /api/preview/{collection}/{slug} and
 * /api/preview/search: the public routes' parameters and renderer over the
 * preview artifact (artifact.ts), drafts and scheduled items included, each
 * record with its `state`. The credential is checked before anything else
 * (RFC 6750: 401 without one, 403 `insufficient_scope` without the preview
 * scope), and every answer, problems included, is `private, no-store`.
 */
import { defineHandler, type EventHandler, type H3Event } from 'h3'
import { buildFile } from '../../contract/etag.ts'
import { JSON_TYPE } from '../../contract/headers.ts'
import { selectFields } from '../../contract/list-query.ts'
import { collectionOf, listed, type CollectionModel } from '../../contract/model/model.ts'
import { PREVIEW_CACHE, PREVIEW_HEADERS, PREVIEW_SCOPE } from '../../contract/preview.ts'
import { PREVIEW_API_PATH } from '../../contract/public-paths.ts'
import { parseFields, parseListQuery } from '../../contract/query.ts'
import type { ParameterError } from '../../contract/query-values.ts'
import { listEnvelope } from '../../contract/render.ts'
import { parseSearchQuery, searchHref } from '../../contract/search-query.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import type { Guard } from '../auth/guard.ts'
import { isMultilingual, localeHeaders, localesOf, requestLocale } from '../content/locales.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { invalidParameters, pageHeaders, readSnapshot } from '../routes/read.ts'
import { fullOf, stateOf, type PreviewSource } from './artifact.ts'
import { searchPreview } from './search.ts'

export interface PreviewDeps {
  store: ArtifactStore
  source: PreviewSource
  guard: Guard
  now: () => Date
}

/** The public routes' links, under the preview's path. */
const previewHref = (href: string | null) => (href === null ? null : href.replace(/^\/api\//, `${PREVIEW_API_PATH}/`))

/** Credential first, then Accept and the build: a caller without the scope learns nothing else. */
async function begin(event: H3Event, deps: PreviewDeps): Promise<Snapshot> {
  await deps.guard.requireScope(event, PREVIEW_SCOPE)
  return readSnapshot(event, deps.store)
}

function answer(event: H3Event, body: unknown, headers: Record<string, string> = {}) {
  return respondWithFile(event, buildFile(JSON.stringify(body)), {
    contentType: JSON_TYPE,
    cacheControl: PREVIEW_CACHE,
    // The answer depends on the credential: no cache may give it to another caller.
    headers: { ...PREVIEW_HEADERS, vary: 'Authorization', 'x-robots-tag': 'noindex', ...headers },
  })
}

function collectionIn(event: H3Event, snapshot: Snapshot): CollectionModel {
  const name = event.context.params?.collection ?? ''
  const def = collectionOf(snapshot.model, name)
  if (!def)
    throw problem('not-found', {
      detail: `There is no collection "${name.slice(0, 120)}"; collections are ${listed(snapshot.model.names)}.`,
    })
  return def
}

/** The request's locale other than the default one, if any. */
function otherLocale(snapshot: Snapshot, chosen: { locale: string } | undefined): string | undefined {
  return chosen && chosen.locale !== localesOf(snapshot).default ? chosen.locale : undefined
}

export function previewListRoute(deps: PreviewDeps): EventHandler {
  return defineHandler(async (event) => {
    const snapshot = await begin(event, deps)
    const def = collectionIn(event, snapshot)
    const params = event.url.searchParams
    const parsed = parseListQuery(params, def, snapshot.model)
    const errors = parsed.ok ? [] : [...parsed.errors]
    const chosen = requestLocale(event, snapshot, errors, params)
    if (!parsed.ok || errors.length) throw invalidParameters(errors)
    const locale = otherLocale(snapshot, chosen)
    const { fields, ...query } = { ...parsed.query, ...(locale && { locale }) }
    const preview = await deps.source.of(snapshot)
    const envelope = listEnvelope(def, preview.summaries(def, locale), query, deps.now().getTime())
    // `fields` picks among the record's own fields; the state always goes with it.
    const data = fields
      ? envelope.data.map((r) => ({ ...selectFields(r, fields), state: r.state, release_at: r.release_at }))
      : envelope.data
    const withFields = fields ? `${envelope.links.self.includes('?') ? '&' : '?'}fields=${fields.join(',')}` : ''
    const links = {
      self: `${previewHref(envelope.links.self)}${withFields}`,
      next: envelope.links.next && `${previewHref(envelope.links.next)}${withFields}`,
      prev: envelope.links.prev && `${previewHref(envelope.links.prev)}${withFields}`,
    }
    return answer(
      event,
      { data, meta: envelope.meta, links },
      { ...pageHeaders(envelope.meta.total, links), ...localeHeaders(chosen) },
    )
  })
}

export function previewItemRoute(deps: PreviewDeps): EventHandler {
  return defineHandler(async (event) => {
    const snapshot = await begin(event, deps)
    const def = collectionIn(event, snapshot)
    const slug = event.context.params?.slug ?? ''
    const errors: ParameterError[] = []
    const chosen = requestLocale(event, snapshot, errors)
    const fields = parseFields(event.url.searchParams, snapshot.model, def, 'full', errors)
    if (errors.length) throw invalidParameters(errors)
    const preview = await deps.source.of(snapshot)
    const entry = preview.find(def.name, slug, chosen?.locale)
    if (!entry)
      throw problem('not-found', {
        detail: `No ${def.name} item has the slug "${slug.slice(0, 120)}", in any state. List ${PREVIEW_API_PATH}/${def.name} to find slugs.`,
      })
    const record = fields ? { ...selectFields(entry.record, fields), ...stateOf(entry) } : fullOf(entry)
    return answer(event, record, localeHeaders(chosen, entry.locale))
  })
}

export function previewSearchRoute(deps: PreviewDeps): EventHandler {
  return defineHandler(async (event) => {
    const snapshot = await begin(event, deps)
    const parsed = parseSearchQuery(event.url.searchParams, snapshot.model)
    const errors = parsed.ok ? [] : [...parsed.errors]
    const chosen = requestLocale(event, snapshot, errors)
    if (!parsed.ok || errors.length) throw invalidParameters(errors)
    const locale = otherLocale(snapshot, chosen)
    const query = locale ? { ...parsed.query, locale } : parsed.query
    const preview = await deps.source.of(snapshot)
    const result = searchPreview(preview, snapshot.model, query, deps.now().getTime(), isMultilingual(snapshot))
    const data = result.hits.map(({ entry, score, snippet, section, matched_terms }) => ({
      id: entry.record.id,
      type: entry.record.type,
      collection: entry.collection,
      slug: entry.slug,
      title: entry.record.title,
      summary: entry.record.summary,
      url: entry.record.url,
      tags: entry.record.tags,
      published_at: entry.record.published_at,
      updated_at: entry.record.updated_at,
      ...stateOf(entry),
      href: `${PREVIEW_API_PATH}/${entry.collection}/${entry.slug}${locale ? `?locale=${locale}` : ''}`,
      score,
      snippet,
      section,
      matched_terms,
    }))
    const pages = Math.ceil(result.total / query.limit)
    const prevPage = Math.min(query.page - 1, pages)
    const links = {
      self: previewHref(searchHref(query))!,
      next: query.page < pages ? previewHref(searchHref({ ...query, page: query.page + 1 })) : null,
      prev: prevPage >= 1 ? previewHref(searchHref({ ...query, page: prevPage })) : null,
    }
    const meta = {
      query: query.query,
      limit: query.limit,
      page: query.page,
      count: data.length,
      total: result.total,
      pages,
    }
    return answer(event, { data, meta, links }, { ...pageHeaders(result.total, links), ...localeHeaders(chosen) })
  })
}
