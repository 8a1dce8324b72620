/**
 * Maps of sets, as the compiler's indexes of what no single file shows keep
 * them file by file (a file added under a key, or taken out, the key gone with
 * its last file).
 *
 * @example
 * addToSet(claims, 'blog-posts/launch@de', file) // 2: claimed twice
 */

/** Add `value` to the set at `key` (made when missing); the set's size after. */
export function addToSet<K, V>(map: Map<K, Set<V>>, key: K, value: V): number {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  return set.add(value).size
}

/** Take `value` out of the set at `key`, and the key once its set is empty; whether it was there. */
export function deleteFromSet<K, V>(map: Map<K, Set<V>>, key: K, value: V): boolean {
  const set = map.get(key)
  if (!set?.delete(value)) return false
  if (set.size === 0) map.delete(key)
  return true
}
