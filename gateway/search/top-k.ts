/**
 * The `k` best of many documents, in order (score descending, then document
 * order, so ties are stable), without sorting them all: a bounded sorted list
 * that most candidates fail to enter after one comparison.
 */
const SORT_ALL_ABOVE = 256

export function bestFirst(docs: ArrayLike<number>, k: number, score: (doc: number) => number): number[] {
  if (k <= 0 || docs.length === 0) return []
  const before = (a: number, sa: number, b: number, sb: number) => sa > sb || (sa === sb && a < b)
  if (k > SORT_ALL_ABOVE || k >= docs.length) {
    const scored = Array.from(docs, (d) => [d, score(d)] as const)
    scored.sort((x, y) => (before(x[0], x[1], y[0], y[1]) ? -1 : 1))
    return scored.slice(0, k).map(([d]) => d)
  }
  const best: number[] = []
  const bestScores: number[] = []
  for (let at = 0; at < docs.length; at++) {
    const doc = docs[at]!
    const s = score(doc)
    if (best.length === k && !before(doc, s, best[k - 1]!, bestScores[k - 1]!)) continue
    let i = best.length === k ? k - 1 : best.length
    while (i > 0 && before(doc, s, best[i - 1]!, bestScores[i - 1]!)) {
      best[i] = best[i - 1]!
      bestScores[i] = bestScores[i - 1]!
      i--
    }
    best[i] = doc
    bestScores[i] = s
  }
  return best
}
