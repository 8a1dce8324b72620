/** File-tree helpers for tests that compare whole dist/ folders. */
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** sha256 of every file under `dir`, keyed by its path relative to `dir`. */
export async function hashTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out[path.slice(dir.length)] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex')
  }
  return out
}
