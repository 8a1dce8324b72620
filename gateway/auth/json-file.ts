/**
 * The credential files (API keys, OAuth clients): JSON validated with zod on
 * read, a missing file read as empty, and written through a temporary file
 * with owner-only permissions so a reader never sees half a file.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { z } from 'zod'

/** What a file is called in errors, and how its errors are thrown. */
export interface JsonFileKind {
  label: string
  error: (message: string) => Error
}

export async function readJsonFile<T>(path: string, schema: z.ZodType<T>, kind: JsonFileKind, empty: T): Promise<T> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty
    throw kind.error(`cannot read ${kind.label} ${path}: ${(error as Error).message}`)
  }
  return parseJsonFile(text, path, schema, kind)
}

export function parseJsonFile<T>(text: string, path: string, schema: z.ZodType<T>, kind: JsonFileKind): T {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw kind.error(`${kind.label} ${path} is not JSON: ${(error as Error).message}`)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw kind.error(`${kind.label} ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
  }
  return parsed.data
}

export async function writeJsonFile<T>(path: string, schema: z.ZodType<T>, data: T): Promise<void> {
  // The default files live in a git-ignored folder a fresh clone does not have yet.
  await mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temp, `${JSON.stringify(schema.parse(data), null, 2)}\n`, { mode: 0o600 })
  await rename(temp, path)
}
