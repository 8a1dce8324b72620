/**
 * The one place the editor changes how Decap talks to the repository: every
 * backend it may use (GitHub in production, Decap's proxy backend, which is
 * the dev server's local backend, in `npm run dev`) gets the same wrappers
 * around the implementation Decap makes of it, so both lay the repository out
 * alike. A wrapper takes the implementation and returns it with some of its
 * methods replaced (the object stays the same: Decap calls its other methods
 * on it). The first wrapper is the innermost, the nearest to the repository.
 *
 * Plain browser ESM, copied into dist/admin/ as it is; Node runs it in the tests.
 */

/** The backends this editor configures (contract/admin-config.ts, and admin.js's local backend). */
const BACKENDS = ['github', 'proxy']

/**
 * @typedef {Record<string, any>} Implementation a Decap backend implementation
 * @typedef {(implementation: Implementation) => Implementation} Wrapper
 */

/**
 * @param {any} CMS Decap's global, before `CMS.init`
 * @param {readonly Wrapper[]} wrappers innermost first
 */
export function wrapBackends(CMS, wrappers) {
  for (const name of BACKENDS) {
    const backend = CMS.getBackend(name)
    if (!backend) continue
    const init = backend.init
    backend.init = (/** @type {unknown[]} */ ...args) =>
      wrappers.reduce((implementation, wrap) => wrap(implementation), init(...args))
  }
}

/**
 * Replace `implementation[name]` by `replacement`, which gets the original
 * (bound to the implementation) as its first argument.
 * @param {Implementation} implementation
 * @param {string} name
 * @param {(original: (...args: any[]) => any, ...args: any[]) => any} replacement
 */
export function around(implementation, name, replacement) {
  if (typeof implementation[name] !== 'function') return
  const original = implementation[name].bind(implementation)
  implementation[name] = (/** @type {any[]} */ ...args) => replacement(original, ...args)
}
