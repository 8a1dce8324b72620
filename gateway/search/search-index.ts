/**
 * The build's search index in memory: typed-array views into the index file
 * (contract/search-index-format.ts) and its sorted terms. A query adds
 * the precomputed impacts of its terms' postings per document, times the
 * number of query terms a document matched (as MiniSearch ranks); the last
 * word also matches as a prefix (it may still be being typed) and a word the
 * index does not have matches its near spellings (one or two edits).
 */
import { decodeSearchIndex, type SearchIndexData } from '../../contract/search-index-format.ts'
import { editDistanceWithin } from './edit-distance.ts'

/** A term of the index that a query term matched, and how much it counts. */
export interface TermMatch {
  /** Index of the query term it stands for. */
  query: number
  term: number
  weight: number
}

/** Weights of derived matches (MiniSearch's): a prefix or a near spelling counts less than the word itself. */
const PREFIX_WEIGHT = 0.375
const FUZZY_WEIGHT = 0.45
/** Shortest last word expanded as a prefix, and the most expansions (the most common first). */
const MIN_PREFIX = 3
const MAX_EXPANSIONS = 32
/** Shortest word looked up by near spelling, and where two edits are allowed. */
const MIN_FUZZY = 5
const TWO_EDITS = 10

export class SearchIndex {
  private readonly data: SearchIndexData
  /** Per document: score, matched query terms, and the query that touched it last. */
  private readonly scores: Float64Array
  private readonly matched: Uint8Array
  private readonly stamp: Uint32Array
  private readonly lastQuery: Int32Array
  /** Which of the (first 32) matches of the last run each document has. */
  private readonly mask: Uint32Array
  /** The documents the last run touched, in the order it met them (`run` hands out a view of it). */
  private readonly touched: Int32Array
  private masked = false
  private generation = 0

  constructor(file: Buffer) {
    this.data = decodeSearchIndex(file)
    const n = this.data.collections.length
    this.scores = new Float64Array(n)
    this.matched = new Uint8Array(n)
    this.stamp = new Uint32Array(n)
    this.lastQuery = new Int32Array(n)
    this.mask = new Uint32Array(n)
    this.touched = new Int32Array(n)
  }

  get documents(): number {
    return this.data.collections.length
  }

  collectionOf(doc: number): number {
    return this.data.collections[doc]!
  }

  slugOf(doc: number): string {
    return this.data.slugs[doc]!
  }

  termName(term: number): string {
    return this.data.terms[term]!
  }

  /** The index terms each query term matches: itself, the last one as a prefix, an unknown one by near spelling. */
  matchTerms(queryTerms: readonly string[]): TermMatch[] {
    const out: TermMatch[] = []
    queryTerms.forEach((q, i) => {
      const exact = this.find(q)
      if (exact >= 0) out.push({ query: i, term: exact, weight: 1 })
      let expanded = false
      if (i === queryTerms.length - 1 && q.length >= MIN_PREFIX) {
        for (const [term, name] of this.withPrefix(q)) {
          out.push({
            query: i,
            term,
            weight: (PREFIX_WEIGHT * name.length) / (name.length + 0.3 * (name.length - q.length)),
          })
          expanded = true
        }
      }
      if (exact < 0 && !expanded && q.length >= MIN_FUZZY) {
        for (const [term, distance] of this.nearSpellings(q, q.length >= TWO_EDITS ? 2 : 1)) {
          const length = this.data.terms[term]!.length
          out.push({ query: i, term, weight: (FUZZY_WEIGHT * length) / (length + distance) })
        }
      }
    })
    return out
  }

