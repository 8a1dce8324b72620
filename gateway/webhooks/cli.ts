/**
 * `npm run keys -- webhook …`: webhook subscriptions, kept in the state store
 * the gateway uses (STATE_STORE: files under gateway/.data/, or a Netlify
 * site's Blobs with NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN). A new signing
 * secret is printed once, on stdout; it is stored sealed (secrets.ts). Each
 * change of a subscription is one step of its record, and creations,
 * rotations, pauses and removals are recorded in the audit trail.
 */
import { readCursor } from '../../contract/changes.ts'
import { LOCALE_QUERY_PATTERN } from '../../contract/locales.ts'
import { report } from '../../contract/cli.ts'
import { defineCommand, didYouMean, parseCommand } from '../../contract/cli-args.ts'
import { UsageError } from '../../contract/errors.ts'
import { readSettings } from '../../contract/settings.ts'
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../contract/webhook-events.ts'
import { cliOrigin, openAuditTrail } from '../auth/audit/audit-trail.ts'
import type { CliIo } from '../auth/cli-io.ts'
import { openStateStore } from '../auth/store/open-store.ts'
import { WebhookError } from './errors.ts'
import { describeRun, readLastRun } from './last-run.ts'
import { HEALTHY, openQueue, positionKey } from './queue.ts'
import { generateSecretsKey, generateSigningSecret, loadSecretsKey, seal } from './secrets.ts'
import { webhookSettingsFrom } from './settings.ts'
import {
  DEFAULT_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  newSubscriptionId,
  openSubscriptions,
  type Subscription,
} from './subscriptions.ts'
import { checkWebhookUrl } from './url-policy.ts'

/** Each command's synopsis and what it does: its own usage for `webhook <command> --help`, and the whole list. */
const COMMANDS = {
  create: [
    `create --url <https URL> --events <${WEBHOOK_EVENT_TYPES.join(',')}|all> [--locales <de,fr|all>] [--description <text>] [--timeout <seconds, 1-15>]`,
    "subscribe an endpoint; prints its whsec_ signing secret once. A multilingual site's events of other locales than the default only with --locales",
  ],
  list: ['list', 'id, state, waiting, events, locales, URL (and, on Netlify, what the last run did)'],
  pause: ['pause <id>', 'hold deliveries (they stay queued)'],
  resume: ['resume <id>', 'deliver again; also turns a disabled endpoint back on'],
  remove: ['remove <id>', 'delete it with its queue and delivery log'],
  rotate: ['rotate <id> [--overlap <24h|30m|7d|0>]', 'a new secret; the old one also signs until the overlap ends'],
  deliveries: ['deliveries <id> [--limit <n>]', 'the delivery log, newest first, and what waits'],
  redeliver: ['redeliver <id> <msg_…>', 'send a logged message again (same webhook-id)'],
  'secrets-key': ['secrets-key', 'print a new WEBHOOK_SECRETS_KEY'],
} as const
type WebhookCommand = keyof typeof COMMANDS

export const WEBHOOK_USAGE = `usage: npm run keys -- webhook <command>   (--help after a command for its usage)
${Object.values(COMMANDS)
  .map(
    ([synopsis, what]) => `  ${synopsis.length < 39 ? synopsis.padEnd(41) : `${synopsis}\n${' '.repeat(43)}`}${what}`,
  )
  .join('\n')}`

/** The usage of one command (`webhook create --help`), or the whole list for anything else. */
export function webhookUsage(command: string | undefined): string {
  if (command === undefined || !Object.hasOwn(COMMANDS, command)) return WEBHOOK_USAGE
  const [synopsis, what] = COMMANDS[command as WebhookCommand]
  return `usage: npm run keys -- webhook ${synopsis}\n  ${what}`
}

/** Every option of every command (COMMANDS says which takes which). */
const WEBHOOK = defineCommand({
  name: 'npm run keys -- webhook',
  summary: 'Webhook subscriptions.',
  operands: '<command>',
  positionals: 3,
  options: {
    url: { type: 'string' },
    events: { type: 'string' },
    locales: { type: 'string' },
    description: { type: 'string' },
    timeout: { type: 'string' },
    overlap: { type: 'string' },
    limit: { type: 'string' },
  },
})

