/**
 * The preview artifact: every valid item of a build, drafts and scheduled and
 * expired ones included, with where it stands, and the record as the API
 * renders it of every item dist/ does not hold (a published item's is its
 * item file in dist/: `itemFileIn`). The build writes it beside dist/, never
 * inside (`previewDirOf`): no CDN, no deploy of dist/ and no crawl of it ever
 * holds a draft. The gateway reads it, with dist/'s records of the published
 * items, for the preview API, the share links' pages and the MCP tools'
 * `include_drafts`, only for a build whose id it names.
 */
import { PREVIEW_API_PATH, REVIEW_PREFIX } from './public-paths.ts'
import type { FullRecord } from './records.ts'

export const PREVIEW_FORMAT = 2
/** The scope the preview needs (the `preview.read` key role grants it: contract/scopes.ts). */
export const PREVIEW_SCOPE = 'content.preview.read'
/** The one file of the preview folder. */
export const PREVIEW_FILE = 'preview.json'

/** The preview folder of a build: dist/'s sibling, `dist` → `dist-preview`. */
export function previewDirOf(distDir: string): string {
  return `${distDir.replace(/[\\/]+$/, '')}-preview`
}

/** Where an item stands as of the build's clock. */
export type PreviewState = 'draft' | 'scheduled' | 'published' | 'expired'
export const PREVIEW_STATES = ['draft', 'scheduled', 'published', 'expired'] as const

/** What the preview answers add to a record: its state, and a scheduled item's release time (else null). */
export interface PreviewFields {
  state: PreviewState
  release_at: string | null
}

/** An item as the artifact stores it: `record` only when dist/ does not hold it. */
export interface StoredPreviewEntry extends PreviewFields {
  collection: string
  locale: string
  slug: string
  /** The item a translation belongs to, as the build groups files: the same for an item and its translations. */
  item: string
  /** The item's source file in content/. */
  path: string
  /** Since when an expired item is no longer published (else null). */
  expired_at: string | null
  /** Absent for an item dist/ publishes: its record is dist/'s (`itemFileIn(collection, entry, language)`). */
  record?: FullRecord
}

/** An item of the preview with its record, from the artifact or from dist/. */
export interface PreviewEntry extends StoredPreviewEntry {
  record: FullRecord
}

export interface PreviewArtifact {
  format: typeof PREVIEW_FORMAT
  /** The build (its manifest's id) the artifact goes with: the gateway serves it with that build only. */
  build_id: string
  /** The clock the states are as of. */
  as_of: string
  /** The site's default locale. */
  language: string
  items: StoredPreviewEntry[]
}

/**
 * Every preview answer and share page: kept by no shared cache (the CDN
 * included: Netlify reads its own header first), and by no browser cache
 * beyond the answer.
 */
export const PREVIEW_CACHE = 'private, no-store'
export const PREVIEW_HEADERS = {
  'cache-control': PREVIEW_CACHE,
  'netlify-cdn-cache-control': 'no-store',
  'cdn-cache-control': 'no-store',
} as const

/** A path of the preview API or of a share link: its answers, refusals and errors alike, carry PREVIEW_HEADERS. */
export function isPreviewPath(path: string): boolean {
  return path.startsWith(`${PREVIEW_API_PATH}/`) || path.startsWith(`${REVIEW_PREFIX}/`)
}
