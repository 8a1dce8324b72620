/**
 * When to try a failing endpoint again: exponential backoff with jitter
 * (5 s, 10 s, 20 s … doubling to at most 4 hours, each drawn between half and
 * all of it, so endpoints that failed together do not come back together),
 * never sooner than the endpoint's own Retry-After (up to a day). The
 * endpoint is disabled once it has failed without a success for the bound
 * (WEBHOOK_RETRY_HOURS, at least a day).
 */
export const FIRST_DELAY_MS = 5_000
export const MAX_DELAY_MS = 4 * 60 * 60 * 1000
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000

/** The wait after the `failures`-th failure in a row (1-based). */
export function backoffDelay(failures: number, random: () => number = Math.random): number {
  const full = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(failures - 1, 30))
  return Math.round(full / 2 + (random() * full) / 2)
}

export function nextAttemptDelay(failures: number, retryAfterMs: number | undefined): number {
  const delay = backoffDelay(failures)
  return retryAfterMs === undefined ? delay : Math.max(delay, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS))
}
