/**
 * The memory allocator a build processes images under. glibc's malloc gives
 * each thread that allocates at the same time as another an arena of its own
 * (up to eight per core) and keeps what each arena once held: libvips, and
 * libaom's own threads for every AVIF it encodes, allocate large buffers from
 * many threads, so a build's resident memory climbed with the first few dozen
 * images to about twice what two arenas hold (BENCHMARKS.md, its mechanisms), while
 * the JavaScript heap and the buffers it holds stayed flat. MALLOC_ARENA_MAX
 * caps the arenas, and glibc reads it once, when a process starts: so a build
 * whose content has image files starts itself again with it, as the same
 * process (execve keeps the process id, its signals and its output), before
 * anything is loaded or written. A build of text alone does not pay for a
 * second start (a tenth of a second, most of a small build's fixed cost). Elsewhere than Linux (another allocator), with the
 * variable already set, or without process.execve (Node before 22.15), it
 * builds as it is.
 */
import { readdirSync } from 'node:fs'
import { getCompileCacheDir } from 'node:module'
import { extname, join } from 'node:path'
import { LOCAL_IMAGE_EXTENSIONS } from '../../contract/media.ts'

/** The arenas a build's allocator may use (glibc's own default on 2 cores is 16). */
const BUILD_MALLOC_ARENAS = '2'

const IMAGE_EXTENSIONS = new Set<string>(LOCAL_IMAGE_EXTENSIONS.map((e) => `.${e}`))

/** Whether `root`'s content/ holds an image file (a listing of names only: no stat, no read). */
export function hasImageFiles(root: string): boolean {
  try {
    return readdirSync(join(root, 'content'), { recursive: true }).some((name) =>
      IMAGE_EXTENSIONS.has(extname(String(name)).toLowerCase()),
    )
  } catch {
    return false
  }
}

/** Start this command again with the allocator capped, when it is not already; returns when it is not done. */
export function restartWithCappedArenas(extraArgs: readonly string[]): void {
  if (process.platform !== 'linux' || process.env.MALLOC_ARENA_MAX || typeof process.execve !== 'function') return
  const env: NodeJS.ProcessEnv = { ...process.env, MALLOC_ARENA_MAX: BUILD_MALLOC_ARENAS }
  // The compiled code the first start cached (build/run.mjs enables it), for the second.
  const cache = getCompileCacheDir?.()
  if (cache && !env.NODE_COMPILE_CACHE) env.NODE_COMPILE_CACHE = cache
  const args = [...process.execArgv, process.argv[1]!, ...process.argv.slice(2), ...extraArgs]
  process.execve(process.execPath, [process.execPath, ...args], env)
}
