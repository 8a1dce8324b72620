/**
 * What replaying the history needs of today's site.yaml: its locales and
 * fallbacks. The history keeps each file's locale as its name claims it
 * (`x.DE.md`), so a site that adds or renames a locale reads the same
 * commits differently without reading git again; a file claiming a locale the
 * site does not publish belongs to no feed (the build rejects it today).
 */
import { isLive, type ReleaseWindow } from '../pipeline/schedule.ts'
import type { FileState } from './types.ts'

export interface ReplaySite {
  /** The default locale (site.yaml's `language`). */
  language: string
  /** Every locale, the default first: one change feed each. */
  locales: readonly string[]
  /** The locales where the default locale's items stand in for a missing translation. */
  fallback: readonly string[]
}

/** The site's locale a file is written in (a file without a locale in its name: the default); undefined for one it does not publish. */
export function localeOfFile(state: Pick<FileState, 'locale'>, site: ReplaySite): string | undefined {
  if (state.locale === undefined) return site.language
  const wanted = state.locale.toLowerCase()
  return site.locales.find((l) => l.toLowerCase() === wanted)
}

/**
 * When a translation is public: the intersection of its own release window and its item's (the
 * default locale's file): a translation is not out before the item it translates, nor after it expired.
 *
 * The build computes a translation's window in one place too: the branch `schedule-locales` (issue 33)
 * makes build/compiler/locales.ts publish translations by this same intersection. Until it is merged the
 * build publishes a translation by its own window alone; on merge, unify both on one function.
 */
export function translationWindow(
  own: ReleaseWindow | undefined,
  item: ReleaseWindow | undefined,
): ReleaseWindow | undefined {
  if (!own || !item) return own ?? item
  const until =
    own.until === undefined ? item.until : item.until === undefined ? own.until : Math.min(own.until, item.until)
  return { from: Math.max(own.from, item.from), until }
}

/** Whether a file is public at `at` (seconds), judged by `window` (its own, or a translation's effective one). */
export function isPublicIn(state: FileState, window: ReleaseWindow | undefined, at: number): boolean {
  return state.published && isLive(window, at)
}
