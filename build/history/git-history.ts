/**
 * content/'s history from git: every commit on the first-parent line of
 * HEAD that touched content/, oldest first, with each file's state at each
 * commit, which the change log replays (replay.ts) to find when each
 * published item was created, updated and deleted (its file removed, turned
 * into a draft, or expired). Merges count as one change (their diff
 * against the first parent), the way main's readers saw them.
 *
 * Without git, outside a repository or with an unreadable one, the answer is
 * an empty history with a warning; a shallow clone gives the history it has,
 * with a warning that it starts at the cut.
 */
import { createHash } from 'node:crypto'
import { classify, keyOf } from '../core/sources.ts'
import { git, readBlobs, type GitResult } from './git.ts'
import { askShallow, CONTENT } from './history-key.ts'
import { readPublication } from './frontmatter.ts'
import { resolveSteps } from './replay.ts'
import type { CommittedHistory, FileState } from './types.ts'

export { askShallow, historyKey } from './history-key.ts'

interface RawChange {
  path: string
  /** The new blob; undefined when the file was deleted. */
  blob: string | undefined
}

interface Commit {
  time: number
  changes: RawChange[]
  /** Item files git found renamed (or moved) in this commit: by new path, the old one (moves.ts). */
  renamed?: Map<string, string>
}

/** git's answers about content/ that its history is read from: whether the clone is shallow and, when that could be asked, the log. */
export type ContentLog = { shallow: GitResult & { ok: false } } | { shallow: GitResult & { ok: true }; log: GitResult }

/**
 * Ask git for content/'s log: what readCommittedHistory starts from, which a build begins before it
 * compiles. `shallowAnswer`: askShallow's, when historyKey asked it too.
 */
export async function readContentLog(root: string, shallowAnswer = askShallow(root)): Promise<ContentLog> {
  const shallow = await shallowAnswer
  if (!shallow.ok) return { shallow }
  const log = await git(root, [
    'log',
    '--first-parent',
    '--diff-merges=first-parent',
    '--reverse',
    // Renames are a deletion and an addition to the feed, and an old address to redirect (build/history/moves.ts):
    // only a file git finds nearly unchanged, since a false redirect cannot be undone and a missed one is an alias.
    '--find-renames=90%',
    '--raw',
    '-z',
    '--no-abbrev',
    '--format=%x01%H %ct',
    '--relative',
    '--',
    CONTENT,
  ])
  return { shallow, log }
}

/**
 * Read the history of content/ in `root` (see the module comment). `known`
 * are the current files by blob: a version still on disk is not read from
 * git again (in a fresh clone, that is every file's last version). `asked`:
 * git's log when it was asked for already.
 */
