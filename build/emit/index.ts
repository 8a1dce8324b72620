/**
 * Stage 5, emit: every emitter contributes files; the manifest, written last,
 * indexes them all. The result is a plain map of path → content, written
 * atomically by write.ts.
 */
import { MANIFEST_FILE } from '../contract/paths.ts'
import { emitApi } from './api.ts'
import { emitApiCatalog } from './api-catalog.ts'
import { emitDocs } from './docs.ts'
import { emitLlms } from './llms.ts'
import { createManifest } from './manifest.ts'
import { type Manifest } from '../contract/manifest.ts'
import { emitNetlify } from './netlify.ts'
import { emitOpenApi } from './openapi.ts'
import { emitSearchIndex } from './search-index.ts'
import type { BuiltContent, Emitter } from './types.ts'

/** Add new outputs (OpenAPI, llms.txt, search index, …) here. */
export const EMITTERS: Emitter[] = [emitApi, emitSearchIndex, emitOpenApi, emitDocs, emitLlms, emitApiCatalog]

/** Emitters of indexes over the files of all the others (Netlify's routing); they run last. */
export const INDEX_EMITTERS: Emitter[] = [emitNetlify]

export function emitAll(content: BuiltContent, inputHash: string): { files: Record<string, string>; manifest: Manifest } {
  const files: Record<string, string> = {}
  for (const emit of [...EMITTERS, ...INDEX_EMITTERS]) {
    for (const [path, body] of Object.entries(emit(content, files))) {
      if (path in files) throw new Error(`two emitters wrote ${path}`)
      files[path] = body
    }
  }
  const manifest = createManifest(content, files, inputHash)
  files[MANIFEST_FILE] = JSON.stringify(manifest)
  return { files, manifest }
}
