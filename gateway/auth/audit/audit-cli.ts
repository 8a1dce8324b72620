/**
 * `npm run keys -- audit`: the audit trail (audit-trail.ts), newest first,
 * one change a line — when, what was done, to what, its id, from where, by
 * whom, and what it was (role, label, scopes, URL) — or as JSON lines.
 */
import { UsageError } from '../../../contract/errors.ts'
import type { CliIo } from '../cli-io.ts'
import type { StateStore } from '../store/state-store.ts'
import { AUDIT_SUBJECTS, type AuditSubject, cliOrigin, openAuditTrail } from './audit-trail.ts'

export const AUDIT_USAGE = `usage: npm run keys -- audit [--type <${AUDIT_SUBJECTS.join('|')}>] [--id <id>] [--since <7d|24h|2026-11-01>] [--limit <n, 1-1000, default 50>] [--json]`

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 1000

export interface AuditOptions {
  type?: string | undefined
  id?: string | undefined
  since?: string | undefined
  limit?: string | undefined
  json?: boolean | undefined
}

export async function auditCommand(options: AuditOptions, io: CliIo, store: StateStore, now: Date): Promise<number> {
  const subject = options.type
  if (subject !== undefined && !(AUDIT_SUBJECTS as readonly string[]).includes(subject))
    throw new UsageError(`--type must be one of: ${AUDIT_SUBJECTS.join(', ')}`, AUDIT_USAGE)
  const limit = options.limit === undefined ? DEFAULT_LIMIT : Number(options.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new UsageError(`--limit must be an integer from 1 to ${MAX_LIMIT}`, AUDIT_USAGE)
  const since = options.since === undefined ? undefined : parseSince(options.since, now)
  const entries = await openAuditTrail(store, cliOrigin()).read({
    limit,
    subject: subject as AuditSubject | undefined,
    id: options.id,
    since,
  })
  if (!entries.length)
    io.err(`no audit entries${options.type || options.id || since ? ' match' : ''} in ${store.location}`)
  for (const e of entries) {
    if (options.json) {
      io.out(JSON.stringify(e))
      continue
    }
    const details = Object.entries(e.details ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')
    io.out([e.at, e.action, e.subject, e.id, e.via, e.by, details].join('\t'))
  }
  return 0
}

/** `7d`, `24h`, `30m`, or a date or date-time: the earliest time shown (ms). */
function parseSince(value: string, now: Date): number {
  const m = /^(\d{1,5})([mhd])$/.exec(value)
  if (m) return now.getTime() - Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd']
  const at = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(at))
    throw new UsageError(
      `--since must be a duration like 7d, 24h or 30m, or a date like 2026-11-01; got "${value.slice(0, 60)}"`,
      AUDIT_USAGE,
    )
  return at
}
