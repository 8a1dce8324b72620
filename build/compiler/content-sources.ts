/**
 * The compiler's inputs as read from disk: site.yaml (its settings, or the
 * errors that stop every build) and every content file by path, each with
 * the stat taken just before it was read, so a later scan finds what changed
 * by its stat alone (core/sources.ts, SourceStats).
 */
import type { ApiOrigin } from '../../contract/api-origin.ts'
import { ContentErrors } from '../core/errors.ts'
import { loadSiteConfig, type SiteConfig } from '../core/site.ts'
import {
  listContent,
  readIfPresentSync,
  readSiteBytes,
  SourceStats,
  type ContentPath,
  type SourceFile,
} from '../core/sources.ts'

export class ContentSources {
  /** The site settings, once site.yaml has been read without errors. */
  site: SiteConfig | undefined
  siteError: ContentErrors | undefined
  private siteHash = ''
  /** Every source by path. */
  readonly files = new Map<string, SourceFile>()
  private readonly stats: SourceStats

  constructor(
    private readonly root: string,
    /** The origin the records' URLs name, over site.yaml's `api_url` (contract/api-origin.ts). */
    private readonly apiOrigin: ApiOrigin,
  ) {
    this.stats = new SourceStats(root)
  }

  /** Read every content file of the project. */
  readAll(): void {
    const paths = listContent(this.root)
    // Synchronously: nothing else waits for this thread yet, and a read through the pool costs it more.
    for (const path of paths) this.stats.takeSync(path)
    for (const path of paths) {
      const source = readIfPresentSync(this.root, path)
      if (source) this.files.set(source.path, source)
    }
  }

  /** Read the file at `p` again (undefined when it is gone, and then its stat is forgotten). */
  read(p: ContentPath & { kind: 'item' }): SourceFile | undefined {
    // On this thread: a stat and a read take microseconds here, and through the thread pool they can
    // queue behind the full pass's scan of every file (milliseconds that an edit waited).
    this.stats.takeSync(p)
    const source = readIfPresentSync(this.root, p)
    if (!source) this.stats.forget(p)
    return source
  }

  /** Each source's path, the stat taken before it was read, and its hash: the no-change check's index. */
  index(): [path: string, signature: string, hash: string][] {
    return [...this.files.values()].flatMap((s) => {
      const sig = this.stats.signatureOf(s.path)
      return sig ? [[s.path, sig, s.hash] as [string, string, string]] : []
    })
  }

  /** Files added, removed or rewritten since they were last read, found by their stat alone; undefined if interrupted. */
  stale(interrupted: () => boolean): Promise<ContentPath[] | undefined> {
    return this.stats.stale(this.files.keys(), interrupted)
  }

  /** Re-read site.yaml; true when its bytes changed. */
  async readSite(): Promise<boolean> {
    await this.stats.take({ kind: 'site' })
    const { hash } = await readSiteBytes(this.root)
    if (hash === this.siteHash && this.site) return false
    this.siteHash = hash
    try {
      this.site = withApiOrigin(await loadSiteConfig(this.root), this.apiOrigin)
      this.siteError = undefined
    } catch (error) {
      if (!(error instanceof ContentErrors)) throw error
      this.siteError = error
    }
    return true
  }

  /** The sources in the order a build reads them (folder, then path, as listContent lists them): the input hash's order. */
  inOrder(): SourceFile[] {
    const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    return [...this.files.values()].sort((a, b) => compare(a.collection, b.collection) || compare(a.path, b.path))
  }
}

/** `site` with the records' origin the build was given in place of `api_url`, if any. */
function withApiOrigin(site: SiteConfig, origin: ApiOrigin): SiteConfig {
  if (origin === undefined) return site
  const { apiUrl: _, ...rest } = site
  return origin === null ? rest : { ...rest, apiUrl: origin }
}
