/**
 * Word count: the word-like segments of `Intl.Segmenter('en', {granularity:
 * 'word'})` (UAX #29), so prose in any script counts as a reader would. An
 * ASCII scan beside it gained nothing measurable at the sizes users have
 * (BENCHMARKS.md, "Mechanisms and their gains") and was removed.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'word' })

/**
 * @example countWords("e.g. 1,000 naïve don't") // 4
 */
export function countWords(text: string): number {
  let count = 0
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) count++
  return count
}
