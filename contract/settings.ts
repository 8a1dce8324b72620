/**
 * Every setting of the product, in one schema: its environment variable,
 * what it accepts, its default (per runtime where they differ) and what it
 * does. `npm start`, `npm run dev`, the Netlify function, the build and the
 * keys CLI all read their settings through `readSettings`; a bad value stops
 * them with one line naming the variable and what it accepts. The settings
 * table of docs/operating.md is generated from this schema
 * (`npm run docs:settings`; a test keeps the two equal).
 */
import { z } from 'zod'
import { AppError } from './errors.ts'

/** Where the settings are read: the defaults of some differ. */
export type Runtime = 'start' | 'dev' | 'netlify' | 'build' | 'cli'

interface Setting<T> {
  /** What a valid value looks like, for the error message and the settings table. */
  accepts: string
  /** What the setting does. */
  description: string
  /** The default as the variable would be written; per runtime where they differ. */
  default: string | undefined | (Partial<Record<Runtime, string>> & { otherwise: string | undefined })
  schema: z.ZodType<T>
  /** A secret: an error names the variable but never echoes its value. */
  secret?: true
}

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
const origin = /^https?:\/\/[^/\s]+$/
const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])$/
const httpUrl = z.string().refine((v) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol)
  } catch {
    return false
  }
})
const list = (item: z.ZodType<string, string>) =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item))

function setting<T>(s: Setting<T>): Setting<T> {
  return s
}

