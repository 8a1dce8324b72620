/**
 * Every other GET: the routes of the table the build answers with a file
 * (openapi.json, llms.txt, .well-known/api-catalog, docs/, feeds, calendars,
 * problem pages, images, the editor) straight from the snapshot; a folder path serves its
 * index.html. Anything else is a JSON 404.
 */
import { defineHandler } from 'h3'
import { extname } from 'node:path'
import type { ArtifactStore } from '../artifacts.ts'
import { CACHE, CONTENT_TYPES } from '../../contract/headers.ts'
import { cacheOfFile, isInternalPath } from '../../contract/routes/index.ts'
import { READ } from '../../contract/routes/route.ts'
import { assertMethod } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { DOCUMENT_HEADERS, documentType } from '../../contract/documents.ts'

/** What every file of the build answers: GET and HEAD. */
const FILES = { methods: READ, path: '/' }

/** Netlify's own configuration files: published in dist/ but never served, on the CDN or here. */
const HIDDEN = new Set(['/_redirects', '/_headers'])

/** `now`: the gateway's clock, which caps Cache-Control at the build's next release or expiry. */
export function staticRoute(store: ArtifactStore, now: () => Date) {
  return defineHandler((event) => {
    const path = event.url.pathname
    // Internal build files (the manifest, the change logs, the search indexes): never served.
    if (isInternalPath(decodedPath(path))) throw notFound(path)
    const snapshot = store.current()
    // Extension-less paths also find `.json` documents and `.html` pages (e.g. /problems/not-found).
    const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}.json`, `${path}.html`]
    for (const candidate of candidates) {
      const file = HIDDEN.has(candidate) ? undefined : snapshot?.file(candidate.slice(1))
      if (!file) continue
      assertMethod(event, FILES)
      const contentType = documentType(path) ?? CONTENT_TYPES[extname(candidate)] ?? 'application/octet-stream'
      return respondWithFile(event, file, {
        contentType,
        // The table's policy where a route sets one (the images: immutable).
        cacheControl: CACHE[cacheOfFile(path) ?? 'document'],
        headers: DOCUMENT_HEADERS[path],
        build: { snapshot: snapshot!, now: now().getTime() },
        memo: {},
      })
    }
    // A folder with an index: redirect to the canonical trailing-slash form.
    if (!path.endsWith('/') && snapshot?.has(`${path.slice(1)}/index.html`)) {
      return new Response(null, { status: 308, headers: { location: `${path}/`, 'cache-control': CACHE.document } })
    }
    throw notFound(path)
  })
}

const notFound = (path: string) =>
  problem('not-found', {
    detail: `Nothing at ${path.slice(0, 200)}. The API reference is at /docs/ and /openapi.json.`,
  })

/** The path with its escapes decoded (`/%5Fbuild/`), so no spelling of a folder slips past the check. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
