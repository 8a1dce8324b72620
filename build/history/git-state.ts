/**
 * What git's answers about content/'s history depend on, read from the
 * repository's own files instead of asking git: the commit HEAD names (the
 * loose ref it points to, or the packed refs) and whether the clone is
 * shallow. Equal states give equal answers, so the dev server's full pass asks
 * git again only when this changed (a commit, a checkout, a fetch that
 * deepened the clone).
 *
 * Why not just ask: starting a process from one with a large heap copies its
 * page tables while the memory map is locked, and every thread of the process
 * that touches fresh memory waits. On a large site the dev server's two git
 * processes per full pass held its thread, and a save landing then waited
 * for them (BENCHMARKS.md, "Mechanisms and their gains").
 *
 * Read before git is asked: a commit landing between the two gives a state
 * that differs next time, never a stale answer kept.
 */
import { readFileSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'

/** How deep a chain of symbolic refs is followed (git's own limit is 5). */
const MAX_SYMREF_DEPTH = 5

/**
 * A string that changes whenever git's answers about `root`'s history may;
 * `undefined` when the repository's layout is not one this reads (git is
 * then asked every time, as before). `'none'` when no `.git` is found above
 * `root`: no repository, until one appears.
 *
 * @example
 * const before = gitState(root)
 * // … a commit …
 * gitState(root) !== before // true
 */
export function gitState(root: string): string | undefined {
  try {
    const found = findGitDir(resolve(root))
    if (!found) return 'none'
    const { gitDir, marker } = found
    const common = commonDir(gitDir)
    const parts = [marker, gitDir, common, refOf(gitDir, common, 'HEAD', 0), stamp(join(common, 'shallow'))]
    if (exists(join(common, 'reftable'))) parts.push(read(join(common, 'reftable', 'tables.list')))
    return parts.join('\0')
  } catch {
    return undefined
  }
}

/** The nearest `.git` at or above `dir`: its folder (a worktree's `.git` file names it), and what the marker was. */
function findGitDir(dir: string): { gitDir: string; marker: string } | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const marker = join(at, '.git')
    const stat = statSync(marker, { throwIfNoEntry: false })
    if (stat?.isDirectory()) return { gitDir: marker, marker: `dir:${marker}` }
    if (stat?.isFile()) {
      const line = read(marker).trim()
      if (!line.startsWith('gitdir: ')) throw new Error(`unexpected ${marker}`)
      const target = line.slice('gitdir: '.length)
      return { gitDir: isAbsolute(target) ? target : join(at, target), marker: `file:${marker}:${line}` }
    }
    if (dirname(at) === at) return undefined
  }
}

/** Where a worktree's shared refs live (the `commondir` file), or the folder itself. */
function commonDir(gitDir: string): string {
  const file = join(gitDir, 'commondir')
  if (!exists(file)) return gitDir
  const target = read(file).trim()
  return isAbsolute(target) ? target : join(gitDir, target)
}

/** `ref`'s value: its loose file's text (a symbolic ref followed), else the packed refs' identity. */
function refOf(gitDir: string, common: string, ref: string, depth: number): string {
  if (depth > MAX_SYMREF_DEPTH) throw new Error('symbolic refs too deep')
  // HEAD and other per-worktree refs live in the worktree's folder, branches in the common one.
  const loose = [join(gitDir, ref), join(common, ref)].find(exists)
  if (!loose) return `packed:${stamp(join(common, 'packed-refs'))}`
  const text = read(loose).trim()
  if (!text.startsWith('ref: ')) return `${ref}=${text}`
  return `${ref}->${refOf(gitDir, common, text.slice('ref: '.length), depth + 1)}`
}

/** A file's identity without reading it (a rewrite through a rename changes the inode), or `-` when absent. */
function stamp(path: string): string {
  const stat = statSync(path, { throwIfNoEntry: false, bigint: true })
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}` : '-'
}

function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined
}

function read(path: string): string {
  return readFileSync(path, 'utf8')
}
