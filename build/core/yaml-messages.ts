/**
 * YAML syntax errors in the author's terms. The parser's own words ("Nested
 * mappings are not allowed in compact mappings") name its grammar; an author
 * wrote `title: Launch: the new thing` and needs to hear "quote the title",
 * with the line written the way it parses.
 */
import type { YAMLError } from 'yaml'

export interface AuthorMessage {
  /** The field the error is about when the line names one, else `frontmatter`. */
  field: string
  detail: string
}

/** `key: value` on one line (in a list item too), as an author writes a field. */
const FIELD_LINE = /^\s*(?:-\s+)?([A-Za-z_][\w-]*):[ \t]+(.*?)\s*$/

/** The message for `error` at offset `at` of the frontmatter `yaml`. */
export function yamlMessage(error: Pick<YAMLError, 'code' | 'message'>, yaml: string, at: number): AuthorMessage {
  const line = lineAt(yaml, at)
  const field = FIELD_LINE.exec(line)
  const key = field?.[1]
  const value = field?.[2] ?? ''
  const quoted = key ? `, like ${key}: ${quote(value)}` : ''
  const about = key ?? 'frontmatter'
  switch (error.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
      if (key && /:\s/.test(value))
        return {
          field: about,
          detail: `the value has a colon followed by a space, which YAML reads as the start of another field: put the value in quotes${quoted}`,
        }
      break
    case 'BAD_SCALAR_START': {
      const first = /reserved character (.)/.exec(error.message)?.[1] ?? value[0]
      return {
        field: about,
        detail: `a value cannot start with ${first} in YAML: put the value in quotes${quoted}`,
      }
    }
    case 'UNEXPECTED_TOKEN':
      if (key && /^["'[{]/.test(value))
        return {
          field: about,
          detail: `the value goes on after its closing ${closing(value[0]!)}: put the whole value in quotes${quoted}`,
        }
      break
    case 'BLOCK_IN_FLOW':
      return {
        field: about,
        detail:
          "a colon followed by a space inside { … } starts another key: quote text that has one, like description: 'Note: read first'",
      }
    case 'DUPLICATE_KEY':
      return { field: key ?? 'frontmatter', detail: `${key ?? 'this field'} is written twice: keep one of them` }
    case 'TAB_AS_INDENT':
      return { field: 'frontmatter', detail: 'a tab indents this line: YAML indents with spaces only' }
    case 'MISSING_CHAR':
      if (/closing "/.test(error.message) || /closing '/.test(error.message)) {
        const mark = /closing (["'])/.exec(error.message)![1]
        return {
          field: 'frontmatter',
          detail: `a value opened with ${mark} is never closed: end it with ${mark} on the line it starts`,
        }
      }
      break
    case 'BAD_INDENT':
      if (/Flow sequence/.test(error.message))
        return { field: 'frontmatter', detail: 'a list opened with [ is not closed: end it with ], like tags: [a, b]' }
      if (/Flow mapping/.test(error.message))
        return { field: 'frontmatter', detail: 'a group opened with { is not closed: end it with }' }
      break
    case 'MULTIPLE_DOCS':
      return {
        field: 'frontmatter',
        detail: 'the frontmatter has a second --- line inside it: it must start and end with exactly one',
      }
  }
  const first = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
  return {
    field: about,
    detail: `${first} (YAML syntax: a value with a colon, a quote or a leading special character goes in quotes${quoted})`,
  }
}

/** What an alias (`*name`) or a tag (`!name`) that the author meant as text needs. */
export function literalMessage(kind: 'alias' | 'tag', source: string, yaml: string, at: number): AuthorMessage {
  const field = FIELD_LINE.exec(lineAt(yaml, at))
  const key = field?.[1]
  const value = field?.[2] ?? source
  const what = kind === 'alias' ? 'a reference to a YAML anchor' : 'a YAML tag'
  return {
    field: key ?? 'frontmatter',
    detail: `${source} is read as ${what}, not as text: put the value in quotes${key ? `, like ${key}: ${quote(value)}` : ''}`,
  }
}

function lineAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', Math.max(0, offset - 1)) + 1
  const end = text.indexOf('\n', offset)
  return text.slice(start, end < 0 ? undefined : end)
}

/** `value` as a YAML string that parses back to exactly it. */
export function quote(value: string): string {
  if (!value.includes('"') && !value.includes('\\')) return `"${value}"`
  return `'${value.replaceAll("'", "''")}'`
}

function closing(open: string): string {
  return open === '[' ? ']' : open === '{' ? '}' : open
}
