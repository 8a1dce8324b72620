/**
 * Imported files and where they came from. Each file's frontmatter starts
 * with a comment naming its export item and a hash of what the import
 * wrote: `# imported from wordpress post 123 (a1b2c3d4e5f60718)`. Importing
 * again compares: the same text is left alone (a second import changes no
 * file), a file whose text still has its hash (nobody edited it) is
 * updated, one edited since is left alone and reported unless --force, and
 * a file the import did not write is never overwritten.
 */
import { createHash } from 'node:crypto'
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { stringify } from 'yaml'
import type { MediaCopy } from './media.ts'

export type Outcome = 'created' | 'updated' | 'unchanged' | 'edited' | 'taken'

const PROVENANCE = /^---\n# imported from (\S+ \S+ \S+) \(([0-9a-f]{16})\)\n/

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)

/** The file's text: the provenance line, the frontmatter and the body. */
export function fileText(source: string, frontmatter: Record<string, unknown>, body: string): string {
  const yaml = stringify(frontmatter, { lineWidth: 0, defaultStringType: 'PLAIN', singleQuote: false })
  const rest = `${yaml}---\n\n${body.trim()}\n`
  return `---\n# imported from ${source} (${hashOf(rest)})\n${rest}`
}

/** What writing `text` at `path` would do, given what is there now. */
export async function outcomeOf(
  root: string,
  path: string,
  source: string,
  text: string,
  force: boolean,
): Promise<Outcome> {
  let current: string
  try {
    current = await readFile(join(root, path), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'created'
    throw error
  }
  if (current === text) return 'unchanged'
  const match = PROVENANCE.exec(current)
  if (!match || match[1] !== source) return 'taken'
  const unedited = hashOf(current.slice(match[0].length)) === match[2]
  return unedited || force ? 'updated' : 'edited'
}

/** What a write replaced, to put back when the file turns out invalid. */
export interface Undo {
  path: string
  before: string | undefined
}

/** Write the file and copy its images; what to undo. */
export async function writeItem(
  root: string,
  path: string,
  text: string,
  media: readonly MediaCopy[],
): Promise<Undo[]> {
  const undo: Undo[] = []
  for (const file of [{ path, text }, ...media.map((m) => ({ path: m.to, from: m.from }))]) {
    const target = join(root, file.path)
    const before = await readFile(target, 'latin1').catch(() => undefined)
    // An image already there with the same bytes is left as it is (a second import touches nothing).
    if ('from' in file && before !== undefined && before === (await readFile(file.from, 'latin1'))) continue
    await mkdir(dirname(target), { recursive: true })
    if ('text' in file && file.text !== undefined) await writeFile(target, file.text)
    else if ('from' in file) await copyFile(file.from, target)
    undo.push({ path: file.path, before })
  }
  return undo
}

/** Put back what the writes replaced (or remove what they created). */
export async function undoWrites(root: string, undo: readonly Undo[]): Promise<void> {
  for (const { path, before } of [...undo].reverse())
    if (before === undefined) await rm(join(root, path), { force: true })
    else await writeFile(join(root, path), before, 'latin1')
}
