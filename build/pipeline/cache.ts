/**
 * Content-hash cache of rendered Markdown bodies, so an unchanged body is not
 * re-rendered on the next build. Keyed by the body's hash and the renderer
 * version; correctness never depends on it (a missing or corrupt cache only
 * costs time).
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { MARKDOWN_RENDERER_VERSION, type RenderedBody } from './markdown.ts'

export class RenderCache {
  private entries = new Map<string, RenderedBody>()
  private used = new Set<string>()
  private dirty = false

  private constructor(private readonly file: string | undefined) {}

  /**
   * Open the cache under `.cache/`; pass `undefined` for a run without cache.
   * Stored in V8's serialisation format (node:v8), not JSON: at 10,000 items
   * JSON.stringify took most of a second of the build's main thread, this a
   * fifth of that. The format belongs to the V8 that wrote it, so the file is
   * named after that version (another Node starts with an empty cache).
   */
  static async open(root: string | undefined): Promise<RenderCache> {
    const name = `markdown-v${MARKDOWN_RENDERER_VERSION}-v8-${process.versions.v8}.bin`
    const file = root ? join(root, '.cache', name) : undefined
    const cache = new RenderCache(file)
    if (file) {
      try {
        const stored: unknown = deserialize(await readFile(file))
        if (stored instanceof Map) cache.entries = stored as Map<string, RenderedBody>
      } catch {
        // No cache yet, or unreadable: start empty.
      }
    }
    return cache
  }

  static key(markdown: string): string {
    return createHash('sha256').update(markdown).digest('base64url')
  }

  /** How many bodies are cached. */
  get size(): number {
    return this.entries.size
  }

  /** Whether the key is cached, without counting it as used. */
  has(key: string): boolean {
    return this.entries.has(key)
  }

  get(key: string): RenderedBody | undefined {
    const hit = this.entries.get(key)
    if (hit) this.used.add(key)
    return hit
  }

  set(key: string, value: RenderedBody): void {
    this.entries.set(key, value)
    this.used.add(key)
    this.dirty = true
  }

  /** Write entries used in this run (dropping stale ones) if anything changed. */
  async save(): Promise<void> {
    if (!this.file || (!this.dirty && this.used.size === this.entries.size)) return
    const kept = new Map<string, RenderedBody>()
    for (const key of [...this.used].sort()) kept.set(key, this.entries.get(key)!)
    await mkdir(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.${process.pid}.tmp`
    await writeFile(tmp, serialize(kept))
    await rename(tmp, this.file)
    // Caches of other renderer or V8 versions (a Node update names a new file) are not read again.
    const folder = dirname(this.file)
    for (const name of await readdir(folder))
      if (/^markdown-v.*\.(?:json|bin)$/.test(name) && join(folder, name) !== this.file)
        await rm(join(folder, name), { force: true })
  }
}