export const SETTINGS = {
  PORT: setting({
    accepts: 'an integer from 0 to 65535',
    description: 'Port the gateway listens on (0: any free port).',
    default: '8787',
    schema: integer(0, 65535),
  }),
  HOST: setting({
    accepts: 'a host name or IP address',
    description:
      'Address the gateway listens on. Anything but loopback needs PUBLIC_URL: without it the gateway does not start.',
    default: '127.0.0.1',
    schema: z.string().regex(/^[\w.:[\]-]{1,253}$/),
  }),
  PUBLIC_URL: setting({
    accepts: 'an origin like https://api.example.com (at most 300 characters)',
    description:
      "The origin clients use: links in metadata, the Host/Origin check of /mcp, and the absolute URLs a build writes (else site.yaml's api_url; npm start's and dev's builds write the address listened on). Default: the address listened on.",
    default: undefined,
    schema: z
      .string()
      .transform((v) => v.replace(/\/+$/, ''))
      .pipe(z.string().max(300).regex(origin)),
  }),
  DIST_DIR: setting({
    accepts: 'a folder path',
    description: 'The build the gateway serves.',
    default: 'dist',
    schema: z.string().min(1),
  }),
  LOG_LEVEL: setting({
    accepts: 'debug, info, warn, error or silent',
    description: 'Least level logged; `info` logs one JSON line per request.',
    default: { dev: 'warn', otherwise: 'info' },
    schema: z.enum(['debug', 'info', 'warn', 'error', 'silent']),
  }),
  FILE_CACHE_MB: setting({
    accepts: 'an integer from 0 to 4096',
    description:
      'Megabytes of built files, rendered answers and remembered answers the gateway keeps in memory, most recently used first; the rest is read from DIST_DIR or computed again when asked for.',
    default: '16',
    schema: integer(0, 4096),
  }),
  REQUEST_TIMEOUT_MS: setting({
    accepts: 'an integer from 100 to 600000',
    description: 'A slower handler answers 503 `/problems/timeout`.',
    default: '10000',
    schema: integer(100, 600_000),
  }),
  MCP_MAX_BODY_BYTES: setting({
    accepts: 'an integer from 1024 to 16777216',
    description: 'Largest request body /mcp reads; larger ones get 413.',
    default: '262144',
    schema: integer(1024, 16 * 1024 * 1024),
  }),
  TOKEN_MAX_BODY_BYTES: setting({
    accepts: 'an integer from 256 to 1048576',
    description: 'Largest request body the OAuth endpoints (/oauth/*) read; larger ones get 413.',
    default: '8192',
    schema: integer(256, 1024 * 1024),
  }),
  RATE_LIMIT_PER_MINUTE: setting({
    accepts: 'an integer from 0 to 1000000',
    description:
      'Requests per minute per client address and per credential on /mcp and /oauth/*; 429 past it; 0 turns it off.',
    default: '600',
    schema: integer(0, 1_000_000),
  }),
  COMPUTED_RATE_LIMIT_PER_MINUTE: setting({
    accepts: 'an integer from 0 to 100000000',
    description:
      'Requests per minute per client address to the answers the gateway computes (search, the change feed after a cursor, list queries no pre-rendered file answers); 429 past it; 0 turns it off. Pre-rendered answers are never limited.',
    default: '300',
    schema: integer(0, 100_000_000),
  }),
  REGISTRATION_RATE_LIMIT_PER_HOUR: setting({
    accepts: 'an integer from 0 to 1000000',
    description:
      'Dynamic client registrations (`POST /oauth/register`) per hour per client address, besides RATE_LIMIT_PER_MINUTE; 429 past it; 0 turns it off.',
    default: '30',
    schema: integer(0, 1_000_000),
  }),
  AUTHORIZATION_RATE_LIMIT_PER_HOUR: setting({
    accepts: 'an integer from 0 to 1000000',
    description:
      'Authorization requests started (`GET /oauth/authorize`) per hour per client address, besides RATE_LIMIT_PER_MINUTE; 429 past it; 0 turns it off.',
    default: '60',
    schema: integer(0, 1_000_000),
  }),
  TRUST_PROXY: setting({
    accepts: 'none, netlify or x-forwarded-for',
    description: 'Which proxy header names the client for the limits (only behind a proxy that sets it).',
    default: { netlify: 'netlify', otherwise: 'none' },
    schema: z.enum(['none', 'netlify', 'x-forwarded-for']),
  }),
  MCP_AUTH: setting({
    accepts: 'on or off',
    description:
      '`off` serves /mcp without a credential (local tools, the conformance suite); only on a loopback HOST.',
    default: 'on',
    schema: z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(['on', 'off'])),
  }),
  MCP_ALLOWED_ORIGINS: setting({
    accepts: 'comma-separated origins like https://app.example.com',
    description: 'Browser origins allowed on /mcp besides loopback and PUBLIC_URL.',
    default: '',
    schema: list(z.string().regex(origin)),
  }),
  KEYS_FILE: setting({
    accepts: 'a file path',
    description:
      "API keys (hashes only; runtime data, never in git); a running gateway picks up changes. Unset: `gateway/.data/keys.json` (git-ignored) with STATE_STORE=files, the site's Blobs with netlify-blobs.",
    default: undefined,
    schema: z.string().min(1),
  }),
  OAUTH_CLIENTS_FILE: setting({
    accepts: 'a file path',
    description:
      "Machine clients of the embedded authorization server (hashed secrets; runtime data, never in git). Unset: `gateway/.data/clients.json` (git-ignored) with STATE_STORE=files, the site's Blobs with netlify-blobs.",
    default: undefined,
    schema: z.string().min(1),
  }),
  OAUTH_ISSUER: setting({
    accepts: 'an http(s) URL',
    description:
      'An external issuer: the embedded authorization server is off and the gateway only verifies its tokens.',
    default: undefined,
    schema: httpUrl,
  }),
  OAUTH_JWKS_URL: setting({
    accepts: 'an http(s) URL',
    description: "The external issuer's keys (default: jwks_uri from its metadata).",
    default: undefined,
    schema: httpUrl,
  }),
  OAUTH_AUDIENCE: setting({
    accepts: 'comma-separated audiences',
    description: 'Audiences accepted in tokens (default: the public URL, and it followed by `/mcp`).',
    default: undefined,
    schema: list(z.string().min(1)).refine((a) => a.length > 0),
  }),
  OAUTH_SIGNING_KEY: setting({
    accepts: 'a private P-256 JWK as JSON',
    description:
      "The embedded server's signing key (`npm run keys -- signing-key` prints one); it also derives the cookie and CSRF keys, so every process needs the same one. Required on Netlify (unless OAUTH_ISSUER is set); elsewhere the default is one generated into gateway/.keys/.",
    default: undefined,
    schema: z.string().min(2),
    secret: true,
  }),
  OAUTH_TOKEN_TTL: setting({
    accepts: 'an integer from 60 to 86400',
    description: 'Lifetime of access tokens, in seconds.',
    default: '3600',
    schema: integer(60, 86_400),
  }),
  OAUTH_CLIENT_GRACE_HOURS: setting({
    accepts: 'an integer from 1 to 8760',
    description:
      'A dynamically registered client that has obtained no token this many hours after registering is removed (its `client_secret_expires_at`). Clients of the clients file never expire.',
    default: '24',
    schema: integer(1, 8760),
  }),
  OAUTH_CLIENT_IDLE_DAYS: setting({
    accepts: 'an integer from 1 to 3650',
    description: 'A dynamically registered client that has obtained no token for this many days is removed.',
    default: '90',
    schema: integer(1, 3650),
  }),
  OAUTH_MAX_REGISTERED_CLIENTS: setting({
    accepts: 'an integer from 1 to 10000000',
    description:
      'Most dynamically registered clients kept; past it, a registration gets 503 until unused ones expire (registered clients keep working).',
    default: '10000',
    schema: integer(1, 10_000_000),
  }),
  OAUTH_MAX_PENDING_AUTHORIZATIONS: setting({
    accepts: 'an integer from 1 to 10000000',
    description:
      'Most authorization requests in progress (started, not yet finished; each expires after an hour); past it, a new one gets 503 (those in progress finish).',
    default: '10000',
    schema: integer(1, 10_000_000),
  }),
  STATE_STORE: setting({
    accepts: 'files, netlify-blobs or redis',
    description:
      "Where runtime data lives: the embedded server's grants, sessions, registered clients and people, webhooks, the audit trail, and the API keys and machine clients unless KEYS_FILE and OAUTH_CLIENTS_FILE name files. `redis` (REDIS_URL) is for several gateways on machines that share no disk: it also counts every rate limit across them. Formerly OAUTH_STORE, which is still read (with a deprecation line).",
    default: { netlify: 'netlify-blobs', otherwise: 'files' },
    schema: z.enum(['files', 'netlify-blobs', 'redis']),
  }),
  OAUTH_STORE_DIR: setting({
    accepts: 'a folder path',
    description: 'The folder of the `files` store (git-ignored).',
    default: 'gateway/.data/oauth',
    schema: z.string().min(1),
  }),
  NETLIFY_SITE_ID: setting({
    accepts: "a Netlify site's API ID",
    description: "With NETLIFY_AUTH_TOKEN: the keys CLI manages keys, clients and people in that site's Blobs.",
    default: undefined,
    schema: z.string().min(1),
  }),
  NETLIFY_AUTH_TOKEN: setting({
    accepts: 'a Netlify personal access token',
    description: 'See NETLIFY_SITE_ID.',
    default: undefined,
    schema: z.string().min(1),
    secret: true,
  }),
  REDIS_URL: setting({
    accepts: 'a redis:// or rediss:// (TLS) URL, like rediss://:password@redis.internal:6379/0',
    description:
      'The Redis of STATE_STORE=redis (the gateways and the keys CLI): its host, port and database, a password (and user) where it needs one. Run it with AOF persistence (docs/operating.md, "Redis").',
    default: undefined,
    schema: z.string().refine((v) => {
      try {
        return ['redis:', 'rediss:'].includes(new URL(v).protocol)
      } catch {
        return false
      }
    }),
    secret: true,
  }),
  REDIS_KEY_PREFIX: setting({
    accepts: 'up to 64 letters, digits and `:._-`',
    description: 'Starts every key the gateway writes in Redis: sites sharing one Redis each need their own.',
    default: 'content-api:',
    schema: z.string().regex(/^[\w:.-]{1,64}$/),
  }),
  METRICS_PORT: setting({
    accepts: 'an integer from 1 to 65535',
    description:
      'Serves Prometheus metrics at `/metrics` on this port of HOST (request rates, latencies and statuses, state store errors and reconnects, the webhook queue), apart from the public port: keep it off the internet. Unset: no metrics.',
    default: undefined,
    schema: integer(1, 65535),
  }),
  REQUIRE_HISTORY: setting({
    accepts: 'on or off',
    description:
      "`on`: `npm run build` and `npm run check` fail when content/'s git history cannot be read whole (no git, a checkout git does not trust, a shallow clone) instead of building a change feed without deletions. On in CI's test step (the workflow: its check of content/) and for the deploy's build (netlify.toml); the copies without history that the tests, the bench and the MCP conformance script build set it off for their own builds.",
    default: 'off',
    schema: z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(['on', 'off'])),
  }),
  BUILD_TIME: setting({
    accepts: 'an RFC 3339 date-time with offset, like 2027-03-04T09:00:00Z',
    description:
      'The instant the build publishes as of: an item whose `published_at` is later is scheduled (in no artifact yet), one whose `expires_at` has passed is expired. Unset: the clock. Set, the same content gives the same bytes at any time (tests, a preview of launch day), and `npm start` and `npm run dev` publish nothing on their own.',
    default: undefined,
    schema: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i)
      .transform((v) => Date.parse(v))
      .pipe(z.number().int().min(0).max(253_402_300_799_000)),
  }),
  NETLIFY_BUILD_HOOK_URL: setting({
    accepts: 'an https URL (a Netlify build hook; http only on a loopback host)',
    description:
      "The site's build hook (Netlify: Project configuration → Build & deploy → Build hooks). The `publish-scheduled` function calls it when the deployed build's next release or expiry has passed, checked every minute. Unset: a scheduled item waits for the next deploy.",
    default: undefined,
    schema: z.string().refine((v) => {
      try {
        const url = new URL(v)
        return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname))
      } catch {
        return false
      }
    }),
    secret: true,
  }),
  WEBHOOK_SECRETS_KEY: setting({
    accepts: '32 random bytes in base64url (43 characters)',
    description:
      "Encrypts the webhook subscriptions' signing secrets in the state store (AES-256-GCM; `npm run keys -- webhook secrets-key` prints one). Required with STATE_STORE=netlify-blobs for webhooks (the Netlify functions and the keys CLI pointed at a site need the same one; without it the deploy job's settings check says webhooks are off there); elsewhere the default is one generated into gateway/.keys/.",
    default: undefined,
    schema: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    secret: true,
  }),
  WEBHOOK_RETRY_HOURS: setting({
    accepts: 'an integer from 24 to 720',
    description:
      'How long deliveries to a failing webhook endpoint are retried (exponential backoff with jitter) before the endpoint is disabled, with a log line; `npm run keys -- webhook resume` turns it back on and nothing queued is lost.',
    default: '72',
    schema: integer(24, 720),
  }),
  BUILD_THREADS: setting({
    accepts: 'auto or an integer from 1 to 64',
    description: 'Threads that render Markdown in a large build; 1 renders on the main thread only.',
    default: 'auto',
    schema: z.union([z.literal('auto'), integer(1, 64)]),
  }),
  URL: setting({
    accepts: 'an http(s) URL (anything else is ignored: the name is a common one)',
    description:
      "Set by Netlify: the site's main address, which the function's links use when PUBLIC_URL is unset (else the address a request came to).",
    default: undefined,
    schema: z.string().transform((v) => (httpUrl.safeParse(v).success ? v.replace(/\/+$/, '') : undefined)),
  }),
  LAMBDA_TASK_ROOT: setting({
    accepts: 'a folder path',
    description:
      'Set by the function platform: the folder of the deployed function, where the bundled dist/ is looked for.',
    default: undefined,
    schema: z.string().min(1),
  }),
  NETLIFY_LOCAL: setting({
    accepts: '`true` (anything else is false)',
    description:
      "Set by Netlify's local emulation (`netlify dev`, @netlify/dev) in what it runs: only there may the webhook functions, or the keys CLI on the site's Blobs, use a loopback endpoint (a receiver on this machine). On Netlify itself, loopback is refused like every private range, even with URL and PUBLIC_URL unset.",
    default: 'false',
    schema: z.string().transform((v) => v === 'true'),
  }),
  npm_lifecycle_event: setting({
    accepts: 'the name of a script',
    description:
      'Set by npm while it runs a script: `npm start` and `npm run dev` then also stop when that npm process ends (npm passes SIGINT and SIGTERM on to its script, not SIGHUP), instead of staying orphaned.',
    default: undefined,
    schema: z.string(),
  }),
  GITHUB_ACTIONS: setting({
    accepts: '`true` (anything else is false)',
    description:
      'Set by GitHub Actions: `npm run check` and `npm run build` also print each error as a workflow annotation.',
    default: 'false',
    schema: z.string().transform((v) => v === 'true'),
  }),
} as const

