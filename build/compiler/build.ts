/**
 * `npm run build` and `npm run check` over the compiler: open it on every
 * file, then write every output to dist/ atomically, and the reviewers'
 * preview beside it (preview-artifact.ts), or, for check, stop after
 * validation.
 */
import { join } from 'node:path'
import type { Manifest } from '../../contract/manifest.ts'
import { DistWriter } from '../emit/write.ts'
import { upToDateManifest, writeSourceIndex, type ManifestHead } from './inputs.ts'
import { Compiler, type BuildOutput } from './compiler.ts'
import type { MediaSettings } from '../media/recipes.ts'
import { readCommittedHistory } from '../history/git-history.ts'
import { assertCompleteHistory } from '../history/required.ts'
import type { ApiOrigin } from '../../contract/api-origin.ts'
import { editorProblem } from '../../contract/admin-config.ts'
import { hasPreviewOf, writePreviewArtifact } from './preview-artifact.ts'

export interface BuildOptions {
  /** Project root holding content/; dist/ and .cache/ are written here. */
  root: string
  /** Output folder; defaults to `<root>/dist`. */
  distDir?: string
  /** Use the render cache in `<root>/.cache` (default true). */
  cache?: boolean
  /** Rebuild even when the inputs are unchanged. */
  force?: boolean
  /** Threads rendering Markdown (BUILD_THREADS); default one per core. */
  threads?: number
  /** Fail, leaving dist/ as it was, when content/'s git history is incomplete (REQUIRE_HISTORY). */
  requireHistory?: boolean
  /** The build's clock in milliseconds (default BUILD_TIME, else the time): what is scheduled and expired. */
  clock?: () => number
  /** What images are processed with (default: this code's, build/media/recipes.ts). */
  mediaSettings?: MediaSettings
  /** The origin the records' URLs name (contract/api-origin.ts); default site.yaml's `api_url`. */
  apiOrigin?: ApiOrigin
}

/**
 * An item left out for now: scheduled (released at `at`) or expired (since
 * `at`). `item`: a translation's item (its default-locale file) when the
 * translation waits for that item's release, or came down at its expiry.
 */
export interface WithheldItem {
  path: string
  state: 'scheduled' | 'expired'
  at: string
  item?: string
}

/** What a build did: nothing, since dist/ was up to date; or the files it wrote. */
export type BuildReport =
  | { upToDate: true; manifest: ManifestHead; warnings: []; siteWarnings: [] }
  | {
      upToDate: false
      manifest: Manifest
      files: number
      /** What the build could do only in part (content/ without git history), one line each. */
      warnings: string[]
      /** What site.yaml leaves out that a part of the site needs (the editor's repository), one line each. */
      siteWarnings: string[]
      /** The items scheduled or expired as of the build's clock, in path order. */
      withheld: WithheldItem[]
    }

/** Build `root` into dist/; throws ContentErrors (dist/ untouched) when the content has errors. */
export async function buildSite(options: BuildOptions): Promise<BuildReport> {
  const distDir = options.distDir ?? join(options.root, 'dist')
  const current =
    options.force || options.requireHistory
      ? undefined
      : await upToDateManifest(options.root, distDir, options.clock?.(), options.apiOrigin)
  // The reviewers' preview goes with dist/: a dist/ without its own is built again.
  if (current && (await hasPreviewOf(distDir, current.build.id)))
    return { manifest: current, upToDate: true, warnings: [], siteWarnings: [] }
  // The writer thread starts first, so its start-up overlaps compiling rather than following it.
  const opening = DistWriter.open(distDir)
  // Awaited below; until then its failure must not count as unhandled.
  opening.catch(() => undefined)
  const closeUnused = () => opening.then((writer) => writer.abort()).catch(() => undefined)
  let compiler: Compiler
  try {
    compiler = await Compiler.open({
      root: options.root,
      cache: options.cache,
      threads: options.threads,
      clock: options.clock,
      mediaSettings: options.mediaSettings,
      readHistoryEarly: true,
      apiOrigin: options.apiOrigin,
    })
  } catch (error) {
    await closeUnused()
    throw error
  }
  const state = compiler.current()
  if (!state.ok) {
    await closeUnused()
    await compiler.saveCache()
    throw state.errors
  }
  const writer = await opening
  let output: BuildOutput
  try {
    output = await writeAsMade(compiler, writer, options.requireHistory === true)
    writer.write(output.files)
    // While the writer thread catches up.
    await compiler.saveCache()
  } catch (error) {
    compiler.cancelOffThread()
    await writer.abort()
    // The bodies rendered so far serve the next build; the build's own error is the one reported.
    await compiler.saveCache().catch(() => undefined)
    throw error
  }
  await writer.commit(output.files)
  await compiler.pruneMedia()
  const { files, manifest, warnings } = output
  await writePreviewArtifact(distDir, compiler, manifest.build.id)
  if (options.cache !== false) await writeSourceIndex(options.root, compiler.sourceIndex())
  const editor = editorProblem(state.content.site)
  const siteWarnings = editor ? [editor] : []
  return { manifest, files: files.size, upToDate: false, warnings, siteWarnings, withheld: withheldItems(compiler) }
}

/** The valid items a build leaves out for now, by their release state. */
function withheldItems(compiler: Compiler): WithheldItem[] {
  return compiler
    .preview()
    .items.flatMap(({ path, draft, release }) => (!draft && release.state !== 'live' ? [{ path, ...release }] : []))
}

/**
 * Emit in full, the items, lists and calendars (most of the files) first: they go to disk while the rest is
 * made; the search index, on another thread, is begun before them.
 * With `requireHistory`, fail (dist/ untouched) when content/'s git history is incomplete.
 */
async function writeAsMade(compiler: Compiler, writer: DistWriter, requireHistory: boolean): Promise<BuildOutput> {
  await compiler.startOffThread()
  await compiler.emit('edit', undefined, (files) => writer.write(files))
  const output = (await compiler.emit('full'))!
  if (requireHistory) assertCompleteHistory(compiler.committedHistory()!)
  return output
}

/**
 * Validate all content without writing dist/; throws ContentErrors, then
 * (with `requireHistory`) HistoryRequiredError when content/'s git history is incomplete.
 */
export async function checkContent(
  root: string,
  options: { threads?: number; requireHistory?: boolean; clock?: () => number } = {},
): Promise<{ files: number; withheld: WithheldItem[] }> {
  // Images are checked (format, size) from their headers, not processed.
  const compiler = await Compiler.open({ root, threads: options.threads, processMedia: false, clock: options.clock })
  await compiler.saveCache()
  const state = compiler.current()
  if (!state.ok) throw state.errors
  if (options.requireHistory) assertCompleteHistory(await readCommittedHistory(root))
  return { files: compiler.fileCount(), withheld: withheldItems(compiler) }
}
