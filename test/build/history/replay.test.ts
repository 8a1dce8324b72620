/**
 * The replay's change feeds per locale, commit by commit, on file states as
 * the history reads them: a site in en (default), de (falls back to en) and
 * fr (does not). Each case names what every locale's feed logs: a
 * translation added, edited, renamed, removed, made a draft or expired;
 * releases within the item's window; the hreflang data of the records that
 * name a translation; and a single-language site's feed as it always was.
 */
import { describe, expect, it } from 'vitest'
import { keyOf } from '../../../build/core/sources.ts'
import { Replay, type LocaleChanges } from '../../../build/history/replay.ts'
import type { ReplaySite } from '../../../build/history/replay-site.ts'
import type { FileState } from '../../../build/history/types.ts'

const SITE: ReplaySite = { language: 'en', locales: ['en', 'de', 'fr'], fallback: ['de'] }
const SINGLE: ReplaySite = { language: 'en', locales: ['en'], fallback: [] }
const T1 = 1_000_000
const T2 = T1 + 100
const T3 = T2 + 100
const NOW = T3 + 10_000

let blobs = 0
/** A published file of blog-posts at `name` (`x.md`, `x.de.md`, `x/index.fr.md`), its slug its key unless given. */
function file(name: string, extra: Partial<FileState> = {}): [string, FileState] {
  const { key, locale } = keyOf(name)
  const state: FileState = {
    collection: 'blog-posts',
    key,
    ...(locale !== undefined && { locale }),
    slug: key,
    published: true,
    blob: `blob-${++blobs}`,
    ...extra,
  }
  return [`content/blog-posts/${name}`, state]
}
const removed = (name: string): [string, undefined] => [`content/blog-posts/${name}`, undefined]
const commit = (...files: [string, FileState | undefined][]) => new Map(files)

/** Each locale's changes as `change slug@locale`. */
function told(changes: LocaleChanges): Record<string, string[]> {
  return Object.fromEntries(
    [...changes].map(([locale, list]) => [locale, list.map((c) => `${c.change} ${c.slug}@${c.locale}`)]),
  )
}