export type SettingName = keyof typeof SETTINGS
type ValueOf<N extends SettingName> = (typeof SETTINGS)[N] extends Setting<infer T> ? T : never
export type Settings = {
  [N in SettingName]: (typeof SETTINGS)[N]['default'] extends undefined ? ValueOf<N> | undefined : ValueOf<N>
}

/**
 * A setting with a value it does not accept; `others` are the further bad
 * settings of the same read, so that one run names every one of them (a line each).
 */
export class SettingsError extends AppError {
  readonly code = 'SETTING_INVALID'
  constructor(
    readonly setting: SettingName,
    message: string,
    readonly others: readonly SettingsError[] = [],
  ) {
    super(message)
  }

  override lines(): string[] {
    return [this.message, ...this.others.map((e) => `✗ ${e.message}`)]
  }
}

/** One error for every problem found (the first, carrying the rest), or none. */
function allOf(errors: readonly SettingsError[]): SettingsError | undefined {
  const [first, ...others] = errors
  return first && (others.length ? new SettingsError(first.setting, first.message, others) : first)
}

/**
 * What one setting needs of the others where it runs, as a readSettings check: `broken`
 * settings stop the runtime with `message`, one line naming `setting`.
 */
interface Rule {
  setting: SettingName
  runtimes: readonly Runtime[]
  broken(settings: Settings): boolean
  message: string
}

