/**
 * Where each item address went, from content/'s history: an address is a
 * collection, a locale and a slug (`blog-posts`, `en`, `my-post`), and its
 * last event is either a move (the file was renamed or moved, which git
 * reports, or its `slug:` changed) to another address, or a removal (the
 * file deleted, or made a draft). The redirects emitter (build/emit/redirects.ts)
 * follows the moves from every address that was once public to where the
 * item is now, or to a tombstone.
 *
 * The working tree counts as a last step after every commit: a slug changed
 * and not yet committed moves at once in `npm run dev`, and so does a file
 * renamed in the working tree (its bytes unchanged: found by its blob).
 */
import type { CollectionName } from '../../contract/model/model.ts'
import { localeOfFile, type ReplaySite } from './replay-site.ts'
import type { ContentHistory, FileState } from './types.ts'

export interface Address {
  collection: CollectionName
  locale: string
  slug: string
}

/** An address's last event: moved to `to` at `time`, or (no `to`) taken out of publication. */
export interface AddressEvent {
  time: number
  to?: Address
}

/** `blog-posts/en/my-post`: the key of an address in maps. */
export const addressKey = (a: Address) => `${a.collection}/${a.locale}/${a.slug}`

/** After every commit: the working tree's step. */
const WORKING_TIME = Number.MAX_SAFE_INTEGER

/** Every address's last event, by addressKey. */
export function addressEvents(history: ContentHistory, site: ReplaySite): Map<string, AddressEvent> {
  const events = new Map<string, AddressEvent>()
  const current = new Map<string, FileState>()
  const addressOf = (state: FileState): Address | undefined => {
    const locale = localeOfFile(state, site)
    return locale === undefined ? undefined : { collection: state.collection, locale, slug: state.slug }
  }
  const step = (
    files: ReadonlyMap<string, FileState | undefined>,
    renamed: ReadonlyMap<string, string> | undefined,
    time: number,
  ) => {
    const movedAway = new Set(renamed?.values() ?? [])
    // The renamed files as they were before the step (a step removes the old path before it adds the new one).
    const sources = new Map([...(renamed ?? [])].map(([to, from]) => [to, current.get(from)]))
    for (const [path, state] of files) {
      const before = current.get(path)
      const was = before && addressOf(before)
      const source = state && !before ? sources.get(path) : undefined
      const origin = was ?? (source && addressOf(source))
      const now = state && addressOf(state)
      if (origin && now && addressKey(origin) !== addressKey(now) && origin.locale === now.locale)
        events.set(addressKey(origin), { time, to: now })
      // Gone from publication: the file deleted (not renamed), or made a draft.
      if (was && (state === undefined ? !movedAway.has(path) : !state.published && before.published))
        events.set(addressKey(was), { time })
      if (state) current.set(path, state)
      else current.delete(path)
    }
  }
  for (const commit of history.committed.steps) step(commit.files, commit.renamed, commit.time)
  const next = new Map<string, FileState | undefined>()
  for (const path of new Set([...current.keys(), ...history.working.keys()])) {
    const before = current.get(path)
    const after = history.working.get(path)
    if (before?.blob !== after?.blob || before?.slug !== after?.slug || before?.published !== after?.published)
      next.set(path, after)
  }
  step(next, workingRenames(next, current), WORKING_TIME)
  return events
}

/** Files the working tree renamed since the last commit: a new path holding the bytes a removed one held. */
function workingRenames(
  next: ReadonlyMap<string, FileState | undefined>,
  current: ReadonlyMap<string, FileState>,
): Map<string, string> | undefined {
  const removedByBlob = new Map<string, string>()
  for (const [path, state] of next)
    if (state === undefined && current.has(path)) removedByBlob.set(current.get(path)!.blob, path)
  let renamed: Map<string, string> | undefined
  for (const [path, state] of next) {
    const from = state && !current.has(path) ? removedByBlob.get(state.blob) : undefined
    if (from !== undefined) (renamed ??= new Map()).set(path, from)
  }
  return renamed
}
