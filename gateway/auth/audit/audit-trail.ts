/**
 * The audit trail: every creation, revocation and rotation of an API key, a
 * machine client, a person or a webhook subscription (share links later),
 * with when, from where (the CLI, with the operator's user and host, or a
 * gateway) and what it was — never a secret, a hash or a password.
 *
 * Kept in the state store, one record per entry under `audit/<time>-<random>`
 * (sortable by time), each written once with `create` and never rewritten or
 * expired; `npm run keys -- audit` reads it (audit-cli.ts).
 */
import { randomBytes } from 'node:crypto'
import { hostname, userInfo } from 'node:os'
import { z } from 'zod'
import { AppError } from '../../../contract/errors.ts'
import type { StateStore } from '../store/state-store.ts'

export const AUDIT_PREFIX = 'audit/'
export const AUDIT_SUBJECTS = ['key', 'client', 'user', 'webhook', 'share-link'] as const
const ACTIONS = ['create', 'revoke', 'rotate', 'disable', 'pause', 'resume', 'remove'] as const

const AuditEntry = z.strictObject({
  at: z.iso.datetime({ offset: true }),
  action: z.enum(ACTIONS),
  subject: z.enum(AUDIT_SUBJECTS),
  id: z.string().min(1).max(200),
  via: z.enum(['cli', 'gateway']),
  by: z.string().max(300),
  details: z.record(z.string(), z.string().max(2000)).optional(),
})
export type AuditEntry = z.infer<typeof AuditEntry>
export type AuditSubject = AuditEntry['subject']
export type AuditAction = AuditEntry['action']

/** Where the changes come from. */
export interface AuditOrigin {
  via: AuditEntry['via']
  by: string
}

export interface AuditFilter {
  limit: number
  subject?: AuditSubject | undefined
  id?: string | undefined
  /** Entries at or after this time (ms). */
  since?: number | undefined
}

export class AuditUnrecordedError extends AppError {
  readonly code = 'AUDIT_UNRECORDED'
}

export interface AuditTrail {
  /** Record a change already made; resolves to the error when the trail could not be written (never throws). */
  record(
    action: AuditAction,
    subject: AuditSubject,
    id: string,
    details?: Record<string, string>,
  ): Promise<AuditUnrecordedError | undefined>
  /** The newest entries that pass `filter`, newest first. */
  read(filter: AuditFilter): Promise<AuditEntry[]>
}

/** The operator running the CLI: their user name and host. */
export function cliOrigin(): AuditOrigin {
  let user = process.env.USER ?? process.env.USERNAME ?? 'unknown'
  try {
    user = userInfo().username
  } catch {
    // A container user without a passwd entry: the environment's name.
  }
  return { via: 'cli', by: `${user}@${hostname()}` }
}

/** Entries this process has recorded. */
let written = 0
const keyTime = (key: string) => Number(key.slice(AUDIT_PREFIX.length, AUDIT_PREFIX.length + 13))
const BATCH = 25

export function openAuditTrail(store: StateStore, origin: AuditOrigin, now = () => new Date()): AuditTrail {
  return {
    async record(action, subject, id, details) {
      const at = now()
      try {
        const entry = AuditEntry.parse({ at: at.toISOString(), action, subject, id, ...origin, details })
        // Sorted by time, then by this process's count (entries of one millisecond in their order); the random
        // part tells processes apart, and an unlikely collision tries another.
        const order = `${String(at.getTime()).padStart(13, '0')}-${String(++written).padStart(9, '0')}`
        for (let tries = 0; tries < 3; tries++) {
          const key = `${AUDIT_PREFIX}${order}-${randomBytes(4).toString('hex')}`
          if (await store.create(key, entry)) return undefined
        }
        throw new Error('no free audit key')
      } catch (error) {
        return new AuditUnrecordedError(
          `${action} ${subject} ${id} was done, but the audit trail in ${store.location} could not record it: ${(error as Error).message}`,
        )
      }
    },
    async read(filter) {
      const keys = (await store.list(AUDIT_PREFIX)).filter(
        (k) => filter.since === undefined || keyTime(k) >= filter.since,
      )
      const found: AuditEntry[] = []
      for (let end = keys.length; end > 0 && found.length < filter.limit; end -= BATCH) {
        const batch = keys.slice(Math.max(0, end - BATCH), end).reverse()
        const entries = await Promise.all(batch.map((k) => store.get(k)))
        for (const raw of entries) {
          const parsed = AuditEntry.safeParse(raw)
          if (!parsed.success) continue
          const e = parsed.data
          if ((filter.subject && e.subject !== filter.subject) || (filter.id && e.id !== filter.id)) continue
          if (found.length < filter.limit) found.push(e)
        }
      }
      return found
    },
  }
}
