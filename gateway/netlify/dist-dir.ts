/**
 * Where the dist/ files bundled with the function are at run time. Netlify
 * keeps `included_files` at their paths relative to the project, but the
 * function's own file may sit elsewhere in the bundle, so look in a few places.
 */
import { stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MANIFEST_FILE } from '../../contract/paths.ts'

/** `configured`: DIST_DIR; `taskRoot`: the function's folder (LAMBDA_TASK_ROOT, else the working folder). */
export async function findDist(configured: string, taskRoot: string): Promise<string> {
  const here = dirname(fileURLToPath(import.meta.url))
  const candidates = [
    resolve(configured),
    resolve(here, '..', 'dist'),
    resolve(here, '..', '..', 'dist'),
    resolve(taskRoot, 'dist'),
  ]
  for (const dir of candidates) {
    if (
      await stat(join(dir, MANIFEST_FILE)).then(
        () => true,
        () => false,
      )
    )
      return dir
  }
  // Nothing found: the store reports the first candidate in its 503.
  return candidates[0]!
}
