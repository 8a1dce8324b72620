import type { CollectionName } from '../../contract/model/model.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { ContentRecord, FullRecord } from '../../contract/records.ts'
import type { SiteConfig } from '../core/site.ts'
import type { ContentHistory } from '../history/types.ts'
import type { Timeline } from '../pipeline/schedule.ts'

/** Everything the build knows after validation and rendering: the published content, sorted. */
export interface BuiltContent {
  site: SiteConfig
  /** Full records of published items per collection, newest first. */
  collections: Record<CollectionName, FullRecord[]>
  /** The same items in list form (no body), same order. */
  summaries: Record<CollectionName, ContentRecord[]>
  /** The newest updated_at of all published items: what the content is as of (never the build's clock). */
  contentUpdatedAt: string
  /** The build's clock (seconds since the epoch) the content is published as of (BUILD_TIME, else the time). */
  asOf: number
  /** The releases and expiries around it: the content is the same from `last` until `next` (pipeline/schedule.ts). */
  timeline: Timeline
  /**
   * A multilingual site's other locales (site.locales but the default), by tag: each one's
   * translations, plus the default locale's untranslated items where it falls back.
   */
  locales?: Record<string, LocaleContent>
}

/** One locale's published content: its records per collection, newest first (default-locale ones where it falls back). */
export interface LocaleContent {
  locale: string
  /** Whether the default locale's items stand in for missing translations (site.yaml's locale_fallback). */
  fallback: boolean
  collections: Record<CollectionName, FullRecord[]>
  summaries: Record<CollectionName, ContentRecord[]>
  contentUpdatedAt: string
}

/**
 * Files to write, keyed by path relative to dist/: their text, or a file an
 * emitter made before and kept (it is not encoded and hashed again).
 */
export type EmittedFiles = Record<string, string | BuildFile>

/** What changed in an emitter's files since its last run: the files made again, and the paths it no longer writes. */
export interface EmittedDelta {
  files: EmittedFiles
  removed: readonly string[]
}

/**
 * An emitter turns the content into files. `input` says what its files depend
 * on, so the compiler runs it again only after that changed:
 * - `collection`: one collection's items (run per changed collection, on every edit); it
 *   reports only what changed since its last run for that collection (everything the first time);
 * - `content`: all published content (in the watch mode, once edits settle);
 * - `site`: the site settings alone;
 * - `history`: all published content and content/'s git history (the change feed);
 * - `files`: the paths every other emitter wrote, and a reader of their files (indexes such as
 *   Netlify's rules, which the redirects' index adds to; run last).
 */
export type Emitter =
  | {
      readonly name: string
      readonly input: 'collection'
      emit(content: BuiltContent, collection: CollectionName): EmittedDelta
    }
  | {
      readonly name: string
      readonly input: 'content' | 'site'
      emit(content: BuiltContent): EmittedFiles
      /** The same files computed on a worker thread, for content where `emit` takes seconds. */
      offThread?(content: BuiltContent): OffThreadTask | undefined
    }
  | {
      readonly name: string
      readonly input: 'history'
      emit(content: BuiltContent, history: ContentHistory): EmittedFiles
    }
  | {
      readonly name: string
      readonly input: 'files'
      emit(content: BuiltContent, paths: readonly string[], read: (path: string) => BuildFile | undefined): EmittedFiles
    }

export interface OffThreadTask {
  /** The files; rejects if the worker fails (the compiler then runs `emit` itself). */
  result: Promise<EmittedFiles>
  /** Stop the worker: its input is stale. */
  cancel(): void
}
