/**
 * The manifest: the content index the gateway loads. It names the build, lists
 * every emitted file with its ETag, and carries the list form of every item so
 * the gateway can answer any list query with the shared renderer.
 */
import { createHash } from 'node:crypto'
import { COLLECTION_NAMES, type CollectionName } from '../../contract/collections.ts'
import type { BuiltContent } from './types.ts'
import { MANIFEST_FORMAT, type BuildInfo, type Manifest } from '../../contract/manifest.ts'
import { isoSeconds, type Timeline } from '../pipeline/schedule.ts'

/** The manifest of a build whose files (all but the manifest itself) have these ETags. */
export function createManifest(content: BuiltContent, etags: ReadonlyMap<string, string>, inputHash: string): Manifest {
  const files: Record<string, string> = {}
  // One string hashed once: the same digest as an update per file, without 10,000 calls into the hash.
  let hashed = ''
  for (const path of [...etags.keys()].sort()) {
    const etag = etags.get(path)!
    files[path] = etag
    hashed += `${path}\0${etag}\0`
  }
  const hash = createHash('sha256').update(hashed)
  const counts = {} as Record<CollectionName, number>
  for (const name of COLLECTION_NAMES) counts[name] = content.collections[name].length
  return {
    format: MANIFEST_FORMAT,
    build: {
      id: hash.digest('hex').slice(0, 16),
      content_updated_at: content.contentUpdatedAt,
      counts,
      ...releaseTimes(content.timeline),
    },
    input_hash: inputHash,
    files,
    collections: content.summaries,
  }
}

/** The build's release times as the manifest states them (pipeline/schedule.ts). */
function releaseTimes(timeline: Timeline): Pick<BuildInfo, 'next_release_at' | 'last_release_at'> {
  return {
    next_release_at: timeline.next === undefined ? null : isoSeconds(timeline.next),
    last_release_at: timeline.last === undefined ? null : isoSeconds(timeline.last),
  }
}
