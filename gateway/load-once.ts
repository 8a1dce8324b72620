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
