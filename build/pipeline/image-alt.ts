/**
 * The images of a body with the line and column of their `!`, from
 * markdown-it tokens: those without alt text (`![](url)`) stop the build, and
 * the local ones are processed (build/pipeline/media.ts). markdown-it gives
 * block tokens line ranges and the image rule (markdown-engine.ts) records
 * each image's offset in its inline content; the content's lines are found
 * again in the source lines to turn that offset into a column.
 */
import type { Token } from 'markdown-it'
import { attr, meta, type ImageMeta } from './markdown-engine.ts'
import { altText } from './markdown-hast.ts'
import type { BodyImage, ImageWithoutAlt } from './markdown-types.ts'

/** Every image of the body, in document order, with whether it is written without alt text. */
export function bodyImages(tokens: Token[], markdown: string): (BodyImage & { bare: boolean })[] {
  const found: (BodyImage & { bare: boolean })[] = []
  let lines: string[] | undefined
  let row: { line: number; cursor: number } | undefined
  for (const token of tokens) {
    if (token.type === 'tr_open') row = { line: token.map![0], cursor: 0 }
    if (token.type !== 'inline') continue
    const images = (token.children ?? []).filter((child) => child.type === 'image')
    if (token.map) row = undefined
    if (!images.length) {
      if (row) advance(row, (lines ??= sourceLines(markdown))[row.line]!, token.content)
      continue
    }
    lines ??= sourceLines(markdown)
    for (const image of images) {
      const start = meta<ImageMeta>(image).start
      const position = row
        ? { line: row.line, column: cellColumn(lines[row.line]!, row.cursor, token.content, start) }
        : locate(lines, token.map?.[0] ?? 0, token.content, start)
      found.push({
        src: attr(image, 'src') ?? '',
        line: position.line + 1,
        column: position.column + 1,
        bare: meta<Partial<ImageMeta>>(image).inline === true && !altText(image.children ?? []).trim(),
      })
    }
    if (row) advance(row, lines[row.line]!, token.content)
  }
  return found
}

/** Inline images without alt text (`![](url)`), an accessibility error for authors. */
export function imagesWithoutAlt(images: readonly (BodyImage & { bare: boolean })[]): ImageWithoutAlt[] {
  return images.filter((i) => i.bare).map((i) => ({ url: i.src, line: i.line, column: i.column }))
}

/** Source lines as markdown-it sees them (line endings normalised; columns are unaffected). */
function sourceLines(markdown: string): string[] {
  return markdown.split(/\r\n?|\n/)
}

/**
 * Line and column (0-based) of `offset` in inline content that starts on
 * `firstLine`: each content line is its source line less the container
 * prefix (and trailing white space on the last), so it is found at the end.
 */
function locate(lines: string[], firstLine: number, content: string, offset: number): { line: number; column: number } {
  const before = content.slice(0, offset)
  const index = before.split('\n').length - 1
  const lineStart = before.lastIndexOf('\n') + 1
  const contentLine = content.slice(
    lineStart,
    content.indexOf('\n', lineStart) === -1 ? undefined : content.indexOf('\n', lineStart),
  )
  const source = lines[firstLine + index] ?? ''
  let at = source.lastIndexOf(contentLine)
  let shift = 0
  if (at === -1) {
    // A tab partly taken by the container comes back as spaces: match without them.
    const trimmed = contentLine.trimStart()
    shift = contentLine.length - trimmed.length
    at = source.lastIndexOf(trimmed)
  }
  return { line: firstLine + index, column: Math.max(0, at) + Math.max(0, offset - lineStart - shift) }
}

/** Column (0-based) of `offset` in a table cell's content, the cell being the next one from `cursor` in its row. */
function cellColumn(source: string, cursor: number, content: string, offset: number): number {
  const at = source.indexOf(content, cursor)
  return at === -1 ? cursor : at + offset
}

function advance(row: { cursor: number }, source: string, content: string): void {
  const at = source.indexOf(content, row.cursor)
  if (at !== -1) row.cursor = at + content.length
}
