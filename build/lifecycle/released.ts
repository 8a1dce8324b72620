/**
 * The last released API, kept in the repository: its OpenAPI document
 * (contract/released/openapi.json), the changelog of every release
 * (contract/released/changelog.json, newest first) and the TypeScript types
 * generated from the released document (contract/released/content-api.d.ts).
 * `npm run api:release` writes them; the gate compares against the document,
 * and the build publishes the changelog and the types.
 */
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadSiteConfig } from '../core/site.ts'
import { createOpenApiDocument, type OpenApiDocument } from '../openapi/document.ts'
import type { Change, ChangeKind } from './compare.ts'

const HERE = fileURLToPath(import.meta.url)
/** Where this module runs prebuilt (build/run.mjs), it lives in the checkout's .cache/bin/<key>/. */
const PREBUILT = `${sep}.cache${sep}bin${sep}`
const CHECKOUT = HERE.includes(PREBUILT) ? HERE.slice(0, HERE.indexOf(PREBUILT)) : resolve(dirname(HERE), '..', '..')
const RELEASED = join(CHECKOUT, 'contract', 'released')
export const RELEASED_DOCUMENT = join(RELEASED, 'openapi.json')
export const CHANGELOG_FILE = join(RELEASED, 'changelog.json')
export const CLIENT_TYPES_FILE = join(RELEASED, 'content-api.d.ts')

/** One release: its version, its date, and what it added, changed, deprecated and removed, one line each. */
export interface Release extends Record<ChangeKind, string[]> {
  version: string
  /** YYYY-MM-DD. */
  date: string
  /** Set on a major release: the breaking changes it made, one line each. */
  breaking?: string[]
}

/** A document as the lifecycle reads it: its version is what matters here. */
export type ApiDocument = OpenApiDocument & { info: { version: string } }

export interface Changelog {
  releases: Release[]
}

/** The released document, as stored. */
export async function releasedDocument(): Promise<ApiDocument> {
  return JSON.parse(await readFile(RELEASED_DOCUMENT, 'utf8')) as ApiDocument
}

/** The changelog, read once per call (the build reads it synchronously while it emits). */
export function readChangelog(): Changelog {
  return JSON.parse(readFileSync(CHANGELOG_FILE, 'utf8')) as Changelog
}

/** The document this checkout would publish, from the project's site settings (as `npm run build` makes it). */
export async function currentDocument(root = process.cwd()): Promise<ApiDocument> {
  // Through JSON, as the build writes it: the stored document is compared with what clients download.
  return JSON.parse(JSON.stringify(createOpenApiDocument(await loadSiteConfig(root)))) as ApiDocument
}

/** The changes as the changelog lists them, by kind. */
export function releaseOf(version: string, date: string, changes: readonly Change[]): Release {
  const lines = (kind: ChangeKind) =>
    changes.filter((c) => c.kind === kind).map((c) => `${c.subject}: ${c.description}`)
  const breaking = changes.filter((c) => c.breaking).map((c) => `${c.subject}: ${c.description}`)
  return {
    version,
    date,
    added: lines('added'),
    changed: lines('changed'),
    deprecated: lines('deprecated'),
    removed: lines('removed'),
    ...(breaking.length > 0 && { breaking }),
  }
}
