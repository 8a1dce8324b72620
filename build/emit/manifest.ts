/**
 * The manifest: the content index the gateway loads. It names the build, lists
 * every emitted file with its ETag, and carries the list form of every item so
 * the gateway can answer any list query with the shared renderer.
 */
import { createHash } from 'node:crypto'
import { COLLECTION_NAMES, type CollectionName } from '../contract/collections.ts'
import { etagOf } from '../contract/etag.ts'
import type { BuiltContent } from './types.ts'
import { MANIFEST_FORMAT, type Manifest } from '../contract/manifest.ts'

/** `known` holds ETags already computed (the watch mode's), so only new bodies are hashed. */
export function createManifest(content: BuiltContent, files: Record<string, string>, inputHash: string, known?: Readonly<Record<string, string>>): Manifest {
  const etags: Record<string, string> = {}
  const hash = createHash('sha256')
  for (const path of Object.keys(files).sort()) {
    const etag = known?.[path] ?? etagOf(files[path]!)
    etags[path] = etag
    hash.update(`${path}\0${etag}\0`)
  }
  const counts = {} as Record<CollectionName, number>
  for (const name of COLLECTION_NAMES) counts[name] = content.collections[name].length
  return {
    format: MANIFEST_FORMAT,
    build: { id: hash.digest('hex').slice(0, 16), built_at: content.builtAt, counts },
    input_hash: inputHash,
    files: etags,
    collections: content.summaries,
  }
}
