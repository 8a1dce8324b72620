/**
 * What the compiled files name beyond their own bytes: the images they use
 * (build inputs the watch mode follows) and their state as content/'s
 * history sees it.
 */
import { dirname, join } from 'node:path'
import type { SourceFile } from '../core/sources.ts'
import { SITE_PATH } from '../core/site.ts'
import { blobId } from '../history/git-history.ts'
import type { FileState } from '../history/types.ts'
import type { CompiledFile } from '../pipeline/compile.ts'

/** The compiled files that use one of `assets` (image paths). */
export function usersOf(compiled: Iterable<CompiledFile>, assets: ReadonlySet<string>): CompiledFile[] {
  return [...compiled].filter((c) => c.media.some((m) => m.path && assets.has(m.path)))
}

/** Every image file the compiled files name, in path order (present or not). */
export function assetPaths(compiled: Iterable<CompiledFile>): string[] {
  const paths = new Set<string>()
  for (const file of compiled) for (const ref of file.media) if (ref.path) paths.add(ref.path)
  return [...paths].sort()
}

/**
 * The folders (absolute) of the images the files at `paths` use (every
 * compiled file's when none are given, or site.yaml is one of them, which
 * compiles them all): what the watch mode follows.
 */
export function mediaFolders(
  root: string,
  compiled: ReadonlyMap<string, CompiledFile>,
  paths?: readonly string[],
): string[] {
  const some = paths && !paths.includes(SITE_PATH)
  const files = some ? paths.flatMap((p) => compiled.get(p) ?? []) : compiled.values()
  const folders = new Set<string>()
  for (const file of files) {
    for (const ref of file.media) if (ref.path) folders.add(dirname(join(root, ref.path)))
    // An item in a folder of its own (`my-post/index.md`): its translations appear there too.
    if (file.source.path.split('/').length === 4) folders.add(dirname(join(root, file.source.path)))
  }
  return [...folders]
}

/** Every compiled file as content/'s history sees it. */
export function workingFiles(compiled: Iterable<CompiledFile>): Map<string, FileState> {
  const working = new Map<string, FileState>()
  for (const file of compiled) {
    working.set(file.source.path, {
      collection: file.collection,
      key: file.key,
      // As the name claims it, like git-history.ts reads it (the replay matches it to site.yaml's locales).
      ...(file.source.locale !== undefined && { locale: file.source.locale }),
      slug: file.slug,
      published: !file.draft,
      blob: blobOf(file.source),
      window: file.window,
      ...(file.aliases.length && { aliases: file.aliases.map((a) => a.alias) }),
    })
  }
  return working
}

const blobIds = new WeakMap<SourceFile, string>()

/** The git blob id of a source, computed once per read of the file. */
function blobOf(source: SourceFile): string {
  let id = blobIds.get(source)
  if (id === undefined) blobIds.set(source, (id = blobId(source.raw)))
  return id
}
