/**
 * Stage 1, load: read every Markdown file of every collection and split it into
 * frontmatter and body with gray-matter. The frontmatter is parsed with `yaml`
 * (not js-yaml) because it keeps source positions for error messages and keeps
 * dates as the strings the author wrote.
 */
import matter from 'gray-matter'
import { LineCounter, parseDocument, type Document } from 'yaml'
import { ContentError } from '../core/errors.ts'
import type { SourceFile } from '../core/sources.ts'

export interface LoadedFile {
  source: SourceFile
  /** Parsed frontmatter, or undefined when the YAML has syntax errors. */
  data: unknown
  doc: Document | undefined
  /** Maps a YAML offset to a line and column of the whole file. */
  position: (offset: number) => { line: number; column: number }
  body: string
  /** 1-based line of the file on which the body starts. */
  bodyLine: number
}

/** Split one file; YAML syntax errors are pushed to `errors` and leave `data` undefined. */
export function parseSource(source: SourceFile, errors: ContentError[]): LoadedFile {
  const text = source.raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n')
  let doc: Document | undefined
  let lineCounter = new LineCounter()
  const parsed = matter(text, {
    engines: {
      yaml: (input: string) => {
        lineCounter = new LineCounter()
        doc = parseDocument(input, { lineCounter, prettyErrors: false, uniqueKeys: true, schema: 'core' })
        return doc.errors.length === 0 ? ((doc.toJS({ maxAliasCount: 50 }) as object | null) ?? {}) : {}
      },
    },
  })
  // Line offset of the frontmatter inside the file: the YAML starts after the opening `---`.
  const yamlStart = doc ? text.indexOf(parsed.matter) : 0
  const lineOffset = doc ? countLines(text.slice(0, yamlStart)) - 1 : 0
  const position = (offset: number) => {
    // A file without frontmatter has no YAML lines: its problems are at its start.
    if (!doc) return { line: 1, column: 1 }
    const pos = lineCounter.linePos(offset)
    return { line: pos.line + lineOffset, column: pos.col }
  }
  let data: unknown = parsed.data
  if (doc && doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, column } = position(error.pos[0])
      errors.push(new ContentError('YAML_SYNTAX', source.path, line, column, 'frontmatter', firstLine(error.message)))
    }
    data = undefined
  }
  const bodyStart = text.length - parsed.content.length
  return { source, data, doc, position, body: parsed.content, bodyLine: countLines(text.slice(0, bodyStart)) }
}

function countLines(text: string): number {
  let lines = 1
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++
  return lines
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
}