describe('a translation in the change feeds', () => {
  it('added: its own feed creates it; a falling-back locale first tombstones the default record it replaces; the default record is updated (its translations changed)', () => {
    const replay = new Replay(NOW, SITE)
    expect(told(replay.apply(commit(file('x.md')), T1))).toEqual({
      en: ['created x@en'],
      de: ['created x@en'],
      fr: [],
    })
    expect(told(replay.apply(commit(file('x.de.md', { slug: 'x-de' })), T2))).toEqual({
      en: ['updated x@en'],
      de: ['deleted x@en', 'created x-de@de'],
      fr: [],
    })
    // French does not fall back: its feed starts with the translation; every other record names it.
    expect(told(replay.apply(commit(file('x/index.fr.md', { slug: 'x-fr' })), T3))).toEqual({
      en: ['updated x@en'],
      de: ['updated x-de@de'],
      fr: ['created x-fr@fr'],
    })
  })

  it('edited: only its own locale updates it (nobody else shows its bytes)', () => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md'), file('x.de.md')), T1)
    expect(told(replay.apply(commit(file('x.de.md')), T2))).toEqual({ en: [], de: ['updated x@de'], fr: [] })
  })

  it('a new slug: a tombstone of its old id and its creation under the new one; the records naming it are updated', () => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md'), file('x.de.md', { slug: 'alt' }), file('x.fr.md')), T1)
    expect(told(replay.apply(commit(file('x.de.md', { slug: 'neu' })), T2))).toEqual({
      en: ['updated x@en'],
      de: ['deleted alt@de', 'created neu@de'],
      fr: ['updated x@fr'],
    })
  })

  it.each([
    ['removed', removed('x.de.md')],
    ['made a draft', file('x.de.md', { published: false })],
  ])('%s: a tombstone of its id, then in a locale that falls back the default record standing in', (_, change) => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md'), file('x.de.md'), file('x.fr.md')), T1)
    expect(told(replay.apply(commit(change), T2))).toEqual({
      en: ['updated x@en'],
      de: ['deleted x@de', 'created x@en'],
      fr: ['updated x@fr'],
    })
    // And back: the stand-in's tombstone, then the translation.
    expect(told(replay.apply(commit(file('x.de.md')), T3))).toEqual({
      en: ['updated x@en'],
      de: ['deleted x@en', 'created x@de'],
      fr: ['updated x@fr'],
    })
  })

  it('removed where the locale does not fall back: only its tombstone (German shows the English record, which no longer names it)', () => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md'), file('x.fr.md')), T1)
    expect(told(replay.apply(commit(removed('x.fr.md')), T2))).toEqual({
      en: ['updated x@en'],
      de: ['updated x@en'],
      fr: ['deleted x@fr'],
    })
  })

  it('expired (its own expires_at): at that time, a tombstone and the stand-in, the default record updated', () => {
    const expiry = T2 + 50
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md'), file('x.de.md', { window: { from: 0, until: expiry } })), T1)
    const changes = replay.until(NOW)
    expect(told(changes)).toEqual({ en: ['updated x@en'], de: ['deleted x@de', 'created x@en'], fr: [] })
    expect([...changes.get('de')!].map((c) => c.time)).toEqual([expiry, expiry])
  })

  it('is public only within its item’s window: released with the item, gone when the item expires', () => {
    const release = T2 + 10
    const expiry = T3 + 10
    const replay = new Replay(NOW, SITE)
    // The translation says it is out at once; its item is released later and expires.
    const first = replay.apply(
      commit(
        file('x.md', { window: { from: release, until: expiry } }),
        file('x.de.md', { window: { from: 0, until: undefined } }),
      ),
      T1,
    )
    expect(told(first)).toEqual({ en: [], de: [], fr: [] })
    const later = replay.until(NOW)
    expect(told(later)).toEqual({
      en: ['created x@en', 'deleted x@en'],
      de: ['created x@de', 'deleted x@de'],
      fr: [],
    })
    expect(later.get('de')!.map((c) => c.time)).toEqual([release, expiry])
  })

  it('its item made a draft: gone in every locale with it (a translation is published only while its item is), back with it', () => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md'), file('x.de.md'), file('x.fr.md')), T1)
    expect(told(replay.apply(commit(file('x.md', { published: false })), T2))).toEqual({
      en: ['deleted x@en'],
      de: ['deleted x@de'],
      fr: ['deleted x@fr'],
    })
    expect(told(replay.apply(commit(file('x.md')), T3))).toEqual({
      en: ['created x@en'],
      de: ['created x@de'],
      fr: ['created x@fr'],
    })
  })

  it('its item removed: the translation stays in its locale, naming the default record no more', () => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md'), file('x.de.md')), T1)
    expect(told(replay.apply(commit(removed('x.md')), T2))).toEqual({
      en: ['deleted x@en'],
      de: ['updated x@de'],
      fr: [],
    })
  })

  it('the default item edited: updated in the default feed and where it stands in for a translation', () => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md'), file('y.md'), file('y.de.md')), T1)
    expect(told(replay.apply(commit(file('x.md'), file('y.md')), T2))).toEqual({
      en: ['updated x@en', 'updated y@en'],
      de: ['updated x@en'],
      fr: [],
    })
  })

  it('a file claiming a locale the site does not publish is in no feed and names no translation', () => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md')), T1)
    expect(told(replay.apply(commit(file('x.it.md')), T2))).toEqual({ en: [], de: [], fr: [] })
  })

  it('matches the locale of a file name without regard to case, as the build does', () => {
    const replay = new Replay(NOW, SITE)
    replay.apply(commit(file('x.md')), T1)
    expect(told(replay.apply(commit(file('x.DE.md')), T2)).de).toEqual(['deleted x@en', 'created x@de'])
  })
})

describe('a single-language site', () => {
  it('logs created, updated and deleted by collection and slug; a new slug is a deletion and a creation', () => {
    const replay = new Replay(NOW, SINGLE)
    expect(told(replay.apply(commit(file('a.md'), file('b.md')), T1))).toEqual({ en: ['created a@en', 'created b@en'] })
    expect(told(replay.apply(commit(file('a.md', { slug: 'a-new' }), file('b.md')), T2))).toEqual({
      en: ['deleted a@en', 'created a-new@en', 'updated b@en'],
    })
    expect(told(replay.apply(commit(removed('b.md')), T3))).toEqual({ en: ['deleted b@en'] })
  })

  it('reads a file named with the default locale (`x.en.md`) as the item it is, and one with another locale not at all', () => {
    const replay = new Replay(NOW, SINGLE)
    expect(told(replay.apply(commit(file('x.en.md'), file('y.de.md')), T1))).toEqual({ en: ['created x@en'] })
  })
})
