/**
 * GET /api/people and /api/people/{slug}: rendered here from the build's
 * lists with the one renderer (contract/people-index.ts) the MCP tools use,
 * cached per build. In the request's locale (`locale`, else
 * Accept-Language), as the lists are.
 */
import { defineHandler, type H3Event } from 'h3'
import type { CollectionName } from '../../contract/model/model.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'
import { peopleEnvelope, personHref, personItemsEnvelope, type PersonQuery } from '../../contract/people-index.ts'
import type { ParameterError } from '../../contract/query-values.ts'
import { parametersOf } from '../../contract/routes/index.ts'
import { readQuery } from '../../contract/routes/query-reader.ts'
import { people as peopleSpec, person as personSpec } from '../../contract/routes/people.ts'
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { localeHeaders, localesOf, requestLocale } from '../content/locales.ts'
import { peopleIndexOf } from '../content/people.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { invalidParameters, JSON_TYPE_NAME, pageHeaders, readSnapshot } from './read.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)

/** The locale a request reads: another than the default, else undefined (and whether Accept-Language chose it). */
function readLocale(event: H3Event, snapshot: Snapshot, errors: ParameterError[]) {
  const chosen = requestLocale(event, snapshot, errors)
  const locale = chosen && chosen.locale !== localesOf(snapshot).default ? chosen.locale : undefined
  return { chosen, locale }
}

/** Render `body` once per build under `key`, and answer it with the request's locale headers. */
function answer(
  event: H3Event,
  snapshot: Snapshot,
  now: () => Date,
  key: string,
  chosen: ReturnType<typeof requestLocale>,
  render: () => { body: string; headers?: Record<string, string> },
) {
  const file = snapshot.peekRendered(key) ?? snapshot.rendered(key, render)
  return respondWithFile(event, file, {
    contentType: JSON_TYPE,
    cacheControl: CACHE.content,
    build: { snapshot, now: now().getTime() },
    headers: { ...file.headers, ...localeHeaders(chosen) },
    ...(!chosen?.negotiated && { memo: { accept: JSON_TYPE_NAME } }),
  })
}

/** `now`: the gateway's clock, which caps Cache-Control at the build's next release or expiry. */
export function peopleRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const errors: ParameterError[] = []
    const { collection } = readQuery(parametersOf(peopleSpec, snapshot.model), event.url.searchParams, errors) as {
      collection?: CollectionName
    }
    const { chosen, locale } = readLocale(event, snapshot, errors)
    if (errors.length) throw invalidParameters(errors)
    const key = `/api/people?collection=${collection ?? ''}&locale=${locale ?? ''}`
    return answer(event, snapshot, now, key, chosen, () => ({
      body: JSON.stringify(peopleEnvelope(snapshot.model, peopleIndexOf(snapshot, locale), collection, locale)),
    }))
  })
}

export function personRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const snapshot = readSnapshot(event, store)
    const slug = event.context.params?.slug ?? ''
    const errors: ParameterError[] = []
    const values = readQuery(parametersOf(personSpec, snapshot.model), event.url.searchParams, errors) as Omit<
      PersonQuery,
      'locale'
    >
    const { chosen, locale } = readLocale(event, snapshot, errors)
    const found = SLUG_RE.test(slug) ? peopleIndexOf(snapshot, locale).get(slug) : undefined
    if (!found)
      throw problem('not-found', {
        detail: `No published item names a person with the slug "${slug.slice(0, 120)}"${chosen ? ` in ${chosen.locale}` : ''}. List /api/people${locale ? `?locale=${locale}` : ''} to find slugs.`,
      })
    if (errors.length) throw invalidParameters(errors)
    const query: PersonQuery = { ...values, ...(locale !== undefined && { locale }) }
    return answer(event, snapshot, now, personHref(slug, query), chosen, () => {
      const envelope = personItemsEnvelope(snapshot.model, found, query)
      return { body: JSON.stringify(envelope), headers: pageHeaders(envelope.meta.total, envelope.links) }
    })
  })
}
