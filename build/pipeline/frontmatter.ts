/**
 * Split a Markdown file into its frontmatter and its body, where gray-matter
 * used to: the same split (test/build/pipeline/frontmatter.test.ts compares
 * the two), without its costs and its one danger. gray-matter copied every
 * file into a Buffer and merged its options on every call (a tenth of a cold
 * build's parsing), and it read a frontmatter opened with `---js` by
 * evaluating it: a content file could run code on the machine that built it.
 * Here the frontmatter is text; load.ts reads it as YAML, and reports any
 * other language.
 *
 * @example
 * splitFrontmatter('---\ntitle: A\n---\n\nBody')
 * // { matter: '\ntitle: A', start: 3, language: '', content: '\nBody', opened: true, closed: true }
 */
export interface FrontmatterSplit {
  /**
   * The text between the opening `---` line's end (after any language named
   * on it) and the closing `---` line; undefined when the file has no
   * frontmatter, or only blank lines and comments in it.
   */
  matter: string | undefined
  /** Offset of `matter` in the file. */
  start: number
  /** The language named after the opening `---` (`---yaml`), trimmed; '' when none. */
  language: string
  /** The body: what follows the closing `---` line (all of the file when there is no frontmatter). */
  content: string
  /** Whether the file opens with `---` (a frontmatter, even an empty one). */
  opened: boolean
  /** Whether a `---` line closes the frontmatter it opens (without one, the rest of the file is frontmatter). */
  closed: boolean
}

const OPEN = '---'
const CLOSE = '\n---'

/**
 * Split `text` (line breaks already `\n`, no byte-order mark). As gray-matter
 * does: frontmatter opens with `---` at the very start (not `----`), and
 * closes at the next line starting with `---`; without a closing line, all of
 * the rest is frontmatter and the body is empty.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  if (!text.startsWith(OPEN) || text[OPEN.length] === '-')
    return { matter: undefined, start: 0, language: '', content: text, opened: false, closed: false }
  let rest = text.slice(OPEN.length)
  const lineEnd = rest.indexOf('\n')
  const named = lineEnd === -1 ? rest : rest.slice(0, lineEnd)
  const language = named.trim()
  let start = OPEN.length
  if (language) {
    rest = rest.slice(named.length)
    start += named.length
  }
  const close = rest.indexOf(CLOSE)
  const matter = close === -1 ? rest : rest.slice(0, close)
  let content = close === -1 ? '' : rest.slice(close + CLOSE.length)
  if (content[0] === '\r') content = content.slice(1)
  if (content[0] === '\n') content = content.slice(1)
  return { matter: isBlank(matter) ? undefined : matter, start, language, content, opened: true, closed: close !== -1 }
}

/** Only blank lines and comment lines: no data (gray-matter did not parse such a block). */
function isBlank(matter: string): boolean {
  return matter.replace(/^\s*#[^\n]+/gm, '').trim() === ''
}
