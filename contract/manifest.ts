/**
 * The manifest's shape: the content index the gateway loads. It names the
 * build, lists every emitted file with its ETag, and carries the list form of
 * every item so the gateway can answer any list query with the shared renderer.
 */
import type { CollectionName, ContentModel } from './model/model.ts'
import type { ContentRecord } from './records.ts'
import type { DeprecationNotice } from './routes/deprecation.ts'

export const MANIFEST_FORMAT = 2

export interface BuildInfo {
  id: string
  /**
   * The newest `updated_at` of any published item (1970 when there is none): what the
   * content is as of. Not the time of the build, which would make two builds of the same
   * content differ.
   */
  content_updated_at: string
  counts: Record<CollectionName, number>
  /**
   * The next instant a scheduled item is released or an item expires, after the build's clock;
   * null when nothing is scheduled. The build is out of date from then on: `npm start` rebuilds
   * at that moment, the Netlify function `publish-scheduled` calls the build hook.
   */
  next_release_at: string | null
  /**
   * The latest release or expiry at or before the build's clock (null: none): the build is
   * right for every clock from this instant until `next_release_at`.
   */
  last_release_at: string | null
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT
  build: BuildInfo
  /** Hash of the inputs (sources, settings, generator); equal hash means nothing to rebuild. */
  input_hash: string
  /** Every file in dist/ (but this one) with its strong ETag. */
  files: Record<string, string>
  collections: Record<CollectionName, ContentRecord[]>
  /**
   * The deprecated fields each path's answers carry, by the path as the
   * OpenAPI document writes it (`/api/blog-posts/{slug}`); absent when none.
   * The gateway sends the Deprecation headers of these with every answer there.
   */
  deprecated_fields?: Record<string, DeprecationNotice[]>
  /** A multilingual site's locales (absent for a site with one). */
  locales?: ManifestLocales
  /** The content model the build was made with: the gateway's collections, fields and scopes (never an import). */
  model: ContentModel
}

/** The locales of a multilingual build, and each other locale's records in list form (its lists, as served). */
export interface ManifestLocales {
  /** The default locale: the answer without `locale` (or an Accept-Language naming none of them). */
  default: string
  /** Every locale, the default first. */
  available: string[]
  /** The locales whose lists and items fall back to the default where a translation is missing. */
  fallback: string[]
  /** Per locale but the default, per collection: its records, newest first. */
  collections: Record<string, Record<CollectionName, ContentRecord[]>>
}

/** One file of a build as it is served: its bytes and strong ETag. */
export interface BuildFile {
  body: Buffer
  etag: string
  /**
   * Where the bytes are on disk when they are not held in memory (a processed
   * image in the build's media cache): `body` is then empty, and readers read
   * the file and check it against `etag`.
   */
  file?: string
}
