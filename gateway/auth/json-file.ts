/**
 * The credential files (API keys, OAuth clients): JSON validated with zod on
 * read, a missing file read as empty, changed only under the file's lock and
 * written durably with owner-only permissions (store/durable-file.ts), so a
 * reader never sees half a file, two writers never lose each other's change,
 * and a change that returned survives a crash. A file that cannot be read or
 * written is a StoreUnavailableError naming it.
 */
import type { z } from 'zod'
import { readText, withFileLock, writeDurably } from './store/durable-file.ts'
import { storeFault } from './store/store-errors.ts'

/** What a file is called in errors, and how its errors are thrown. */
export interface JsonFileKind {
  label: string
  error: (message: string) => Error
}

export async function readJsonFile<T>(path: string, schema: z.ZodType<T>, kind: JsonFileKind, empty: T): Promise<T> {
  let text: string | undefined
  try {
    text = await readText(path)
  } catch (error) {
    throw storeFault(path, error)
  }
  return text === undefined ? empty : parseJsonFile(text, path, schema, kind)
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

/** Replace the file with `data` (a test's or a tool's seed; changes go through updateJsonFile). */
export async function writeJsonFile<T>(path: string, schema: z.ZodType<T>, data: T): Promise<void> {
  const text = serialize(schema, data)
  try {
    // The default files live in a git-ignored folder a fresh clone does not have yet: made here.
    await withFileLock(path, () => writeDurably(path, text))
  } catch (error) {
    throw storeFault(path, error)
  }
}

/**
 * Read the file, change it and write it back as one step, holding its lock: `change` gets the
 * current content (`read`'s, validated) and returns the new one; a change that throws writes
 * nothing. Returns what was written.
 */
export async function updateJsonFile<T>(
  path: string,
  schema: z.ZodType<T>,
  read: () => Promise<T>,
  change: (current: T) => T,
): Promise<T> {
  try {
    return await withFileLock(path, async () => {
      const next = schema.parse(change(await read()))
      await writeDurably(path, serialize(schema, next))
      return next
    })
  } catch (error) {
    throw storeFault(path, error)
  }
}

const serialize = <T>(schema: z.ZodType<T>, data: T) => `${JSON.stringify(schema.parse(data), null, 2)}\n`