export async function webhookCommand(argv: string[], io: CliIo): Promise<number> {
  try {
    const { help, values, positionals } = parseCommand(WEBHOOK, argv)
    const [command, id, extra] = positionals
    if (help || command === undefined || command === 'help') {
      io.out(webhookUsage(command === 'help' ? id : command))
      return command === undefined && !help ? 2 : 0
    }
    if (command === 'secrets-key') {
      io.err('a new key; set it as WEBHOOK_SECRETS_KEY wherever subscriptions are read or made (the same everywhere):')
      io.out(generateSecretsKey())
      return 0
    }
    const settings = readSettings(io.env, 'cli')
    const config = webhookSettingsFrom(settings, io.cwd)
    const store = openStateStore(config.store)
    const subscriptions = openSubscriptions(store)
    const queue = openQueue(store)
    const now = io.now?.() ?? new Date()
    const audit = openAuditTrail(store, cliOrigin(), () => io.now?.() ?? new Date())
    const needId = () => {
      if (!id) throw new UsageError('a subscription id (wh_…) is required', webhookUsage(command))
      return id
    }
    if (command === 'create') {
      if (!values.url) throw new UsageError('--url is required', webhookUsage('create'))
      const url = await checkWebhookUrl(values.url, config.policy)
      const events = parseEvents(values.events)
      const locales = parseLocales(values.locales)
      const key = await loadSecretsKey(config.secretsKey)
      const secret = generateSigningSecret()
      const subscription: Subscription = {
        id: newSubscriptionId(),
        url: url.href,
        events,
        ...(locales !== undefined && { locales }),
        description: (values.description ?? '').slice(0, 200),
        status: 'active',
        timeout_ms: parseTimeout(values.timeout),
        secrets: [],
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      }
      subscription.secrets.push({
        sealed: seal(key, subscription.id, secret),
        created_at: now.toISOString(),
        expires_at: null,
      })
      await subscriptions.save(subscription)
      const unrecorded = await audit.record('create', 'webhook', subscription.id, {
        url: subscription.url,
        events: events.join(','),
      })
      io.err(
        `created ${subscription.id} → ${subscription.url} (${events.join(', ')}; ${localesOf(subscription)}) in ${store.location}; changes of the next build that goes live are sent. The signing secret is shown only now:`,
      )
      io.out(secret)
      if (unrecorded) throw unrecorded
      return 0
    }
    if (command === 'list') {
      const lastRun = await readLastRun(store)
      if (lastRun) io.err(describeRun(lastRun))
      const all = await subscriptions.list()
      if (!all.length)
        io.err(
          `no webhook subscriptions in ${store.location}; \`npm run keys -- webhook create --help\` says how to add one`,
        )
      for (const s of all) {
        const state = await queue.state(s.id)
        const waiting = (await queue.waiting(s.id)).length
        io.out(
          [s.id, statusOf(s, state), `${waiting} waiting`, s.events.join(','), localesOf(s), s.url, s.description].join(
            '\t',
          ),
        )
      }
      return 0
    }
    if (command === 'pause' || command === 'resume') {
      const subscription = await subscriptions.update(needId(), (s) => ({
        ...s,
        status: command === 'pause' ? 'paused' : 'active',
        updated_at: now.toISOString(),
      }))
      if (command === 'resume') {
        const state = await queue.state(subscription.id)
        // A fresh start: the circuit closes and the disabling bound counts again.
        await queue.setState(subscription.id, { ...HEALTHY, last_success_at: state.last_success_at })
      }
      const unrecorded = await audit.record(command, 'webhook', subscription.id)
      io.err(
        command === 'pause'
          ? `paused ${subscription.id}; its messages are kept until you resume it`
          : `resumed ${subscription.id}; what waits is sent on the next pass`,
      )
      if (unrecorded) throw unrecorded
      return 0
    }
    if (command === 'remove') {
      const subscription = await subscriptions.get(needId())
      await subscriptions.remove(subscription.id)
      await queue.dropAll(subscription.id)
      const unrecorded = await audit.record('remove', 'webhook', subscription.id, { url: subscription.url })
      io.err(`removed ${subscription.id} (${subscription.url}) with its queue and delivery log`)
      if (unrecorded) throw unrecorded
      return 0
    }
    if (command === 'rotate') {
      const overlapMs = parseDuration(values.overlap ?? '24h', '--overlap')
      const key = await loadSecretsKey(config.secretsKey)
      const secret = generateSigningSecret()
      const until = new Date(now.getTime() + overlapMs).toISOString()
      const subscription = await subscriptions.update(needId(), (s) => {
        const kept = s.secrets
          .filter((old) => old.expires_at === null || Date.parse(old.expires_at) > now.getTime())
          .map((old) => ({
            ...old,
            expires_at: old.expires_at === null || old.expires_at > until ? until : old.expires_at,
          }))
          .filter((old) => overlapMs > 0 && old.expires_at !== null)
        return {
          ...s,
          secrets: [{ sealed: seal(key, s.id, secret), created_at: now.toISOString(), expires_at: null }, ...kept],
          updated_at: now.toISOString(),
        }
      })
      const unrecorded = await audit.record('rotate', 'webhook', subscription.id, {
        old_secrets_until: overlapMs > 0 ? until : now.toISOString(),
      })
      io.err(
        `rotated the secret of ${subscription.id}; ${overlapMs > 0 ? `the old one also signs until ${until}` : 'the old one no longer signs'}. The new secret is shown only now:`,
      )
      io.out(secret)
      if (unrecorded) throw unrecorded
      return 0
    }
    if (command === 'deliveries') {
      const subscription = await subscriptions.get(needId())
      const state = await queue.state(subscription.id)
      const waiting = await queue.waiting(subscription.id)
      io.err(`${subscription.id} → ${subscription.url}: ${statusOf(subscription, state)}, ${waiting.length} waiting`)
      if (state.disabled_reason) io.err(`disabled: ${state.disabled_reason}`)
      const limit = values.limit ? Number(values.limit) : 20
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        throw new UsageError('--limit must be an integer from 1 to 100', webhookUsage('deliveries'))
      for (const a of await queue.attempts(subscription.id, limit))
        io.out(
          [a.at, a.msg_id, a.type, a.status ?? '-', `${a.latency_ms} ms`, a.ok ? 'ok' : (a.error ?? 'failed')].join(
            '\t',
          ),
        )
      return 0
    }
    if (command === 'redeliver') {
      const subscription = await subscriptions.get(needId())
      if (!extra)
        throw new UsageError('a message id (msg_…) from `webhook deliveries` is required', webhookUsage('redeliver'))
      const logged = (await queue.attempts(subscription.id, 100)).find((a) => a.msg_id === extra)
      if (!logged)
        throw new WebhookError(
          `no message ${extra} in the delivery log of ${subscription.id} (it keeps the last 100 attempts)`,
          'WEBHOOK_NOT_FOUND',
        )
      const read = readCursor(logged.cursor)
      const position = read?.position ?? { time: 0, seq: 0 }
      const key = `${positionKey(position.time, position.seq)}${read?.locale ? `-${read.locale}` : ''}`
      await queue.enqueue(subscription.id, `${key}-r${now.getTime()}`, {
        msg_id: logged.msg_id,
        type: logged.type,
        payload: logged.payload,
        cursor: logged.cursor,
        enqueued_at: now.toISOString(),
        redelivery: true,
      })
      io.err(`queued ${extra} for ${subscription.id} again; it goes out on the next pass, with the same webhook-id`)
      return 0
    }
    throw new UsageError(
      `unknown webhook command "${command}"${didYouMean(command, Object.keys(COMMANDS))}`,
      WEBHOOK_USAGE,
    )
  } catch (error) {
    return report(error, io.err)
  }
}

