/**
 * How long the build's largest emitter takes: the search index of a built
 * corpus, from the same documents the build indexes (read back from the
 * item files), in this process. Median of a few runs.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { COLLECTION_NAMES } from '../corpus/collections.ts'
import type { Manifest } from '../../contract/manifest.ts'
import { itemFile } from '../../contract/paths.ts'
import type { FullRecord } from '../../contract/records.ts'
import { searchDocument, serializeSearchIndex } from '../../build/emit/search-index.ts'

export async function benchSearchIndex(
  distDir: string,
  manifest: Manifest,
  runs: number,
): Promise<{ ms: number[]; bytes: number }> {
  const documents = []
  for (const collection of COLLECTION_NAMES) {
    for (const record of manifest.collections[collection]!) {
      const full = JSON.parse(await readFile(join(distDir, itemFile(collection, record.slug)), 'utf8')) as FullRecord
      documents.push(searchDocument(manifest.model.collections[collection]!, full))
    }
  }
  const ms: number[] = []
  let bytes = 0
  // One run more than counted: the first warms the JIT up.
  for (let i = 0; i <= runs; i++) {
    const started = performance.now()
    bytes = serializeSearchIndex(documents, manifest.model.names).byteLength
    if (i > 0) ms.push(performance.now() - started)
  }
  return { ms, bytes }
}
