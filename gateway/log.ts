/**
 * Structured logs as JSON lines on stdout, one per request, readable by any
 * log tool: pino writing through an asynchronous destination, so a request
 * never waits on the terminal or a pipe, and lines go out in batches
 * (log-batch.ts: at most FLUSH_MS late, warnings and errors at once, all on exit).
 * Never logs headers, so credentials cannot leak into logs.
 *
 * @example createLogger('info')('info', 'request', { status: 200 })
 * // {"level":"info","time":"2026-11-23T05:00:00.000Z","msg":"request","status":200}
 */
import { pino } from 'pino'
import { BatchedDestination, cachedIsoTime } from './log-batch.ts'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type Logger = (level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => void

/**
 * A logger at `level`; `write` receives each line instead of stdout (tests,
 * and tools that collect lines), synchronously.
 */
export function createLogger(level: LogLevel = 'info', write?: (line: string) => void): Logger {
  const batched = write ? undefined : new BatchedDestination(pino.destination({ dest: 1, sync: false }))
  const destination = batched ?? { write: write! }
  const log = pino(
    {
      level,
      base: undefined,
      timestamp: cachedIsoTime(),
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  )
  return (lvl, msg, fields) => {
    if (fields) log[lvl](fields, msg)
    else log[lvl](msg)
    // Request lines may wait a moment in the batch; what an operator must see does not.
    if (batched && (lvl === 'warn' || lvl === 'error')) batched.flush()
  }
}

export const silentLogger: Logger = () => {}
