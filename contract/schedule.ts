/**
 * Scheduled publishing as the build and the gateway share it: a build states
 * the span of clocks it is right for (`last_release_at` until
 * `next_release_at`, contract/manifest.ts); past that span it must be rebuilt,
 * and no answer may be cached beyond it.
 *
 * @example capCacheControl('public, max-age=60, stale-while-revalidate=600', 90) // 'public, max-age=60, stale-while-revalidate=30'
 */
import { CACHE } from './headers.ts'
import type { BuildInfo } from './manifest.ts'

type ScheduleTimes = Partial<Pick<BuildInfo, 'next_release_at' | 'last_release_at'>>

/** The build's next release or expiry in milliseconds since the epoch; undefined when nothing is scheduled. */
export function nextScheduledMs(build: ScheduleTimes): number | undefined {
  return build.next_release_at ? Date.parse(build.next_release_at) : undefined
}

/** Whether a build is right as of `now` (ms): no release or expiry has passed since it was made, nor does it predate the clock. */
export function holdsAt(build: ScheduleTimes, now: number): boolean {
  const next = nextScheduledMs(build)
  const last = build.last_release_at ? Date.parse(build.last_release_at) : undefined
  return (next === undefined || now < next) && (last === undefined || now >= last)
}

/** Seconds from `now` (ms) to the build's next release or expiry; undefined when nothing is scheduled. */
export function secondsToScheduled(build: ScheduleTimes, now: number): number | undefined {
  const next = nextScheduledMs(build)
  return next === undefined ? undefined : Math.max(0, Math.floor((next - now) / 1000))
}

const DIRECTIVE = /^\s*(max-age|s-maxage|stale-while-revalidate|stale-if-error)\s*=\s*(\d+)\s*$/i

/**
 * A Cache-Control value whose lifetimes end within `left` seconds: `max-age`
 * and `s-maxage` capped at it, and the stale allowances at what is left after
 * them, so no cache serves the answer past a release. `immutable` and
 * `no-store` values are kept as they are (media are named by their bytes).
 */
export function capCacheControl(value: string, left: number): string {
  if (/\b(?:immutable|no-store)\b/i.test(value)) return value
  const parts = value.split(',')
  const fresh = Math.min(left, ...parts.flatMap((p) => lifetime(p, /^(max-age|s-maxage)$/i)))
  return parts
    .map((part) => {
      const m = DIRECTIVE.exec(part)
      if (!m) return part.trim()
      const name = m[1]!.toLowerCase()
      const seconds = Number(m[2])
      const cap = name === 'max-age' || name === 's-maxage' ? left : Math.max(0, left - fresh)
      return `${name}=${Math.min(seconds, cap)}`
    })
    .join(', ')
}

function lifetime(part: string, names: RegExp): number[] {
  const m = DIRECTIVE.exec(part)
  return m && names.test(m[1]!) ? [Number(m[2])] : []
}

/** The longest any answer may be kept, fresh and stale together, under `value` (for how near a release caps apply). */
export function longestLifetime(value: string): number {
  let fresh = 0
  let stale = 0
  for (const part of value.split(',')) {
    const m = DIRECTIVE.exec(part)
    if (!m) continue
    const seconds = Number(m[2])
    if (/^(max-age|s-maxage)$/i.test(m[1]!)) fresh = Math.max(fresh, seconds)
    else stale = Math.max(stale, seconds)
  }
  return fresh + stale
}

/** `value` as it may be sent at `now` (ms) with this build: capped once its next release is nearer than its lifetimes. */
export function cacheControlAt(value: string, build: ScheduleTimes, now: number): string {
  const left = secondsToScheduled(build, now)
  return left === undefined || left >= longestLifetime(value) ? value : capCacheControl(value, left)
}

/** The longest lifetime any answer of the gateway carries but the immutable media's: nearer a release than this, answers are capped. */
const CAP_HORIZON = Math.max(
  ...Object.values(CACHE)
    .filter((value) => !/\bimmutable\b/.test(value))
    .map(longestLifetime),
)

/** Whether some answer of this build must be capped at `now` (ms): its next release is within the longest lifetime. */
export function capsAt(build: ScheduleTimes, now: number): boolean {
  const left = secondsToScheduled(build, now)
  return left !== undefined && left < CAP_HORIZON
}
