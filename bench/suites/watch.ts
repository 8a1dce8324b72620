/**
 * Watch mode: edit one file → the gateway serves the new bytes. Pending until
 * the watch mode (`npm run dev`, build/watch.ts) has a programmatic API.
 */
import type { Corpus } from '../corpus/generate.ts'

export async function benchWatch(_corpus: Corpus, _runs: number): Promise<number[] | string> {
  return 'pending: the watch mode (build/watch.ts) has not landed'
}
