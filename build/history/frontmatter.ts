/**
 * What the history needs of a content file at an old commit: its slug,
 * whether it was a draft, and when it was public (`published_at`,
 * `expires_at`). Only the YAML frontmatter is read (the schemas of that time
 * may differ from today's, so nothing is validated).
 */
import { parse } from 'yaml'
import { SLUG_PATTERN } from '../../contract/patterns.ts'
import { publicationWindow, type PublicationWindow } from '../pipeline/schedule.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)
const OPENING = /^\uFEFF?---[ \t]*\r?\n/
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m

/** A top-level `published_at:` or `expires_at:` line with a plain (or quoted) date or date-time and nothing else. */
const DATE_LINE =
  /^(published_at|expires_at):[ \t]*(["']?)(\d{4}-\d{2}-\d{2}(?:[Tt][\d:.]+(?:[Zz]|[+-]\d{2}:\d{2})?)?)\2[ \t]*(?:#.*)?$/gm

export interface Publication {
  slug: string | undefined
  draft: boolean
  /** When the file's item is public; undefined when its dates are missing or unreadable (then: at once, for good). */
  window: PublicationWindow | undefined
}

/**
 * The frontmatter's `slug` (undefined when it sets none: the file's name is
 * the slug), `draft` and release window; undefined when the frontmatter does not parse.
 */
export function readPublication(text: string): Publication | undefined {
  const opening = OPENING.exec(text)
  if (!opening) return { slug: undefined, draft: false, window: undefined }
  const rest = text.slice(opening[0].length)
  const closing = CLOSING.exec(rest)
  if (!closing) return undefined
  const yaml = rest.slice(0, closing.index)
  const dates: Record<string, string> = {}
  for (const [, name, , value] of yaml.matchAll(DATE_LINE)) dates[name!] = value!
  // Most files name neither draft nor slug and write their dates plainly: no YAML parse for them
  // (a long history has tens of thousands of versions).
  if (!/\b(?:draft|slug)\b/.test(yaml) && dates.published_at && (dates.expires_at || !/\bexpires_at\b/.test(yaml)))
    return { slug: undefined, draft: false, window: publicationWindow(dates) }
  let data: unknown
  try {
    data = parse(yaml, { schema: 'core', maxAliasCount: 50 }) ?? {}
  } catch {
    return undefined
  }
  if (typeof data !== 'object' || Array.isArray(data) || data === null) return undefined
  const { slug, draft, published_at, expires_at } = data as Record<string, unknown>
  if (slug !== undefined && (typeof slug !== 'string' || !SLUG_RE.test(slug))) return undefined
  return { slug, draft: draft === true, window: publicationWindow({ published_at, expires_at }) }
}
