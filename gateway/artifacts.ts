/**
 * The built artifacts the gateway serves, held in memory as one immutable
 * snapshot per build. A new build is swapped in whole, so every answer comes
 * from exactly one build; reading by key from a Map also means no request can
 * ever reach a file outside dist/.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { COLLECTION_NAMES, type CollectionName } from '../build/contract/collections.ts'
import { etagOf } from '../build/contract/etag.ts'
import { MANIFEST_FILE } from '../build/contract/paths.ts'
import { MANIFEST_FORMAT, type BuildFile, type Manifest } from '../build/contract/manifest.ts'
import type { ContentRecord } from '../build/contract/records.ts'
import { AppError } from '../build/contract/errors.ts'

/** A file of the build: its bytes and strong ETag. */
export type StoredFile = BuildFile

export class Snapshot {
  /** Files by path relative to dist/ (`api/blog-posts/x.json`). */
  readonly files: ReadonlyMap<string, StoredFile>
  readonly bySlug: Record<CollectionName, ReadonlyMap<string, ContentRecord>>
  /** Rendered long-tail answers of this build, by canonical href (bounded). */
  readonly rendered = new Map<string, StoredFile>()

  constructor(readonly manifest: Manifest, files: ReadonlyMap<string, StoredFile>) {
    this.files = files
    const bySlug = {} as Record<CollectionName, Map<string, ContentRecord>>
    for (const name of COLLECTION_NAMES) bySlug[name] = new Map(manifest.collections[name].map((r) => [r.slug, r]))
    this.bySlug = bySlug
  }

  get id(): string {
    return this.manifest.build.id
  }

  summaries(collection: CollectionName): readonly ContentRecord[] {
    return this.manifest.collections[collection]
  }
}

export class ArtifactError extends AppError {
  readonly code = 'ARTIFACTS_UNAVAILABLE'
}

/**
 * Load dist/ into a snapshot, checking every file against the manifest's
 * ETag; a dist/ swapped mid-read or corrupted fails loudly instead of mixing.
 */
export async function loadSnapshot(distDir: string): Promise<Snapshot> {
  let manifestText: string
  try {
    manifestText = await readFile(join(distDir, MANIFEST_FILE), 'utf8')
  } catch {
    throw new ArtifactError(`no build found at ${join(distDir, MANIFEST_FILE)}; run \`npm run build\` first`)
  }
  let manifest: Manifest
  try {
    manifest = JSON.parse(manifestText) as Manifest
    if (manifest.format !== MANIFEST_FORMAT || !manifest.build?.id || !manifest.files || !manifest.collections) throw new Error('shape')
    for (const name of COLLECTION_NAMES) if (!Array.isArray(manifest.collections[name])) throw new Error('shape')
  } catch {
    throw new ArtifactError(`the manifest ${join(distDir, MANIFEST_FILE)} is unreadable or of an unknown format; rebuild`)
  }
  const files = new Map<string, StoredFile>()
  const paths = Object.keys(manifest.files)
  for (let i = 0; i < paths.length; i += 64) {
    await Promise.all(
      paths.slice(i, i + 64).map(async (path) => {
        const etag = manifest.files[path]!
        const body = await readFile(join(distDir, path)).catch(() => undefined)
        if (!body || etagOf(body) !== etag) {
          throw new ArtifactError(`dist/${path} is missing or does not match the manifest (a build changed dist/ while it was loaded?)`)
        }
        files.set(path, { body, etag })
      }),
    )
  }
  files.set(MANIFEST_FILE, { body: Buffer.from(manifestText), etag: etagOf(Buffer.from(manifestText)) })
  return new Snapshot(manifest, files)
}

/**
 * Holds the current snapshot and swaps in new ones. Requests take the current
 * snapshot once at their start and use only it.
 */
export class ArtifactStore {
  private snapshot: Snapshot | undefined
  private failure: Error | undefined

  constructor(readonly distDir: string) {}

  /** Load (or reload) dist/; on failure keeps serving the previous snapshot, if any. */
  async reload(): Promise<Snapshot> {
    try {
      const next = await loadSnapshot(this.distDir)
      this.swap(next)
      return next
    } catch (error) {
      this.failure = error as Error
      throw error
    }
  }

  swap(next: Snapshot): void {
    this.snapshot = next
    this.failure = undefined
  }

  /** The snapshot to answer from, or undefined when no build could be loaded. */
  current(): Snapshot | undefined {
    return this.snapshot
  }

  /** Why the last load failed, for health and logs. */
  lastError(): Error | undefined {
    return this.failure
  }
}
