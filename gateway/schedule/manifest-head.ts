/**
 * The head of a build's manifest (`format`, `build`, `input_hash`) without
 * reading the rest, which is megabytes at 10,000 items: the build writes
 * those keys first, then `files` (build/emit/manifest.ts).
 */
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { MANIFEST_FILE } from '../../contract/paths.ts'
import type { Manifest } from '../../contract/manifest.ts'

const HEAD_BYTES = 16 * 1024

export type ManifestHead = Pick<Manifest, 'format' | 'build' | 'input_hash'>

/** The head of `distDir`'s manifest; undefined when there is none or it is not one. */
export async function readManifestHead(distDir: string): Promise<ManifestHead | undefined> {
  const handle = await open(join(distDir, MANIFEST_FILE)).catch(() => undefined)
  if (!handle) return undefined
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0)
    const text = buffer.subarray(0, bytesRead).toString('utf8')
    const end = text.indexOf(',"files":')
    const head = end < 0 ? undefined : (JSON.parse(`${text.slice(0, end)}}`) as ManifestHead)
    return typeof head?.build?.id === 'string' ? head : undefined
  } catch {
    return undefined
  } finally {
    await handle.close()
  }
}
