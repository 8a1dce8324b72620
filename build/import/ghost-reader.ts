/**
 * A Ghost export (its JSON, `{db: [{meta, data: {posts, tags, users, …}}]}`)
 * read as a stream with stream-json, so the posts' bodies are never all in
 * memory: the small tables (users, tags and the joins) in one pass, whole,
 * and the posts in another, row by row. Each pass reads the whole file, and
 * the parser is asked for whole values only (no token per piece of a
 * string): a post's editor document can be larger than the heap allows.
 */
import { createReadStream } from 'node:fs'
import { Readable, type Transform } from 'node:stream'
import filterTables from 'stream-json/filters/filter.js'
import pick from 'stream-json/filters/pick.js'
import streamArray from 'stream-json/streamers/stream-array.js'
import streamValues from 'stream-json/streamers/stream-values.js'
import { ImportError } from './import-error.ts'

export type GhostRow = Record<string, unknown>

/** The paths of the tables named: Ghost 1+ wraps the data in db[0], older exports have it at the top. */
const tablesPattern = (tables: readonly string[]) => new RegExp(`^(?:db\\.0\\.)?data\\.(?:${tables.join('|')})$`)

/** The values a pass over `file` through `filter` gives, each as a whole. */
async function* values(file: string, filter: Transform, streamer: Transform): AsyncGenerator<unknown> {
  const source = createReadStream(file)
  const filtered = source.pipe(filter)
  const out = filtered.pipe(streamer)
  const failed = (error: Error) => out.destroy(error)
  source.on('error', failed)
  filtered.on('error', failed)
  try {
    for await (const { value } of Readable.from(out) as AsyncIterable<{ value: unknown }>) yield value
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall) throw error
    throw new ImportError(`${file} is not a Ghost export (JSON): ${(error as Error).message}`)
  }
}

/** The rows of one table of the export, in order; none when the export has no such table. */
export async function* ghostRows(file: string, table: string): AsyncGenerator<GhostRow> {
  const filter = pick.withParserAsStream({ filter: tablesPattern([table]), streamValues: false }) as Transform
  for await (const value of values(file, filter, streamArray.asStream() as Transform))
    if (value && typeof value === 'object') yield value as GhostRow
}

/** Whole (small) tables, read in one pass; a table the export lacks has no rows. */
export async function ghostTables<T extends string>(
  file: string,
  tables: readonly T[],
): Promise<Record<T, GhostRow[]>> {
  const filter = filterTables.withParserAsStream({
    filter: tablesPattern(tables),
    streamValues: false,
    acceptObjects: true,
  }) as Transform
  const found: Record<string, unknown> = {}
  for await (const value of values(file, filter, streamValues.asStream() as Transform)) {
    const root = (value ?? {}) as { db?: { data?: Record<string, unknown> }[]; data?: Record<string, unknown> }
    Object.assign(found, root.data, root.db?.[0]?.data)
  }
  const rows = (table: T) => (Array.isArray(found[table]) ? found[table] : []).filter(isRow)
  return Object.fromEntries(tables.map((table) => [table, rows(table)])) as Record<T, GhostRow[]>
}

const isRow = (value: unknown): value is GhostRow => Boolean(value) && typeof value === 'object'

/** A row's field as text ('' when absent or not text). */
export const text = (row: GhostRow, key: string): string => {
  const value = row[key]
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
}
