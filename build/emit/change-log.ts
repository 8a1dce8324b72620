/**
 * The change feed's log: the committed history, then what the working tree
 * changed since the last commit (uncommitted edits, in `npm run dev` or a
 * build before a commit), each change placed at a position. The same content
 * and git history always give the same log.
 *
 * Positions: a commit's changes are at its time (never before the commit
 * before it), uncommitted ones after every change logged before them (at the
 * last commit's time, or a later release's), each numbered within its
 * second. A release (an item's `published_at` reached after it
 * was committed) and an expiry (its `expires_at` reached) are at their own
 * time, up to the build's clock: the build whose clock passes that time is
 * the one that logs it, after every position an earlier build handed out, so
 * cursors stay valid and webhooks go out at the release. Without any commit
 * to go by (no git, or content/ never committed) an item's position is its
 * updated_at, and nothing expired is logged.
 */
import { CHANGE_LOG_FORMAT, type ChangeLog, type LoggedChange } from '../../contract/changes.ts'
import type { BuiltContent } from './types.ts'
import { recordId } from '../pipeline/derive.ts'
import { Replay } from '../history/replay.ts'
import type { ContentHistory, FileState, HistoryChange } from '../history/types.ts'

export function deriveChangeLog(history: ContentHistory, content: BuiltContent): ChangeLog {
  const { committed, working } = history
  const replay = new Replay(content.asOf)
  const changes: HistoryChange[] = []
  for (const step of committed.steps) changes.push(...replay.apply(step.files, step.time))
  const files = replay.files
  const next = new Map<string, FileState | undefined>()
  for (const path of [...new Set([...files.keys(), ...working.keys()])].sort()) {
    const before = files.get(path)
    const after = working.get(path)
    if (!sameState(before, after)) next.set(path, after)
  }
  if (committed.lastTime === undefined) {
    changes.push(...placeByUpdatedAt(replay.applyAtClock(next), content))
  } else {
    // The committed files' releases and expiries up to the clock, then the working tree after all of them
    // (so an edit of an item released since the last commit is an update), then its own releases.
    changes.push(...replay.until(content.asOf))
    const at = Math.max(committed.lastTime, changes.at(-1)?.time ?? 0)
    changes.push(...replay.apply(next, at), ...replay.until(content.asOf))
  }
  return {
    format: CHANGE_LOG_FORMAT,
    history: committed.source,
    warning: committed.warning ?? null,
    changes: numbered(changes),
  }
}

function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  return (
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a.blob === b.blob &&
      a.published === b.published &&
      a.slug === b.slug &&
      a.collection === b.collection)
  )
}

/** With no commit to date them, changes (all creations) take their item's updated_at, oldest first. */
function placeByUpdatedAt(changes: HistoryChange[], content: BuiltContent): HistoryChange[] {
  const updatedAt = new Map<string, number>()
  for (const [collection, records] of Object.entries(content.summaries)) {
    for (const r of records) updatedAt.set(`${collection}/${r.slug}`, Math.floor(Date.parse(r.updated_at) / 1000))
  }
  return changes
    .map((c) => ({ ...c, time: Math.max(0, updatedAt.get(`${c.collection}/${c.slug}`) ?? 0) }))
    .sort(
      (a, b) =>
        a.time - b.time ||
        (a.collection < b.collection
          ? -1
          : a.collection > b.collection
            ? 1
            : a.slug < b.slug
              ? -1
              : a.slug > b.slug
                ? 1
                : 0),
    )
}

/** Sequence numbers within each second (the changes are in time order). */
function numbered(changes: readonly HistoryChange[]): LoggedChange[] {
  let seq = 0
  let previous = -1
  return changes.map(({ time, change, collection, slug }) => {
    seq = time === previous ? seq + 1 : 1
    previous = time
    return [time, seq, change, collection, slug, recordId(collection, slug)]
  })
}
