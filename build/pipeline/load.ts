/**
 * Stage 1, load: read every Markdown file of every collection and split it into
 * frontmatter and body with gray-matter. The frontmatter is parsed with `yaml`
 * (not js-yaml) because it keeps source positions for error messages and keeps
 * dates as the strings the author wrote.
 */
import matter from 'gray-matter'
import { isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml'
import { ContentError } from '../core/errors.ts'
import type { SourceFile } from '../core/sources.ts'
import { literalMessage, yamlMessage } from './yaml-messages.ts'

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
  /** Values an author meant as text that YAML reads as an alias (`*bold*`) or a tag (`!important`). */
  let literal: { kind: 'alias' | 'tag'; source: string; offset: number } | undefined
  const parsed = matter(text, {
    engines: {
      yaml: (input: string) => {
        lineCounter = new LineCounter()
        doc = parseDocument(input, { lineCounter, prettyErrors: false, uniqueKeys: true, schema: 'core' })
        if (doc.errors.length) return {}
        literal = literalIn(doc)
        if (literal) return {}
        return (doc.toJS({ maxAliasCount: 50 }) as object | null) ?? {}
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
      const { field, detail } = yamlMessage(error, parsed.matter, error.pos[0])
      errors.push(new ContentError('YAML_SYNTAX', source.path, line, column, field, detail))
    }
    data = undefined
  } else if (literal) {
    // A tag's node starts after the tag: point at the `!` the author wrote.
    if (literal.kind === 'tag') literal.offset = Math.max(0, parsed.matter.lastIndexOf('!', literal.offset))
    const { line, column } = position(literal.offset)
    const { field, detail } = literalMessage(literal.kind, literal.source, parsed.matter, literal.offset)
    errors.push(new ContentError('YAML_SYNTAX', source.path, line, column, field, detail))
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

/**
 * The first alias or tag of `doc`: frontmatter has no use for either, and an
 * author who wrote `title: *bold*` or `title: !important` meant text (an alias
 * without its anchor would otherwise throw, a tag quietly become "").
 */
function literalIn(doc: Document): { kind: 'alias' | 'tag'; source: string; offset: number } | undefined {
  let found: { kind: 'alias' | 'tag'; source: string; offset: number } | undefined
  visit(doc, {
    Alias(_, node) {
      found = { kind: 'alias', source: `*${node.source}`, offset: node.range?.[0] ?? 0 }
      return visit.BREAK
    },
    Node(_, node) {
      if (!node.tag || !isScalar(node)) return undefined
      found = { kind: 'tag', source: node.tag, offset: node.range?.[0] ?? 0 }
      return visit.BREAK
    },
  })
  return found
}
