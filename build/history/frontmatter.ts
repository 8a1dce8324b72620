/**
 * What the history needs of a content file at an old commit: its slug and
 * whether it was a draft. Only the YAML frontmatter is read (the schemas of
 * that time may differ from today's, so nothing is validated).
 */
import { parse } from 'yaml'
import { SLUG_PATTERN } from '../../contract/patterns.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)
const OPENING = /^\uFEFF?---[ \t]*\r?\n/
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m

/**
 * The frontmatter's `slug` (undefined when it sets none: the file's name is
 * the slug) and `draft`; undefined when the frontmatter does not parse.
 */
export function readPublication(text: string): { slug: string | undefined; draft: boolean } | undefined {
  const opening = OPENING.exec(text)
  if (!opening) return { slug: undefined, draft: false }
  const rest = text.slice(opening[0].length)
  const closing = CLOSING.exec(rest)
  if (!closing) return undefined
  const yaml = rest.slice(0, closing.index)
  // Most files name neither: no YAML parse for them (a long history has tens of thousands of versions).
  if (!/\b(?:draft|slug)\b/.test(yaml)) return { slug: undefined, draft: false }
  let data: unknown
  try {
    data = parse(yaml, { schema: 'core', maxAliasCount: 50 }) ?? {}
  } catch {
    return undefined
  }
  if (typeof data !== 'object' || Array.isArray(data) || data === null) return undefined
  const { slug, draft } = data as { slug?: unknown; draft?: unknown }
  if (slug !== undefined && (typeof slug !== 'string' || !SLUG_RE.test(slug))) return undefined
  return { slug, draft: draft === true }
}
