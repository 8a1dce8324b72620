/**
 * The manifest: the content index the gateway loads. It names the build, lists
 * every emitted file with its ETag, and carries the list form of every item so
 * the gateway can answer any list query with the shared renderer.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { BuildFile, BuildInfo, Manifest, ManifestLocales } from '../../contract/manifest.ts'
import { MANIFEST_FORMAT } from '../../contract/manifest.ts'
import type { BuiltContent } from './types.ts'
import { isoSeconds, type Timeline } from '../pipeline/schedule.ts'
import { deprecatedFieldsOf } from '../openapi/document.ts'

/** The build's files (a snapshot later edits leave alone), the path of the manifest among them, and its id. */
export interface BuildIndex {
  id: string
  files: ReadonlyMap<string, BuildFile>
  manifestPath: string
}

/**
 * The manifest of a build. Its `files` (every file but the manifest, by
 * path, with its ETag) are listed when first read: the manifest file reads
 * them, an edit in the watch mode does not (its server answers from the
 * files themselves), and the listing grows with the site.
 */
export function createManifest(content: BuiltContent, build: BuildIndex, inputHash: string): Manifest {
  const counts = {} as Record<CollectionName, number>
  for (const name of content.site.model.names) counts[name] = content.collections[name]!.length
  const deprecated = deprecatedFieldsOf(content.site)
  let files: Record<string, string> | undefined
  const manifest = {
    format: MANIFEST_FORMAT,
    build: { id: build.id, content_updated_at: content.contentUpdatedAt, counts, ...scheduleTimes(content.timeline) },
    input_hash: inputHash,
  } as Omit<Manifest, 'files' | 'collections'>
  Object.defineProperty(manifest, 'files', {
    enumerable: true,
    get: () => (files ??= listFiles(build)),
  })
  return Object.assign(manifest, {
    collections: content.summaries,
    ...(Object.keys(deprecated).length > 0 && { deprecated_fields: deprecated }),
    ...(content.locales && { locales: manifestLocales(content) }),
    model: content.site.model,
  }) as Manifest
}

function manifestLocales(content: BuiltContent): ManifestLocales {
  const { site } = content
  const collections: ManifestLocales['collections'] = {}
  for (const [locale, view] of Object.entries(content.locales ?? {})) collections[locale] = view.summaries
  return { default: site.language, available: site.locales, fallback: site.fallback, collections }
}

function listFiles(build: BuildIndex): Record<string, string> {
  const files: Record<string, string> = {}
  for (const path of [...build.files.keys()].sort())
    if (path !== build.manifestPath) files[path] = build.files.get(path)!.etag
  return files
}

/** The build's release times as the manifest states them (pipeline/schedule.ts). */
function scheduleTimes(timeline: Timeline): Pick<BuildInfo, 'next_release_at' | 'last_release_at'> {
  return {
    next_release_at: timeline.next === undefined ? null : isoSeconds(timeline.next),
    last_release_at: timeline.last === undefined ? null : isoSeconds(timeline.last),
  }
}
