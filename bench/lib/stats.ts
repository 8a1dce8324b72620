/** Medians of repeated runs: the number a noisy shared machine can still compare. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Run `fn` `runs` times in sequence and collect its results. */
export async function repeat<T>(runs: number, fn: (run: number) => Promise<T>): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < runs; i++) out.push(await fn(i))
  return out
}
