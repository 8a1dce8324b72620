/**
 * rate-limiter-flexible's base for limiters over a store of one's own (its
 * README: "any new limiter with storage must be extended from
 * RateLimiterStoreAbstract"): typed in the package's types.d.ts, but its
 * index does not export it, so store-limiter.ts imports it from its file.
 */
declare module 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js' {
  import type { RateLimiterStoreAbstract } from 'rate-limiter-flexible'

  const StoreAbstract: typeof RateLimiterStoreAbstract
  export default StoreAbstract
}
