/**
 * Stage 1, load: read every Markdown file of every collection and split it into
 * frontmatter and body (frontmatter.ts). The frontmatter is read with js-yaml
 * under `yaml`'s core schema (yaml-fast.ts), dates kept as the strings the
 * author wrote; `yaml`, which keeps source positions, parses it again only
 * when an error needs a position, and reads what yaml-fast.ts declines.
 */
import { isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml'
import { ContentError } from '../core/errors.ts'
import { locate } from '../core/locate.ts'
import type { SourceFile } from '../core/sources.ts'
import { literalMessage, yamlMessage } from '../core/yaml-messages.ts'
import { layoutProblems } from './yaml-layout.ts'
import { loadFrontmatter } from './yaml-fast.ts'
import { splitFrontmatter } from './frontmatter.ts'

export interface LoadedFile {
  source: SourceFile
  /** Parsed frontmatter, or undefined when the YAML has syntax errors. */
  data: unknown
  /** The frontmatter as a `yaml` document with source positions; parsed when first read (for an error's position). */
  readonly doc: Document | undefined
  /** Maps a YAML offset to a line and column of the whole file. */
  position: (offset: number) => { line: number; column: number }
  body: string
  /** 1-based line of the file on which the body starts. */
  bodyLine: number
}

/** Split one file; YAML syntax errors are pushed to `errors` and leave `data` undefined. */
export function parseSource(source: SourceFile, errors: ContentError[]): LoadedFile {
  const text = source.raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n')
  let yamlText: string | undefined
  /** The frontmatter as `yaml` reads it, with positions: made when first asked for (positions) or needed (errors). */
  let parsed: { doc: Document; lineCounter: LineCounter } | undefined
  const parseWithPositions = () => {
    if (parsed || yamlText === undefined) return parsed
    const lineCounter = new LineCounter()
    const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true, schema: 'core' })
    parsed = { doc, lineCounter }
    return parsed
  }
  /** Values an author meant as text that YAML reads as an alias (`*bold*`) or a tag (`!important`). */
  let literal: { kind: 'alias' | 'tag'; source: string; offset: number } | undefined
  let fast = true
  const split = splitFrontmatter(text)
  /** The frontmatter's data: `{}` when there is none; read by js-yaml, else by `yaml` (errors, literals). */
  const read = (input: string): unknown => {
    yamlText = input
    const quick = loadFrontmatter(input)
    if (quick) return quick.data ?? {}
    fast = false
    const { doc } = parseWithPositions()!
    if (doc.errors.length) return {}
    literal = literalIn(doc)
    if (literal) return {}
    return doc.toJS({ maxAliasCount: 50 }) ?? {}
  }
  const otherLanguage = split.language !== '' && !YAML_NAMES.has(split.language.toLowerCase())
  let data: unknown = split.matter === undefined || otherLanguage ? {} : read(split.matter)
  // Line offset of the frontmatter inside the file: the YAML starts after the opening `---`.
  const hasYaml = yamlText !== undefined
  const lineOffset = hasYaml ? countLines(text.slice(0, split.start)) - 1 : 0
  const position = (offset: number) => {
    // A file without frontmatter has no YAML lines: its problems are at its start.
    const yaml = parseWithPositions()
    if (!yaml) return { line: 1, column: 1 }
    const pos = yaml.lineCounter.linePos(offset)
    return { line: pos.line + lineOffset, column: pos.col }
  }
  const doc = fast ? undefined : parsed?.doc
  const matter = split.matter ?? ''
  if (!split.opened) {
    // Without its fences the frontmatter is body text: one error says so, not one per field it lacks.
    errors.push(new ContentError('NO_FRONTMATTER', source.path, 1, 1, 'frontmatter', noFrontmatter(text)))
    data = undefined
  } else if (otherLanguage) {
    const detail = `"---${split.language}" opens frontmatter in another language; frontmatter is YAML: open it with a line of just "---"`
    errors.push(new ContentError('YAML_SYNTAX', source.path, 1, 4, 'frontmatter', detail))
    data = undefined
  } else if (!split.closed) {
    // The body was read as YAML: what YAML says of it (or the fields it made) says nothing of the missing line.
    const detail = 'the frontmatter is never closed: end it with a line `---` before the body'
    errors.push(new ContentError('YAML_SYNTAX', source.path, 1, 1, 'frontmatter', detail))
    data = undefined
  } else if (doc && doc.errors.length > 0) {
    const layout = layoutProblems(matter)
    for (const problem of layout?.problems ?? []) {
      const { line, column } = position(problem.offset)
      errors.push(new ContentError('YAML_SYNTAX', source.path, line, column, problem.field, problem.detail))
    }
    // What else is wrong once the layout is fixed, as the lines will be then (the same lines, a column may move).
    const lineCounter = new LineCounter()
    const rest = layout
      ? parseDocument(layout.fixed, { lineCounter, prettyErrors: false, uniqueKeys: true, schema: 'core' }).errors
      : doc.errors
    for (const error of rest) {
      const { line, column } = layout
        ? { line: lineCounter.linePos(error.pos[0]).line + lineOffset, column: lineCounter.linePos(error.pos[0]).col }
        : position(error.pos[0])
      const { field, detail } = yamlMessage(error, layout?.fixed ?? matter, error.pos[0])
      errors.push(new ContentError('YAML_SYNTAX', source.path, line, column, field, detail))
    }
    data = undefined
  } else if (literal) {
    // A tag's node starts after the tag: point at the `!` the author wrote.
    if (literal.kind === 'tag') literal.offset = Math.max(0, matter.lastIndexOf('!', literal.offset))
    const { line, column } = position(literal.offset)
    const { field, detail } = literalMessage(literal.kind, literal.source, matter, literal.offset)
    errors.push(new ContentError('YAML_SYNTAX', source.path, line, column, field, detail))
    data = undefined
  }
  const bodyStart = text.length - split.content.length
  return {
    source,
    data,
    get doc() {
      return parseWithPositions()?.doc
    },
    position,
    body: split.content,
    bodyLine: countLines(text.slice(0, bodyStart)),
  }
}

/** What a file without an opening `---` line is told, with where its `---` is when it has one further down. */
function noFrontmatter(text: string): string {
  if (text.trim() === '')
    return 'this file is empty: it must start with its frontmatter, from a line `---` to a line `---`'
  const fence = text.split('\n').findIndex((line) => line.trimEnd() === '---')
  const later = fence > 0 ? `; its first \`---\` is on line ${fence + 1}, which must be the first line` : ''
  return `this file has no frontmatter (it must start with a line \`---\`)${later}`
}

/** The names a frontmatter may give its language after `---` (gray-matter's, any case). */
const YAML_NAMES = new Set(['yaml', 'yml'])

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

/**
 * Where `path` is written in the frontmatter, worked out when first read: an
 * error reads it, a valid file never does, so valid files are never parsed
 * with positions.
 */
export function lazyPosition(file: LoadedFile, path: (string | number)[]): { line: number; column: number } {
  let at: { line: number; column: number } | undefined
  const resolve = () => (at ??= file.position(locate(file.doc, path).offset))
  return {
    get line() {
      return resolve().line
    },
    get column() {
      return resolve().column
    },
  }
}