const RULES: readonly Rule[] = [
  {
    setting: 'REDIS_URL',
    runtimes: ['start', 'dev', 'netlify', 'cli'],
    broken: (s) => s.STATE_STORE === 'redis' && s.REDIS_URL === undefined,
    message:
      'REDIS_URL must be set with STATE_STORE=redis: it names the Redis every gateway shares (redis://host:6379)',
  },
  {
    // Each instance would generate a key of its own: a token issued by one fails on the next.
    setting: 'OAUTH_SIGNING_KEY',
    runtimes: ['netlify'],
    broken: (s) => s.OAUTH_ISSUER === undefined && s.OAUTH_SIGNING_KEY === undefined,
    message:
      "OAUTH_SIGNING_KEY must be set on Netlify (or OAUTH_ISSUER): the function runs as many instances, which cannot share a key each would generate, so a token one issues would fail on the next; `npm run keys -- signing-key` prints one to set in the site's environment",
  },
]

/** The default of a setting for a runtime, as the variable would be written. */
export function defaultOf(name: SettingName, runtime: Runtime): string | undefined {
  const d = SETTINGS[name].default as Setting<unknown>['default']
  return typeof d === 'object' && d !== null ? (d[runtime] ?? d.otherwise) : d
}

/**
 * Every setting from `env`, validated, with the runtime's defaults, then what
 * the settings need of each other there (RULES). An empty variable counts as
 * unset. Throws SettingsError naming every bad one (the first, with the others).
 */
