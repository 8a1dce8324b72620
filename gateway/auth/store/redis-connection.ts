/**
 * One connection to Redis per process and REDIS_URL (ioredis), shared by the
 * state store, the limiters and the health check. It reconnects on its own,
 * with exponential backoff and jitter, for as long as the process runs; while
 * it is down a command fails at once (no offline queue), so a request that
 * needs the store is answered 503 instead of waiting, and a command in flight
 * when the connection drops fails rather than being sent twice (a write whose
 * outcome is unknown is reported failed, never repeated).
 *
 * Its location names the server and the key prefix, never the password.
 */
import { Redis } from 'ioredis'
import { storeSignals } from './store-errors.ts'

/** How long the first commands wait for the first connection (a gateway starting beside its Redis); later ones never wait. */
const FIRST_CONNECT_MS = 5_000
/** A command Redis has not answered by then failed (a server that hangs rather than closes). */
const COMMAND_TIMEOUT_MS = 5_000
/** Reconnection backoff: doubling from the first delay up to the last, with jitter. */
const BACKOFF_FIRST_MS = 50
const BACKOFF_MAX_MS = 5_000

export interface RedisConnection {
  readonly client: Redis
  /** `Redis at host:port/db`, for messages (never the password). */
  readonly location: string
  /** Whether commands can be sent now (the readiness of /api/health). */
  reachable(): boolean
  /** The client once it can be used: the first connection is waited for, a lost one is not. */
  usable(): Promise<Redis>
  /** Why it cannot be used, as the system said (ECONNREFUSED…). */
  reason(): string
}

const connections = new Map<string, RedisConnection>()

/** The process's connection to `url` (made on first use). */
export function redisConnection(url: string): RedisConnection {
  let found = connections.get(url)
  if (!found) connections.set(url, (found = connect(url)))
  return found
}

/** Close every connection this process made (a CLI run ends; a test's gateway closes). */
export async function closeRedisConnections(): Promise<void> {
  const all = [...connections.values()]
  connections.clear()
  await Promise.all(all.map((c) => c.client.quit().catch(() => c.client.disconnect())))
}

/** Where `url` points, without credentials. */
export function redisLocation(url: string): string {
  const parsed = new URL(url)
  const db = parsed.pathname.length > 1 ? parsed.pathname : ''
  return `Redis at ${parsed.protocol === 'rediss:' ? 'rediss://' : ''}${parsed.host || 'localhost:6379'}${db}`
}

function connect(url: string): RedisConnection {
  let lastError = 'not connected yet'
  const client = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: FIRST_CONNECT_MS,
    retryStrategy: (times) => {
      const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(times, 10))
      return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2)
    },
    // A replica promoted or a server restarted mid-command: reconnect rather than fail every command after.
    reconnectOnError: (error) => /READONLY|LOADING/.test(error.message),
  })
  // Settles once: at the first connection, or when it is given up waiting for.
  const firstAttempt = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FIRST_CONNECT_MS).unref()
    client.once('ready', () => {
      clearTimeout(timer)
      resolve()
    })
  })
  client.on('ready', () => (lastError = ''))
  client.on('error', (error: NodeJS.ErrnoException) => (lastError = error.code ?? error.message))
  client.on('reconnecting', () => storeSignals.emit('reconnect'))
  const location = redisLocation(url)
  const reachable = () => client.status === 'ready'
  return {
    client,
    location,
    reachable,
    reason: () => lastError || `the connection is ${client.status}`,
    async usable() {
      if (reachable()) return client
      await firstAttempt
      if (reachable()) return client
      throw new Error(lastError || `the connection is ${client.status}`)
    },
  }
}
