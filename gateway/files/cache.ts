/**
 * What a store keeps in memory of its builds, in one byte budget
 * (FILE_CACHE_MB, byte-lru.ts): the files read from dist/ (keyed by ETag),
 * the answers the gateway rendered (`render\0…`, snapshot.ts) and the
 * answers the Node fast path repeats (`answer\0…`, http/answer-memo.ts).
 * One budget for all three, so what only caches stays within the setting
 * however many distinct requests arrive.
 */
import type { MemoAnswer } from '../http/answer-memo.ts'
import type { ByteLru } from './byte-lru.ts'
import type { StoredFile } from './source.ts'

/** A file and the bytes it keeps alive. */
export interface CachedFile {
  file: StoredFile
  size: number
}

/** A remembered answer and roughly the bytes it keeps alive (its body is held weakly, so not counted). */
export interface CachedAnswer {
  answer: MemoAnswer
  size: number
}

export type FileCache = ByteLru<CachedFile | CachedAnswer>

/** The file kept under `key`, if it is still in the cache. */
export function cachedFile(cache: FileCache, key: string): StoredFile | undefined {
  const entry = cache.get(key)
  return entry !== undefined && 'file' in entry ? entry.file : undefined
}