export function readSettings(env: Record<string, string | undefined>, runtime: Runtime): Settings {
  return checked(env, runtime, new Set())
}

/**
 * `env` checked as readSettings checks it, where the settings in `hidden` are set but cannot be
 * read (a deploy platform's secrets: their values are write-only there): each counts as set for
 * what the others need of it, and its value goes unchecked. Throws SettingsError naming every bad one.
 */
export function checkSettings(
  env: Record<string, string | undefined>,
  runtime: Runtime,
  hidden: ReadonlySet<SettingName>,
): void {
  checked(env, runtime, hidden)
}

/**
 * Settings renamed, by their new name: the old one is still read where the new one is unset, and
 * `deprecations` says so (OAUTH_STORE has named every store of runtime data, not only the OAuth state).
 */
export const RENAMED: Partial<Record<SettingName, string>> = { STATE_STORE: 'OAUTH_STORE' }

/** One line per old name `env` still sets, for the log and the keys CLI. */
export function deprecations(env: Record<string, string | undefined>): string[] {
  return Object.entries(RENAMED).flatMap(([name, old]) =>
    env[old] ? [`${old} is deprecated and will be removed: name it ${name} (the same values)`] : [],
  )
}

/** A variable's value, or the old name's where only that is set; an empty one counts as unset. */
function givenValue(env: Record<string, string | undefined>, name: SettingName): string | undefined {
  const value = env[name] || undefined
  const old = RENAMED[name]
  const oldValue = old === undefined ? undefined : env[old] || undefined
  if (value !== undefined && oldValue !== undefined && value !== oldValue)
    throw new SettingsError(name, `${name} and ${old} (its old name) differ: set ${name} alone`)
  return value ?? oldValue
}

