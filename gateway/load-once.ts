/**
 * `loadOnce(load)`: a function that runs `load` on its first call and gives
 * every caller the same promise; a failed load is forgotten, so the next call
 * tries again rather than the process failing for good. For the modules a
 * gateway loads only when a request needs them (the MCP SDK, oidc-provider):
 * a process, or a Netlify Function instance, that never serves those routes
 * never evaluates them.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined
      throw error
    }))
}

/**
 * `loadOncePer(load)`: the same per key (a snapshot, say), held only as long
 * as the key is: one promise per key, a failed load forgotten.
 */
export function loadOncePer<K extends object, T>(load: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const loaded = new WeakMap<K, Promise<T>>()
  return (key) => {
    let pending = loaded.get(key)
    if (!pending) {
      pending = load(key)
      loaded.set(key, pending)
      pending.catch(() => loaded.delete(key))
    }
    return pending
  }
}
