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
import { fileURLToPath } from 'node:url'
import { loadSiteConfig } from '../core/site.ts'
import { createOpenApiDocument, type OpenApiDocument } from '../openapi/document.ts'
import type { Change, ChangeKind } from './compare.ts'

const RELEASED = new URL('../../contract/released/', import.meta.url)
export const RELEASED_DOCUMENT = fileURLToPath(new URL('openapi.json', RELEASED))
export const CHANGELOG_FILE = fileURLToPath(new URL('changelog.json', RELEASED))
export const CLIENT_TYPES_FILE = fileURLToPath(new URL('content-api.d.ts', RELEASED))

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
