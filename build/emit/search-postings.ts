/**
 * The index's postings as the build collects them: one entry per term, field
 * and document with the term's frequency there, in flat typed arrays (tens of
 * millions of terms at 10,000 items: objects or a Map per document would cost
 * seconds). `finish` merges the fields of a document into one impact per
 * term and document and lays the terms out in sorted order.
 */
import type { SearchIndexData } from '../../contract/search-index-format.ts'
import { checkpoint } from '../core/interrupt.ts'

type Impact = (tf: number, df: number, doc: number, field: number) => number

class Growable<T extends Int32Array | Uint8Array> {
  length = 0
  constructor(
    public data: T,
    private readonly make: (size: number) => T,
  ) {}
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2)
      bigger.set(this.data)
      this.data = bigger
    }
    this.data[this.length++] = value
  }
}

export class Postings {
  private readonly ids = new Map<string, number>()
  private readonly names: string[] = []
  private readonly term = new Growable(new Int32Array(1 << 16), (n) => new Int32Array(n))
  private readonly doc = new Growable(new Int32Array(1 << 16), (n) => new Int32Array(n))
  private readonly field = new Growable(new Uint8Array(1 << 16), (n) => new Uint8Array(n))
  private readonly tf = new Growable(new Int32Array(1 << 16), (n) => new Int32Array(n))
  /** Per term: the (document, field) it was last seen in, and its posting there. */
  private seen = new Int32Array(1 << 12)
  private slot = new Int32Array(1 << 12)
  private stamp = 0
  private currentDoc = 0
  private currentField = 0

  constructor(private readonly fields: number) {}

  /** The terms that follow belong to field `f` of document `d` (documents in ascending order). */
  startField(d: number, f: number): void {
    this.stamp++
    this.currentDoc = d
    this.currentField = f
  }

  add(name: string): void {
    let id = this.ids.get(name)
    if (id === undefined) {
      id = this.names.length
      this.ids.set(name, id)
      this.names.push(name)
      if (id === this.seen.length) this.growScratch()
    }
    if (this.seen[id] === this.stamp) {
      this.tf.data[this.slot[id]!]!++
      return
    }
    this.seen[id] = this.stamp
    this.slot[id] = this.tf.length
    this.term.push(id)
    this.doc.push(this.currentDoc)
    this.field.push(this.currentField)
    this.tf.push(1)
  }

  finish(impact: Impact): Omit<SearchIndexData, 'collections' | 'slugs'> {
    const count = this.term.length
    const terms = this.term.data
    const fields = this.fields
    const df = new Int32Array(this.names.length * fields)
    for (let p = 0; p < count; p++) df[terms[p]! * fields + this.field.data[p]!]!++
    // Terms in sorted order; postings grouped by term with a stable counting sort (documents stay ascending).
    const order = this.names.map((_, i) => i).sort((a, b) => (this.names[a]! < this.names[b]! ? -1 : 1))
    const rank = new Int32Array(order.length)
    for (const [r, id] of order.entries()) rank[id] = r
    const start = new Int32Array(order.length + 1)
    for (let p = 0; p < count; p++) start[rank[terms[p]!]! + 1]!++
    for (let r = 0; r < order.length; r++) start[r + 1]! += start[r]!
    const next = start.slice(0, order.length)
    const sorted = new Int32Array(count)
    for (let p = 0; p < count; p++) sorted[next[rank[terms[p]!]!]!++] = p
    return this.layout(order, start, sorted, df, impact)
  }

  private layout(
    order: number[],
    start: Int32Array,
    sorted: Int32Array,
    df: Int32Array,
    impact: Impact,
  ): Omit<SearchIndexData, 'collections' | 'slugs'> {
    const t = order.length
    const postingStart = new Uint32Array(t + 1)
    const gapStart = new Uint32Array(t + 1)
    const maxImpact = new Float32Array(t)
    const impacts = new Uint16Array(sorted.length)
    const gaps = new Growable(new Uint8Array(1 << 16), (n) => new Uint8Array(n))
    const scores = new Float64Array(sorted.length)
    const docs = this.doc.data
    const fieldOf = this.field.data
    const tfs = this.tf.data
    const fields = this.fields
    let postings = 0
    for (let r = 0; r < t; r++) {
      if ((r & 1023) === 0) checkpoint()
      postingStart[r] = postings
      gapStart[r] = gaps.length
      const id = order[r]!
      const first = postings
      let previous = -1
      let max = 0
      for (let i = start[r]!; i < start[r + 1]!; i++) {
        const p = sorted[i]!
        const d = docs[p]!
        const f = fieldOf[p]!
        const score = impact(tfs[p]!, df[id * fields + f]!, d, f)
        if (d === previous) scores[postings - 1]! += score
        else {
          scores[postings++] = score
          for (let gap = d - previous; ; gap >>>= 7) {
            if (gap < 0x80) {
              gaps.push(gap)
              break
            }
            gaps.push((gap & 0x7f) | 0x80)
          }
          previous = d
        }
      }
      for (let p = first; p < postings; p++) if (scores[p]! > max) max = scores[p]!
      maxImpact[r] = max
      const stored = maxImpact[r]!
      for (let p = first; p < postings; p++)
        impacts[p] = stored > 0 ? Math.min(65535, Math.round((scores[p]! / stored) * 65535)) : 0
    }
    postingStart[t] = postings
    gapStart[t] = gaps.length
    return {
      terms: order.map((id) => this.names[id]!),
      postingStart,
      gapStart,
      maxImpact,
      impacts: impacts.slice(0, postings),
      gaps: gaps.data.slice(0, gaps.length),
    }
  }

  private growScratch(): void {
    const seen = new Int32Array(this.seen.length * 2)
    seen.set(this.seen)
    this.seen = seen
    const slot = new Int32Array(this.slot.length * 2)
    slot.set(this.slot)
    this.slot = slot
  }
}
