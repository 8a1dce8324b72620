/**
 * The end shared by the long-running commands (`npm start`, `npm run dev`):
 * a graceful close on SIGTERM/SIGINT. How they fail is contract/cli.ts.
 */

/** On SIGTERM or SIGINT, run `close` once, then exit 0. */
export function closeOnSignals(close: (signal: string) => Promise<void>): void {
  const stop = (signal: string) => void close(signal).then(() => process.exit(0))
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}
