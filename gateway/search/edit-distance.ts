/**
 * Edit distance (Levenshtein with adjacent transpositions, the usual typos)
 * between two short words, giving up as soon as it must exceed `max`: the
 * near-spelling lookup compares a query word with thousands of terms.
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  const n = b.length
  let before = new Array<number>(n + 1)
  let previous = Array.from({ length: n + 1 }, (_, j) => j)
  let current = new Array<number>(n + 1)
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    let best = i
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1)
      current[j] = d
      if (d < best) best = d
    }
    if (best > max) return max + 1
    ;[before, previous, current] = [previous, current, before]
  }
  return previous[n]!
}
