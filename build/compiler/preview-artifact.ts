/**
 * The preview artifact (contract/preview.ts): every valid item of the build
 * with its state, and the records dist/ does not hold (drafts, scheduled and
 * expired items: a published one's is its item file), written beside dist/
 * and never into it, so no deploy of dist/, no CDN and no crawl of it ever
 * holds a draft. The gateway serves it to reviewers only. Written after
 * dist/, file by file atomically; it names its build, and the gateway takes
 * it for no other.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  PREVIEW_FILE,
  PREVIEW_FORMAT,
  previewDirOf,
  type PreviewArtifact,
  type StoredPreviewEntry,
} from '../../contract/preview.ts'
import type { FullRecord } from '../../contract/records.ts'
import type { Compiler } from './compiler.ts'
import type { PreviewItem } from './preview.ts'

export async function writePreviewArtifact(distDir: string, compiler: Compiler, buildId: string): Promise<void> {
  const { items, asOf } = compiler.preview()
  const artifact: PreviewArtifact = {
    format: PREVIEW_FORMAT,
    build_id: buildId,
    as_of: asOf,
    language: compiler.siteSettings()?.language ?? 'en',
    items: items.flatMap((item) => (item.record ? [entryOf(item, item.record)] : [])),
  }
  const dir = previewDirOf(distDir)
  await mkdir(dir, { recursive: true })
  const file = join(dir, PREVIEW_FILE)
  const staged = `${file}.${process.pid}.tmp`
  await writeFile(staged, JSON.stringify(artifact))
  await rename(staged, file)
}

/** Whether the preview beside `distDir` is the one of build `buildId` (an up-to-date dist/ without it is built again). */
export async function hasPreviewOf(distDir: string, buildId: string): Promise<boolean> {
  try {
    const text = await readFile(join(previewDirOf(distDir), PREVIEW_FILE), 'utf8')
    // The id comes first: no need to parse every record for it.
    const match = /^\{"format":(\d+),"build_id":"([^"]+)"/.exec(text.slice(0, 200))
    return match !== null && Number(match[1]) === PREVIEW_FORMAT && match[2] === buildId
  } catch {
    return false
  }
}

function entryOf(item: PreviewItem, record: FullRecord): StoredPreviewEntry {
  const { release } = item
  const state = item.draft ? 'draft' : release.state === 'live' ? 'published' : release.state
  return {
    collection: item.collection,
    locale: item.locale,
    slug: item.slug,
    item: `${item.collection}/${item.key}`,
    path: item.path,
    state,
    release_at: state === 'scheduled' && release.state !== 'live' ? release.at : null,
    expired_at: state === 'expired' && release.state !== 'live' ? release.at : null,
    // What dist/ holds is not written twice: the gateway reads it from there.
    ...(!item.inDist && { record }),
  }
}
