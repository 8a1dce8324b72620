/**
 * Where each API answer lives in dist/. Slugs cannot start with `_`, so the
 * `_list` folder never collides with an item.
 */
import { MAX_LIMIT } from './query.ts'

export const MANIFEST_FILE = '_build/manifest.json'

export function listFile(collection: string, limit: number): string {
  return `api/${collection}/_list/limit-${limit}.json`
}

export function itemFile(collection: string, slug: string): string {
  return `api/${collection}/${slug}.json`
}

export const PRERENDERED_LIMITS: readonly number[] = Array.from({ length: MAX_LIMIT }, (_, i) => i + 1)
