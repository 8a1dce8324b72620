/**
 * Author-facing errors. Every problem found in content becomes a
 * {@link ContentError} with a stable `code` and a source position, printed as
 * `content/blog-posts/x.md:12:3 authors[0].name: must not be empty`.
 */
import { AppError } from '../../contract/errors.ts'

export type ContentErrorCode =
  | 'YAML_SYNTAX'
  | 'NO_FRONTMATTER'
  | 'SCHEMA'
  | 'DUPLICATE_SLUG'
  | 'PERSON_SLUG'
  | 'DATE_ORDER'
  | 'IMAGE_ALT'
  | 'PLACEHOLDER'
  | 'IMAGE'
  | 'BODY_TOO_LONG'
  | 'REFERENCE'
  | 'BROKEN_LINK'
  | 'READ_FAILED'
  | 'LOCALE'
  | 'ALIAS'
  | 'COMPONENT'
  | 'HEADING_ID'

export class ContentError extends AppError {
  constructor(
    readonly code: ContentErrorCode,
    /** Path relative to the project root, with forward slashes. */
    readonly file: string,
    readonly line: number,
    readonly column: number,
    /** Frontmatter field in dotted form (`customer.name`, `authors[0].name`), or `body`/`frontmatter`. */
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${file}:${line}:${column} ${field}: ${detail}`)
  }
}

/** Thrown by a build or check run that found content errors; carries all of them. */
export class ContentErrors extends AppError {
  readonly code = 'CONTENT_INVALID'
  constructor(readonly errors: ContentError[]) {
    super(`${errors.length} content error${errors.length === 1 ? '' : 's'}${inFiles(errors)}`)
  }

  override lines(): string[] {
    return [this.message, ...this.errors.map((e) => e.message)]
  }
}

/** ` in content/a.md, content/b.md and 3 more files`: the message alone (a test's failure, a log line) names the files. */
function inFiles(errors: readonly ContentError[]): string {
  const files = [...new Set(errors.map((e) => e.file))]
  if (!files.length) return ''
  const shown = files.slice(0, 3)
  const more = files.length - shown.length
  return ` in ${shown.join(', ')}${more ? ` and ${more} more file${more === 1 ? '' : 's'}` : ''}`
}

/** Sort errors by file, then position, so every run prints them in the same order. */
export function sortErrors(errors: ContentError[]): ContentError[] {
  return [...errors].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column,
  )
}

/** A GitHub Actions workflow command, so CI shows the error on the changed line. */
export function toGithubAnnotation(error: ContentError): string {
  const escapeData = (value: string) => value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
  const prop = (value: string) => escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C')
  return `::error file=${prop(error.file)},line=${error.line},col=${error.column},title=${prop(error.field)}::${escapeData(error.detail)}`
}