  /**
   * Score every document the matches touch; returns the touched documents
   * (their scores in `score(doc)`), each counted once: a view of one array
   * the index keeps, valid (and the caller's to reorder) until the next run,
   * so a search reads what it needs of it before it awaits anything.
   */
  run(matches: readonly TermMatch[]): Int32Array {
    const gen = ++this.generation
    const touched = this.touched
    let count = 0
    const { postingStart, gapStart, gaps, impacts, maxImpact } = this.data
    this.masked = matches.length <= 32
    for (let i = 0; i < matches.length; i++) {
      const m = matches[i]!
      const bit = this.masked ? 1 << i : 0
      const scale = (m.weight * maxImpact[m.term]!) / 65535
      let at = gapStart[m.term]!
      let doc = -1
      for (let p = postingStart[m.term]!, end = postingStart[m.term + 1]!; p < end; p++) {
        let gap = 0
        for (let shift = 0; ; shift += 7) {
          const byte = gaps[at++]!
          gap |= (byte & 0x7f) << shift
          if (byte < 0x80) break
        }
        doc += gap
        if (this.stamp[doc] !== gen) {
          this.stamp[doc] = gen
          this.scores[doc] = 0
          this.matched[doc] = 0
          this.lastQuery[doc] = -1
          this.mask[doc] = 0
          touched[count++] = doc
        }
        this.mask[doc]! |= bit
        this.scores[doc]! += scale * impacts[p]!
        if (this.lastQuery[doc] !== m.query) {
          this.lastQuery[doc] = m.query
          this.matched[doc]!++
        }
      }
    }
    return touched.subarray(0, count)
  }

  /** A touched document's score after `run`: its sum times the query terms it matched. */
  score(doc: number): number {
    return this.scores[doc]! * this.matched[doc]!
  }

  /** Which of `matches` (those of the last run) each of `docs` contains, for the hits' matched terms and snippets. */
  termsIn(matches: readonly TermMatch[], docs: readonly number[]): Map<number, number[]> {
    if (this.masked) {
      return new Map(
        docs.map((d) => {
          const terms: number[] = []
          matches.forEach((m, i) => {
            if (this.mask[d]! & (1 << i) && !terms.includes(m.term)) terms.push(m.term)
          })
          return [d, terms]
        }),
      )
    }
    const wanted = new Set(docs)
    const out = new Map<number, number[]>(docs.map((d) => [d, []]))
    const { postingStart, gapStart, gaps } = this.data
    for (const m of matches) {
      let at = gapStart[m.term]!
      let doc = -1
      for (let p = postingStart[m.term]!, end = postingStart[m.term + 1]!; p < end; p++) {
        let gap = 0
        for (let shift = 0; ; shift += 7) {
          const byte = gaps[at++]!
          gap |= (byte & 0x7f) << shift
          if (byte < 0x80) break
        }
        doc += gap
        if (wanted.has(doc)) {
          const terms = out.get(doc)!
          if (!terms.includes(m.term)) terms.push(m.term)
        }
      }
    }
    return out
  }

  /** Index of `term` in the sorted terms, or -1. */
  private find(term: string): number {
    const i = this.lowerBound(term)
    return this.data.terms[i] === term ? i : -1
  }

  private lowerBound(term: string): number {
    const terms = this.data.terms
    let lo = 0
    let hi = terms.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (terms[mid]! < term) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Terms longer than `prefix` that start with it, the most frequent first. */
  private withPrefix(prefix: string): [number, string][] {
    const terms = this.data.terms
    const out: [number, string][] = []
    for (let i = this.lowerBound(prefix); i < terms.length && terms[i]!.startsWith(prefix); i++)
      if (terms[i] !== prefix) out.push([i, terms[i]!])
    if (out.length <= MAX_EXPANSIONS) return out
    const df = (t: number) => this.data.postingStart[t + 1]! - this.data.postingStart[t]!
    return out.sort((a, b) => df(b[0]) - df(a[0]) || a[0] - b[0]).slice(0, MAX_EXPANSIONS)
  }

  /** Terms within `max` edits of `term` that share its first letter (typos rarely hit it), nearest first. */
  private nearSpellings(term: string, max: number): [number, number][] {
    const terms = this.data.terms
    const first = term[0]!
    const out: [number, number][] = []
    for (let i = this.lowerBound(first); i < terms.length && terms[i]!.startsWith(first); i++) {
      const candidate = terms[i]!
      if (Math.abs(candidate.length - term.length) > max) continue
      const distance = editDistanceWithin(term, candidate, max)
      if (distance > 0 && distance <= max) out.push([i, distance])
    }
    return out.sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, MAX_EXPANSIONS)
  }
}
