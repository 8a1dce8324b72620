/**
 * Stemming per language, for the search of a multilingual site: each
 * locale's index and queries reduce words to their Snowball stems in that
 * locale's language (`Verträge` and `Vertrag` are one term in German,
 * `données` and `donnée` in French), with @orama/stemmers, then fold accents
 * like every term (search-terms.ts). A language without a stemmer here is
 * folded only.
 */
import { stemmer as danish } from '@orama/stemmers/danish'
import { stemmer as dutch } from '@orama/stemmers/dutch'
import { stemmer as english } from '@orama/stemmers/english'
import { stemmer as finnish } from '@orama/stemmers/finnish'
import { stemmer as french } from '@orama/stemmers/french'
import { stemmer as german } from '@orama/stemmers/german'
import { stemmer as italian } from '@orama/stemmers/italian'
import { stemmer as norwegian } from '@orama/stemmers/norwegian'
import { stemmer as portuguese } from '@orama/stemmers/portuguese'
import { stemmer as spanish } from '@orama/stemmers/spanish'
import { stemmer as swedish } from '@orama/stemmers/swedish'

/** A word (lower-cased, accents kept: the Snowball rules read them) to its stem. */
export type Stemmer = (word: string) => string

const STEMMERS: Record<string, Stemmer> = {
  da: danish,
  de: german,
  en: english,
  es: spanish,
  fi: finnish,
  fr: french,
  it: italian,
  nb: norwegian,
  nl: dutch,
  nn: norwegian,
  no: norwegian,
  pt: portuguese,
  sv: swedish,
}

/** The stemmer of a locale's language (`de-CH` → German), undefined when there is none. */
export function stemmerOf(locale: string): Stemmer | undefined {
  return STEMMERS[locale.split('-')[0]!.toLowerCase()]
}
