/**
 * `previewPlugin(compiler)`: the author's preview under /preview/, mounted by
 * the dev server only (never by `npm start` or the Netlify function, and never
 * written to dist/). Pages are rendered per request from the compiler's
 * current state, so they always show the last save: the item, or its errors.
 */
import { defineHandler, type H3, type H3Event } from 'h3'
import { FastResponse } from 'srvx'
import type { Compiler } from '../../build/dev.ts'
import type { CollectionName } from '../../contract/model/model.ts'
import { baseHeaderRecord, CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { PREVIEW_PREFIX } from '../../contract/public-paths.ts'
import { READ } from '../../contract/routes/route.ts'
import { assertMethod } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'
import { indexPage, itemPage, type PreviewState } from './pages.ts'

/** The pages show the body's images from wherever they are hosted; scripts and styles stay inline only. */
const PREVIEW_CSP =
  "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** The preview's pages: read with GET and HEAD. */
const PAGES = { methods: READ, path: PREVIEW_PREFIX }

export function previewPlugin(compiler: Compiler): (app: H3) => void {
  const state = (): PreviewState => {
    const { revision, items, asOf } = compiler.preview()
    const current = compiler.current()
    const site = compiler.siteSettings()
    const titles = {} as Record<CollectionName, string>
    for (const c of site?.model.names ?? []) titles[c] = site?.collections[c]?.title ?? c
    return {
      revision,
      items,
      asOf,
      language: site?.language ?? 'en',
      errors: current.ok ? [] : current.errors.errors.map((e) => e.message),
      siteName: site?.name ?? 'Content',
      collectionTitles: titles,
      labels: Object.fromEntries((site?.model.names ?? []).map((c) => [c, site!.collections[c]!.label])),
      mediaOrigin: site?.apiUrl,
    }
  }
  const html = (event: H3Event, body: string, status = 200) => {
    const headers = baseHeaderRecord(requestIdOf(event), 'text/html; charset=utf-8', CACHE.none)
    headers['content-security-policy'] = PREVIEW_CSP
    return new FastResponse(event.req.method === 'HEAD' ? null : body, { status, headers })
  }
  return (app) => {
    app.all(
      `${PREVIEW_PREFIX}/_revision`,
      defineHandler((event) => {
        assertMethod(event, PAGES)
        const body = JSON.stringify({ revision: compiler.preview().revision })
        return new FastResponse(body, { headers: baseHeaderRecord(requestIdOf(event), JSON_TYPE, CACHE.none) })
      }),
    )
    app.all(
      `${PREVIEW_PREFIX}/`,
      defineHandler((event) => {
        assertMethod(event, PAGES)
        return html(event, indexPage(state()))
      }),
    )
    app.all(
      `${PREVIEW_PREFIX}/:collection/:slug`,
      defineHandler((event) => {
        assertMethod(event, PAGES)
        const collection = event.context.params?.collection ?? ''
        const slug = decodeURIComponent(event.context.params?.slug ?? '')
        if (!Object.hasOwn(compiler.siteSettings()?.collections ?? {}, collection))
          throw problem('not-found', { detail: `There is no collection "${collection.slice(0, 120)}".` })
        const current = state()
        // `?locale=de`: the item's translation with that slug; without it, the default locale's item; else
        // (a slug only a translation has, or a locale without it, as a locale falling back shows) any locale's.
        const locale = event.url.searchParams.get('locale') ?? current.language
        const bySlug = current.items.filter((i) => i.collection === collection && i.slug === slug)
        const item =
          bySlug.find((i) => i.locale === locale) ?? bySlug.find((i) => i.locale === current.language) ?? bySlug[0]
        // A page for a slug that does not exist (yet) still reloads, so it shows the item once it is saved.
        return html(event, itemPage(current, item, collection, slug), item || current.errors.length ? 200 : 404)
      }),
    )
  }
}
