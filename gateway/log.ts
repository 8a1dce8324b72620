/**
 * Structured logs as JSON lines on stdout, one per request, readable by any
 * log tool. Never logs headers, so credentials cannot leak into logs.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type Logger = (level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => void

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const threshold = ORDER[level] ?? ORDER.info
  return (lvl, msg, fields) => {
    if (ORDER[lvl] < threshold) return
    write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`)
  }
}

export const silentLogger: Logger = () => {}
