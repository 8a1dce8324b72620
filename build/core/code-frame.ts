/**
 * A short code frame under an author error: the lines around it with a caret
 * at the column, so `npm run check` shows what is wrong without opening the
 * file. Read from disk when printed; a file that cannot be read gets none.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { codeFrameColumns } from '@babel/code-frame'
import type { ContentError } from './errors.ts'

export async function codeFrame(root: string, error: ContentError): Promise<string | undefined> {
  const source = await readFile(join(root, error.file), 'utf8').catch(() => undefined)
  if (source === undefined) return undefined
  const frame = codeFrameColumns(
    source,
    { start: { line: error.line, column: error.column } },
    { highlightCode: false, linesAbove: 1, linesBelow: 1 },
  )
  return frame
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}
