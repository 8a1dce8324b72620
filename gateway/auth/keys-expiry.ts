/**
 * `keys create --expires` (and `preview-link --expires`): a number of days
 * or hours from now (`90d`, `72h`), or a future
 * date or RFC 3339 date-time. Anything else is refused with what was meant,
 * so a key is never printed "shown only now" while already expired.
 */
import { UsageError } from '../../contract/errors.ts'
import { parseDateTime } from '../../contract/query-values.ts'

export interface Expiry {
  /** RFC 3339, UTC. */
  at: string
  /** How the CLI says it: `in 90 days (2027-02-23T10:00:00Z)`. */
  understood: string
}

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

export function parseExpiry(value: string, now: Date): Expiry {
  const days = /^(\d{1,5})d$/.exec(value)
  const hours = /^(\d{1,6})h$/.exec(value)
  let at: Date
  if (hours) {
    if (Number(hours[1]) === 0) throw new UsageError('--expires 0h would expire it at once: give at least 1h')
    at = new Date(now.getTime() + Number(hours[1]) * HOUR_MS)
  } else if (days) {
    if (Number(days[1]) === 0) throw new UsageError('--expires 0d would expire the key at once: give at least 1d')
    at = new Date(now.getTime() + Number(days[1]) * DAY_MS)
  } else if (/^\d+$/.test(value)) {
    throw new UsageError(
      `--expires ${value} is neither a date nor a duration: write ${value}d for ${value} day${value === '1' ? '' : 's'}`,
    )
  } else {
    const date = DATE.test(value) ? parseDateTime(`${value}T00:00:00Z`) : parseDateTime(value)
    if (date === undefined)
      throw new UsageError(
        `--expires must be a number of days like 90d or hours like 72h, a date like 2027-06-30 or a date-time like 2027-06-30T12:00:00Z; got "${value}"`,
      )
    at = new Date(date)
  }
  if (at.getTime() <= now.getTime())
    throw new UsageError(
      `--expires ${value} is not in the future (it is now ${iso(now)}): give a later date or a number of days like 90d`,
    )
  const inDays = Math.round((at.getTime() - now.getTime()) / DAY_MS)
  const when = inDays >= 1 ? `in ${inDays} day${inDays === 1 ? '' : 's'}` : 'in less than a day'
  return { at: iso(at), understood: `${when} (${iso(at)})` }
}

function iso(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z')
}
