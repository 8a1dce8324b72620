/**
 * The preview artifact of the build being served (contract/preview.ts),
 * read from the folder beside DIST_DIR's on first use, its published items'
 * records from the build's own item files, and kept for as long as that
 * build is: the preview API, the share pages and the MCP tools'
 * `include_drafts` answer from it. An artifact of another build is never
 * served with this one (a 503 until the two agree).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CollectionModel } from '../../contract/model/model.ts'
import { itemFileIn } from '../../contract/paths.ts'
import {
  PREVIEW_FILE,
  PREVIEW_FORMAT,
  type PreviewArtifact,
  type PreviewEntry,
  type PreviewFields,
  type StoredPreviewEntry,
} from '../../contract/preview.ts'
import { FULL_ONLY_FIELDS, type ContentRecord, type FullRecord } from '../../contract/records.ts'
import type { Snapshot } from '../artifacts.ts'
import { unavailable } from '../http/problem.ts'
import type { Logger } from '../log.ts'

/** The preview of one build, indexed. */
export class Preview {
  private readonly lists = new Map<string, ContentRecord[]>()

  /** `language`: the site's default locale; `items`: every valid item with its record. */
  constructor(
    readonly language: string,
    readonly items: readonly PreviewEntry[],
  ) {}

  /** A collection's records in `locale` (the default's when undefined) in list form with their state, newest first. */
  summaries(collection: CollectionModel, locale: string | undefined): readonly ContentRecord[] {
    const at = locale ?? this.language
    const key = `${collection.name}\n${at}`
    let list = this.lists.get(key)
    if (!list) {
      const field = collection.sortField
      const entries = this.items.filter((e) => e.collection === collection.name && e.locale === at)
      list = entries
        .map((e) => summaryOf(e))
        .sort((a, b) => compare(String(b[field] ?? ''), String(a[field] ?? '')) || compare(a.slug, b.slug))
      this.lists.set(key, list)
    }
    return list
  }

  /** The entry of `slug` in `locale`, else the default locale's, else any locale's. */
  find(collection: string, slug: string, locale: string | undefined): PreviewEntry | undefined {
    const found = this.items.filter((e) => e.collection === collection && e.slug === slug)
    return (
      found.find((e) => e.locale === (locale ?? this.language)) ??
      found.find((e) => e.locale === this.language) ??
      found[0]
    )
  }

  /** The item and its translations, the default locale's first. */
  itemEntries(item: string): PreviewEntry[] {
    const entries = this.items.filter((e) => e.item === item)
    return entries.sort((a, b) => Number(b.locale === this.language) - Number(a.locale === this.language))
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The state fields of an entry. */
export function stateOf(entry: PreviewEntry): PreviewFields {
  return { state: entry.state, release_at: entry.release_at }
}

/** The full record as the preview answers it: the public record, then its state. */
export function fullOf(entry: PreviewEntry): FullRecord & PreviewFields {
  return { ...entry.record, ...stateOf(entry) }
}

function summaryOf(entry: PreviewEntry): ContentRecord {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entry.record))
    if (!(FULL_ONLY_FIELDS as readonly string[]).includes(key)) out[key] = value
  return { ...(out as ContentRecord), ...stateOf(entry) }
}

export interface PreviewSource {
  /** The preview of `snapshot`'s build; a 503 when there is none beside it, or one of another build. */
  of(snapshot: Snapshot): Promise<Preview>
}

/** `dir`: the preview folder (contract/preview.ts previewDirOf of DIST_DIR's). */
export function previewSource(dir: () => string, log: Logger): PreviewSource {
  let loaded: { id: string; preview: Promise<Preview> } | undefined
  return {
    of(snapshot) {
      const id = snapshot.manifest.build.id
      if (loaded?.id !== id) {
        const preview = read(join(dir(), PREVIEW_FILE), snapshot, log)
        loaded = { id, preview }
        // A failed read is not kept: the next request reads again (the build may have just written it).
        preview.catch(() => {
          if (loaded?.preview === preview) loaded = undefined
        })
      }
      return loaded.preview
    },
  }
}

async function read(file: string, snapshot: Snapshot, log: Logger): Promise<Preview> {
  const buildId = snapshot.id
  let artifact: PreviewArtifact
  try {
    artifact = JSON.parse(await readFile(file, 'utf8')) as PreviewArtifact
  } catch (error) {
    log('error', 'no preview beside the build', { file, error: (error as Error).message })
    throw unavailable('The preview of this build is not available; build again (`npm run build`) and retry.')
  }
  if (artifact.format !== PREVIEW_FORMAT || artifact.build_id !== buildId || !Array.isArray(artifact.items)) {
    log('error', 'the preview beside the build is of another build', { file, build: buildId })
    throw unavailable('The preview is of another build than the one served; build again and retry.')
  }
  let items: PreviewEntry[]
  try {
    items = await withRecords(artifact, snapshot)
  } catch (error) {
    log('error', 'the preview names an item the build served does not hold', {
      file,
      build: buildId,
      error: (error as Error).message,
    })
    throw unavailable('The preview does not match the build served; build again and retry.')
  }
  return new Preview(artifact.language, items)
}

/** Reads of dist/ at a time: enough to keep the disk busy, few enough not to queue every file at once. */
const READS_AT_ONCE = 64

/** The artifact's entries, each published one with its record from its item file in the build. */
async function withRecords(artifact: PreviewArtifact, snapshot: Snapshot): Promise<PreviewEntry[]> {
  const items: StoredPreviewEntry[] = artifact.items
  const out = new Array<PreviewEntry>(items.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      const entry = items[i]!
      if (entry.record) {
        out[i] = entry as PreviewEntry
        continue
      }
      const found = await snapshot.file(itemFileIn(entry.collection, entry, artifact.language))
      if (!found) throw new Error(`no item file for ${entry.collection}/${entry.slug} (${entry.locale})`)
      out[i] = { ...entry, record: JSON.parse(found.body.toString('utf8')) as FullRecord }
    }
  }
  await Promise.all(Array.from({ length: READS_AT_ONCE }, worker))
  return out
}
