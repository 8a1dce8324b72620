/**
 * What replaying the history needs of today's site.yaml: its locales and
 * fallbacks. The history keeps each file's locale as its name claims it
 * (`x.DE.md`), so a site that adds or renames a locale reads the same
 * commits differently without reading git again; a file claiming a locale the
 * site does not publish belongs to no feed (the build rejects it today).
 */
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