export async function readCommittedHistory(
  root: string,
  known: ReadonlyMap<string, FileState & { path: string }> = new Map(),
  asked: Promise<ContentLog> = readContentLog(root),
): Promise<CommittedHistory> {
  const answers = await asked
  if (!('log' in answers)) return none(`content/ has no git history (${answers.shallow.reason})`)
  const { shallow, log } = answers
  if (!log.ok) {
    // A repository without commits has no history yet, but nothing is missing from it.
    if (/does not have any commits|bad default revision|unknown revision/.test(log.reason))
      return { source: 'git', steps: [], files: new Map(), lastTime: undefined }
    return none(`git cannot read content/'s history (${log.reason})`)
  }
  const commits = parseLog(log.stdout.toString('utf8'))
  const isKnown = (path: string, blob: string) => known.get(blob)?.path === path
  // By blob: equal bytes, equal frontmatter (the slug of a file without one is its name, so that is added per path).
  const publication = new Map<string, ReturnType<typeof readPublication>>()
  const wanted = [
    ...new Set(
      commits.flatMap((c) => c.changes.flatMap((ch) => (ch.blob && !isKnown(ch.path, ch.blob) ? [ch.blob] : []))),
    ),
  ]
  const read = await readBlobs(root, wanted, (blob, content) =>
    publication.set(blob, readPublication(content.toString('utf8'))),
  )
  if (!read.ok) return none(`git cannot read content/'s history (${read.reason})`)
  const { steps, files, lastTime } = resolveSteps(commits, (path, blob) => {
    const item = classify('.', path)
    if (item?.kind !== 'item') return undefined
    // The item's key and the locale the name claims (as written): what ties a translation to its item.
    const { key, locale } = keyOf(item.name)
    const named = { collection: item.collection, key, ...(locale !== undefined && { locale }) }
    if (isKnown(path, blob)) {
      const { slug, published, window } = known.get(blob)!
      return { ...named, slug, published, blob, window }
    }
    const found = publication.get(blob)
    if (!found) return undefined
    return { ...named, slug: found.slug ?? key, published: !found.draft, blob, window: found.window }
  })
  const isShallow = shallow.stdout.toString().trim() === 'true'
  return {
    source: isShallow ? 'shallow' : 'git',
    ...(isShallow && {
      warning:
        "the git clone is shallow, so content/'s history starts at its oldest commit: earlier deletions are missing from /api/changes (clone with the full history, e.g. actions/checkout with fetch-depth: 0)",
    }),
    steps,
    files,
    lastTime,
  }
}

/** What the change feed loses without history: said in the build's log and, without the reason, in the feed's meta. */
const WITHOUT_HISTORY = '/api/changes lists the published items by their updated_at and cannot report deletions'

function none(reason: string): CommittedHistory {
  return {
    source: 'none',
    // Public (the feed's meta.warning): never git's own words, which can name the server's folders.
    warning: `the build could not read content/'s git history, so ${WITHOUT_HISTORY}`,
    detail: `${reason}${hintFor(reason)}: ${WITHOUT_HISTORY}`,
    steps: [],
    files: new Map(),
    lastTime: undefined,
  }
}

/** How to fix the reasons a CI machine meets: a checkout owned by another user, git missing. */
function hintFor(reason: string): string {
  if (/dubious ownership/.test(reason))
    return ' (the checkout belongs to another user, as in a CI container: git config --global --add safe.directory <the checkout>)'
  if (/git is not installed/.test(reason)) return ' (install git)'
  return ''
}

/**
 * `git log --raw -z` output: per commit `\x01<sha> <time>\0`, then pairs of
 * `:<modes> <old> <new> <status>\0<path>\0` (a rename, `R<score>`, names both
 * paths: the old one's deletion and the new one's addition, remembered as a
 * rename). Only content files (of every locale) are kept.
 */
export function parseLog(text: string): Commit[] {
  const commits: Commit[] = []
  const tokens = text.split('\0')
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!.replace(/^\n/, '')
    if (token.startsWith('\x01')) {
      commits.push({ time: Number(token.slice(1).split(' ')[1]), changes: [] })
    } else if (token.startsWith(':') && commits.length) {
      const commit = commits[commits.length - 1]!
      const [, , , newBlob, status = ''] = token.slice(1).split(' ')
      const from = /^[RC]/.test(status) ? tokens[++i]! : undefined
      const path = tokens[++i]!
      // Translations too (`x.de.md`, `x/index.de.md`): each locale has its feed, and hreflang data is the default's.
      const isItem = (p: string) => classify('.', p)?.kind === 'item'
      if (from !== undefined && status.startsWith('R') && isItem(from)) {
        commit.changes.push({ path: from, blob: undefined })
        if (isItem(path)) (commit.renamed ??= new Map()).set(path, from)
      }
      if (!isItem(path)) continue
      commit.changes.push({
        path,
        blob: status === 'D' || /^0+$/.test(newBlob ?? '') ? undefined : newBlob,
      })
    }
  }
  return commits
}

/** The git blob id of `content` (what `git hash-object` prints). */
export function blobId(content: string | Buffer): string {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

export type { FileState }
