/**
 * What the build knows of content/'s history: the changes git recorded
 * (build/history/git-history.ts) and the state of the working tree
 * (the compiler's own files), from which build/emit/change-log.ts makes
 * the change feeds' logs.
 */
import type { ChangeType, HistorySource } from '../../contract/changes.ts'
import type { CollectionName } from '../../contract/model/model.ts'
import type { PublicationWindow } from '../pipeline/schedule.ts'

/** One content file at one point in history. */
export interface FileState {
  collection: CollectionName
  /** The item's key, shared by its translations (`my-post` of `my-post.de.md` and `my-post/index.md`). */
  key: string
  /**
   * The locale its file name claims, as written (`de` of `my-post.de.md`); undefined for a file
   * without one. Matched against today's site.yaml when the history is replayed (replay-site.ts).
   */
  locale?: string
  slug: string
  /** False for drafts. */
  published: boolean
  /** The git blob id of its bytes: equal ids, equal content. */
  blob: string
  /**
   * When a published file's item is public (build/pipeline/schedule.ts): released at `from`,
   * expired at `until`, in seconds; undefined when it does not say (public at once, for good).
   */
  window?: PublicationWindow
  /** The working tree's only: its `aliases:` (old slugs and page paths), which the redirects add to the history's. */
  aliases?: readonly string[]
}

/** A change to a published item, at a commit. */
export interface HistoryChange {
  /** Seconds since the epoch (the commit's, never earlier than the commit before). */
  time: number
  change: ChangeType
  collection: CollectionName
  slug: string
  /** The locale of the record that changed (in a locale falling back, the default's records are the default locale's). */
  locale: string
}

/** One commit: its time (never earlier than the commit before) and the new state of each file it touched (undefined: removed). */
export interface CommitStep {
  time: number
  files: ReadonlyMap<string, FileState | undefined>
  /** Files git found renamed or moved in the commit: by new path, the old one (both among `files`). */
  renamed?: ReadonlyMap<string, string>
}

/** content/'s history as git recorded it, up to the last commit that touched it. */
export interface CommittedHistory {
  source: HistorySource
  /**
   * Why the history is incomplete (no git, a shallow clone), as the change feed's public
   * `meta.warning`: it names no path of the machine. Undefined when complete.
   */
  warning?: string
  /** The same for the build's log, with git's own reason (which may name the checkout's path). */
  detail?: string
  /**
   * The commits in order, each file's state read from it: replayed with the build's clock into
   * item changes (replay.ts), since what was public when depends on releases and expiries.
   */
  steps: CommitStep[]
  /** Every content file at the last commit, by project-relative path. */
  files: ReadonlyMap<string, FileState>
  /** Time of the last commit that touched content/; undefined when none did. */
  lastTime: number | undefined
}

/** The history, and every content file as the build compiled it (by path). */
export interface ContentHistory {
  committed: CommittedHistory
  working: ReadonlyMap<string, FileState>
}
