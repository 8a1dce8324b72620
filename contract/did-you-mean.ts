/** "Did you mean …?" for author and operator errors: the closest known name to a misspelt one. */

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = tmp
    }
  }
  return row[b.length]!
}

/**
 * The candidate closest to `name`, if it is at most `maxDistance` edits away.
 *
 * @example closest('titel', ['title', 'tags'], 2) // 'title'
 */
export function closest(name: string, candidates: Iterable<string>, maxDistance: number): string | undefined {
  let best: string | undefined
  let bestDistance = maxDistance + 1
  for (const candidate of candidates) {
    const distance = editDistance(candidate, name)
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance]
  }
  return best
}
