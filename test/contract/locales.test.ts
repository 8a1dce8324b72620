/** The shared rules of locales: Accept-Language negotiation, the locale parameter, and the search terms per language. */
import { describe, expect, it } from 'vitest'
import { chooseLocale, negotiateLocale } from '../../contract/locales.ts'
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
