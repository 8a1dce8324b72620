/**
 * Every output of the build, as emitters the compiler runs (build/compiler/).
 * Add new outputs here; the manifest, written last by the compiler, indexes
 * them all.
 */
import { emitAdmin } from './admin.ts'
import { createApiEmitter } from './api.ts'
import { emitApiCatalog } from './api-catalog.ts'
import { createCalendarEmitter } from './calendars.ts'
import { emitChanges } from './changes.ts'
import { emitDocs } from './docs.ts'
import { emitFeeds } from './feeds.ts'
import { emitLifecycle } from './lifecycle.ts'
import { emitLlms } from './llms.ts'
import { createMediaEmitter } from './media.ts'
import { emitNetlify } from './netlify.ts'
import { emitOpenApi } from './openapi.ts'
import { emitSearchIndex } from './search-index.ts'
import { emitRedirects } from './redirects.ts'
import { emitSitemap } from './sitemap.ts'
import { emitTags } from './tags.ts'
import type { Emitter } from './types.ts'

/** A fresh set of emitters: some keep what they rendered last, to render only what changed. */
export function createEmitters(): Emitter[] {
  return [
    createApiEmitter(),
    createCalendarEmitter(),
    createMediaEmitter(),
    emitSearchIndex,
    emitFeeds,
    emitChanges,
    emitRedirects,
    emitTags,
    emitSitemap,
    emitOpenApi,
    emitDocs,
    emitLifecycle,
    emitLlms,
    emitApiCatalog,
    emitAdmin,
    emitNetlify,
  ]
}