function statusOf(subscription: Subscription, state: typeof HEALTHY): string {
  if (state.disabled_at) return `disabled ${state.disabled_at}`
  if (subscription.status === 'paused') return 'paused'
  if (state.failures > 0) return `failing (${state.failures} in a row, next try ${state.next_attempt_at})`
  return 'active'
}

function parseEvents(value: string | undefined): WebhookEventType[] {
  if (!value)
    throw new UsageError(`--events is required: ${WEBHOOK_EVENT_TYPES.join(',')} or all`, webhookUsage('create'))
  if (value.trim() === 'all' || value.trim() === '*') return [...WEBHOOK_EVENT_TYPES]
  const names = [...new Set(value.split(/[\s,]+/).filter(Boolean))]
  const unknown = names.filter((n) => !isWebhookEventType(n))
  if (unknown.length || names.length === 0)
    throw new UsageError(
      `unknown event ${unknown.join(' ')}; events are: ${WEBHOOK_EVENT_TYPES.join(', ')} (or all)`,
      webhookUsage('create'),
    )
  return names.filter(isWebhookEventType)
}

const LOCALE_TAG = new RegExp(LOCALE_QUERY_PATTERN)

/** `--locales`: `all`, or BCP 47 tags (the site's, as its site.yaml lists them); undefined: the default locale's feed only. */
function parseLocales(value: string | undefined): Subscription['locales'] {
  if (value === undefined) return undefined
  if (value.trim() === 'all' || value.trim() === '*') return 'all'
  const tags = [...new Set(value.split(/[\s,]+/).filter(Boolean))]
  const bad = tags.filter((t) => !(t.length <= 35 && LOCALE_TAG.test(t)))
  if (bad.length || tags.length === 0)
    throw new UsageError(
      `--locales must be all or locales of the site like de,fr (BCP 47 tags); got ${JSON.stringify(value.slice(0, 60))}`,
      webhookUsage('create'),
    )
  return tags
}

/** Which change feeds a subscription hears, as `list` and `create` say it. */
function localesOf(subscription: Subscription): string {
  const { locales } = subscription
  return locales === undefined ? 'default locale' : locales === 'all' ? 'all locales' : locales.join(',')
}

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS
  const seconds = Number(value.replace(/s$/, ''))
  if (!Number.isInteger(seconds) || seconds < 1 || seconds * 1000 > MAX_TIMEOUT_MS)
    throw new UsageError(`--timeout must be whole seconds from 1 to ${MAX_TIMEOUT_MS / 1000}`, webhookUsage('create'))
  return seconds * 1000
}

/** `0`, or a number with m, h or d, at most 7 days. */
function parseDuration(value: string, name: string): number {
  if (value === '0') return 0
  const m = /^(\d{1,4})([mhd])$/.exec(value)
  const ms = m ? Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd'] : Number.NaN
  if (!(ms > 0 && ms <= 7 * 86_400_000))
    throw new UsageError(
      `${name} must be 0 or a duration like 30m, 24h or 7d (at most 7d); got "${value}"`,
      webhookUsage('rotate'),
    )
  return ms
}
