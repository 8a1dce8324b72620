/**
 * A Ghost export (its JSON, `{db: [{meta, data: {posts, tags, users, …}}]}`)
 * read as a stream with stream-json: one table at a time, one row at a
 * time, so the posts' bodies are never all in memory. The small tables
 * (users, tags and the joins) are read whole, the posts row by row.
 */
import { createReadStream } from 'node:fs'
import { Readable, type Transform } from 'node:stream'
import pick from 'stream-json/filters/pick.js'
import streamArray from 'stream-json/streamers/stream-array.js'
import { ImportError } from './import-error.ts'

export type GhostRow = Record<string, unknown>

/** The rows of one table of the export, in order; none when the export has no such table. */
export async function* ghostRows(file: string, table: string): AsyncGenerator<GhostRow> {
  // Ghost 1+ wraps the data in db[0]; older exports have it at the top.
  const filter = new RegExp(`^(?:db\\.0\\.)?data\\.${table}$`)
  const source = createReadStream(file)
  const picked = source.pipe(pick.withParserAsStream({ filter }) as Transform)
  const rows = picked.pipe(streamArray.asStream() as Transform)
  const failed = (error: Error) => rows.destroy(error)
  source.on('error', failed)
  picked.on('error', failed)
  try {
    for await (const { value } of Readable.from(rows) as AsyncIterable<{ value: unknown }>)
      if (value && typeof value === 'object') yield value as GhostRow
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall) throw error
    throw new ImportError(`${file} is not a Ghost export (JSON): ${(error as Error).message}`)
  }
}

/** A whole (small) table. */
export async function ghostTable(file: string, table: string): Promise<GhostRow[]> {
  const rows: GhostRow[] = []
  for await (const row of ghostRows(file, table)) rows.push(row)
  return rows
}

/** A row's field as text ('' when absent or not text). */
export const text = (row: GhostRow, key: string): string => {
  const value = row[key]
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
}