/**
 * A hidden setting's place in the settings the rules see, and a refused one's: set, of no value
 * anyone reads (a rule then asks nothing more of a setting already reported).
 */
const HIDDEN = Symbol('a value that cannot be read')

function checked(env: Record<string, string | undefined>, runtime: Runtime, hidden: ReadonlySet<SettingName>) {
  const out: Record<string, unknown> = {}
  const errors: SettingsError[] = []
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    let given: string | undefined
    try {
      given = givenValue(env, name)
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error
      errors.push(error)
      out[name] = HIDDEN
      continue
    }
    if (hidden.has(name) && (given === undefined || given === '')) {
      out[name] = HIDDEN
      continue
    }
    const raw = given === undefined || given === '' ? defaultOf(name, runtime) : given
    if (raw === undefined) {
      out[name] = undefined
      continue
    }
    const parsed = (SETTINGS[name].schema as z.ZodType<unknown>).safeParse(raw)
    if (!parsed.success) {
      const got = (SETTINGS[name] as Setting<unknown>).secret
        ? 'its value is not shown'
        : `got ${JSON.stringify(raw.slice(0, 200))}`
      errors.push(new SettingsError(name, `${name} must be ${SETTINGS[name].accepts}; ${got}`))
      out[name] = HIDDEN
      continue
    }
    out[name] = parsed.data
  }
  const settings = out as Settings
  for (const rule of RULES)
    if (rule.runtimes.includes(runtime) && rule.broken(settings))
      errors.push(new SettingsError(rule.setting, rule.message))
  const error = allOf(errors)
  if (error) throw error
  return settings
}

/** The settings table of docs/operating.md, generated from the schema. */
export function settingsTable(): string {
  const rows = (Object.keys(SETTINGS) as SettingName[]).map((name) => {
    const s = SETTINGS[name] as Setting<unknown>
    const d = s.default
    const shown =
      typeof d === 'object' && d !== null
        ? [
            d.otherwise === undefined ? 'unset' : `\`${d.otherwise}\``,
            ...Object.entries(d)
              .filter(([k]) => k !== 'otherwise')
              .map(([k, v]) => `\`${v}\` (${k === 'dev' ? 'npm run dev' : k === 'netlify' ? 'Netlify' : k})`),
          ].join(', ')
        : d === undefined
          ? 'unset'
          : d === ''
            ? 'empty'
            : `\`${d}\``
    return `| \`${name}\` | ${shown} | ${s.accepts} | ${s.description} |`
  })
  return ['| setting | default | accepts | what it does |', '|---|---|---|---|', ...rows].join('\n')
}
