/**
 * Structured logs as JSON lines on stdout, one per request, readable by any
 * log tool: pino writing through an asynchronous destination, so a request
 * never waits on the terminal or a pipe (pending lines are flushed on exit).
 * Never logs headers, so credentials cannot leak into logs.
 *
 * @example createLogger('info')('info', 'request', { status: 200 })
 * // {"level":"info","time":"2026-11-23T05:00:00.000Z","msg":"request","status":200}
 */
import { pino } from 'pino'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type Logger = (level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => void

/**
 * A logger at `level`; `write` receives each line instead of stdout (tests,
 * and tools that collect lines), synchronously.
 */
export function createLogger(level: LogLevel = 'info', write?: (line: string) => void): Logger {
  const destination = write ? { write } : pino.destination({ dest: 1, sync: false })
  const log = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  )
  return (lvl, msg, fields) => (fields ? log[lvl](fields, msg) : log[lvl](msg))
}

export const silentLogger: Logger = () => {}
