/** Sizes of dist/: everything, and the pre-rendered list slices (which must not grow with the item count). */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

export interface DistSizes {
  totalBytes: number
  files: number
  listBytes: number
  listFiles: number
}

export async function distSizes(distDir: string): Promise<DistSizes> {
  const sizes: DistSizes = { totalBytes: 0, files: 0, listBytes: 0, listFiles: 0 }
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true })
  await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => {
        const path = join(e.parentPath, e.name)
        const { size } = await stat(path)
        sizes.totalBytes += size
        sizes.files++
        if (path.includes('/_list/')) {
          sizes.listBytes += size
          sizes.listFiles++
        }
      }),
  )
  return sizes
}
