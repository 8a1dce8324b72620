/** The shared rules of locales: Accept-Language negotiation, the locale parameter, and the search terms per language. */
import { describe, expect, it } from 'vitest'
import { chooseLocale, itemIndex, itemIndexAfter, negotiateLocale, type ItemIndex } from '../../contract/locales.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { forEachTerm, termsOf } from '../../contract/search-terms.ts'
import { stemmerOf } from '../../contract/stemming.ts'

const SITE = { default: 'en', available: ['en', 'de', 'fr', 'pt-BR'], fallback: ['de'] }

describe('Accept-Language', () => {
  it.each([
    [null, 'en'],
    ['', 'en'],
    ['de', 'de'],
    ['DE-at', 'de'],
    ['fr-CH, fr;q=0.9, en;q=0.8', 'fr'],
    ['it, de;q=0.5', 'de'],
    ['en;q=0.2, fr;q=0.9', 'fr'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['fr;q=0, de;q=0.1', 'de'],
    ['*', 'en'],
    ['ja, ko', 'en'],
    ['de;q=abc', 'de'],
  ])('%s → %s', (header, locale) => {
    expect(negotiateLocale(header, SITE)).toBe(locale)
  })

  it('a locale parameter wins, matched without regard to case; an unknown one is an error naming the choices', () => {
    const errors: { parameter: string; message: string }[] = []
    expect(chooseLocale(new URLSearchParams('locale=PT-br'), 'de', SITE, errors)).toEqual({
      locale: 'pt-BR',
      negotiated: false,
    })
    expect(chooseLocale(new URLSearchParams(''), 'de', SITE, errors)).toEqual({ locale: 'de', negotiated: true })
    expect(errors).toEqual([])
    chooseLocale(new URLSearchParams('locale=es'), null, SITE, errors)
    expect(errors).toEqual([
      { parameter: 'locale', message: 'must be one of this site\'s locales (en, de, fr, pt-BR), got "es"' },
    ])
  })
})

describe('search terms per language', () => {
  const same = (locale: string, a: string, b: string) =>
    expect(termsOf(a, stemmerOf(locale)), `${a} / ${b}`).toEqual(termsOf(b, stemmerOf(locale)))
  it('English, German, French and Spanish words meet their other forms, accents folded', () => {
    same('en', 'contracts checking', 'contract checks')
    same('de', 'Datenverträge Prüfungen', 'Datenvertrag Prüfung')
    same('de-CH', 'Gewohnheiten', 'gewohnheit')
    same('fr', 'données vérifiées', 'donnée vérifiée')
    same('es', 'contratos de datos', 'contrato de dato')
    expect(termsOf('Équipes', stemmerOf('fr'))).toEqual(['equip'])
  })

  it("gives the same terms with a caller's table of stemmed words, which it fills and then reads", () => {
    const text = 'Données vérifiées, DONNÉES vérifiées: équipes et Équipes; Straße STRASSE ǅemal'
    const stemmed = new Map<string, string>()
    const terms: string[] = []
    forEachTerm(text, (t) => terms.push(t), stemmerOf('fr'), stemmed)
    expect(terms).toEqual(termsOf(text, stemmerOf('fr')))
    expect(stemmed.get('données')).toBe('don')
    // A word already in the table is its term, whatever the stemmer would say: the table is read.
    stemmed.set('équipes', 'from-the-table')
    const again: string[] = []
    forEachTerm('Équipes', (t) => again.push(t), stemmerOf('fr'), stemmed)
    expect(again).toEqual(['from-the-table'])
  })

  it('a language without a stemmer is folded only; a single-language index is not stemmed', () => {
    expect(stemmerOf('ja')).toBeUndefined()
    expect(termsOf('Datenverträge')).toEqual(['datenvertrage'])
  })
})

describe('the item index after an edit (the dev server’s next snapshot)', () => {
  const site = { default: 'en', available: ['en', 'de', 'fr'], fallback: ['de'] }
  const record = (locale: string, slug: string, others: [string, string][] = []): ContentRecord =>
    ({
      slug,
      title: `${slug} (${locale})`,
      locale,
      translations: others.map(([l, s]) => ({ locale: l, slug: s, url: `/${l}/${s}` })),
    }) as unknown as ContentRecord
  // Two items with German and French versions, one in English only (standing in, in German, by fallback).
  const lists = (): ContentRecord[][] => {
    const en = [
      record('en', 'contracts', [
        ['de', 'vertraege'],
        ['fr', 'contrats'],
      ]),
      record('en', 'lineage', [['de', 'herkunft']]),
      record('en', 'only-english'),
    ]
    const de = [
      record('de', 'vertraege', [
        ['en', 'contracts'],
        ['fr', 'contrats'],
      ]),
      record('de', 'herkunft', [['en', 'lineage']]),
      en[2]!,
    ]
    const fr = [
      record('fr', 'contrats', [
        ['en', 'contracts'],
        ['de', 'vertraege'],
      ]),
    ]
    return [en, de, fr]
  }
  const fresh = (of: ContentRecord[][]) => itemIndex(site, (locale) => of[site.available.indexOf(locale)]!)
  /** Every key, each with the same records by locale, in the same order, as a fresh index. */
  const expectLikeFresh = (index: ItemIndex | undefined, of: ContentRecord[][]) => {
    const made = fresh(of)
    expect(index && [...index.keys()]).toEqual([...made.keys()])
    for (const [key, group] of made) expect([...index!.get(key)!], key).toEqual([...group])
    for (const [key, group] of made) for (const [l, r] of group) expect(index!.get(key)!.get(l)).toBe(r)
  }
  const retitled = (r: ContentRecord) => ({ ...r, title: `${r.title}, revised` }) as ContentRecord

  it('takes records replaced in place, items and translations, leaving the old index as it was', () => {
    const before = lists()
    const index = fresh(before)
    const after = before.map((list) => [...list])
    after[0]![0] = retitled(before[0]![0]!)
    after[2]![0] = retitled(before[2]![0]!)
    // The English-only post in both lists it is in (German falls back to it).
    after[0]![2] = after[1]![2] = retitled(before[0]![2]!)
    expectLikeFresh(itemIndexAfter(site, index, before, after), after)
    expectLikeFresh(index, before)
  })

  it('is made again when a slug, a translation or the order changed', () => {
    const before = lists()
    const index = fresh(before)
    const slug = before.map((list) => [...list])
    slug[1]![1] = { ...before[1]![1]!, slug: 'abstammung' } as ContentRecord
    expect(itemIndexAfter(site, index, before, slug)).toBeUndefined()
    const untranslated = before.map((list) => [...list])
    untranslated[0]![1] = { ...before[0]![1]!, translations: [] } as ContentRecord
    expect(itemIndexAfter(site, index, before, untranslated)).toBeUndefined()
    const moved = before.map((list) => [...list])
    moved[0] = [before[0]![1]!, before[0]![0]!, before[0]![2]!]
    expect(itemIndexAfter(site, index, before, moved)).toBeUndefined()
    const added = before.map((list) => [...list])
    added[2]!.push(record('fr', 'herkunft-fr', [['en', 'lineage']]))
    expect(itemIndexAfter(site, index, before, added)).toBeUndefined()
    // A locale gone from site.yaml: its items too.
    const withoutFrench = { ...site, available: ['en', 'de'] }
    expect(itemIndexAfter(withoutFrench, index, before, before.slice(0, 2))).toBeUndefined()
    // Nothing replaced: the same index; every record replaced by an equal one: its groups, with the new records.
    expect(itemIndexAfter(site, index, before, [...before])).toBe(index)
    const again = lists()
    expectLikeFresh(itemIndexAfter(site, index, before, again), again)
  })
})
