import type { CollectionName } from '../contract/collections.ts'
import type { ContentRecord, FullRecord } from '../contract/records.ts'
import type { SiteConfig } from '../site.ts'

/** Everything the build knows after validation and rendering: the published content, sorted. */
export interface BuiltContent {
  site: SiteConfig
  /** Full records of published items per collection, newest first. */
  collections: Record<CollectionName, FullRecord[]>
  /** The same items in list form (no body), same order. */
  summaries: Record<CollectionName, ContentRecord[]>
  /** Latest updated_at of all published items: the build's deterministic timestamp. */
  builtAt: string
}

/**
 * An emitter returns files to write, keyed by path relative to dist/. It also
 * sees what the emitters before it in EMITTERS wrote (for indexes of files).
 */
export type Emitter = (content: BuiltContent, emitted?: Readonly<Record<string, string>>) => Record<string, string>
