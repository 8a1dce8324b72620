/**
 * The lifecycle shared by the long-running commands (`npm start`,
 * `npm run dev`): a one-line failure with exit code 1 instead of a stack
 * trace, and a graceful close on SIGTERM/SIGINT.
 */

/** Print `✗ message` and give the exit code for a failed start. */
export function fail(message: string): number {
  console.error(`✗ ${message}`)
  return 1
}

/** On SIGTERM or SIGINT, run `close` once, then exit 0. */
export function closeOnSignals(close: (signal: string) => Promise<void>): void {
  const stop = (signal: string) => void close(signal).then(() => process.exit(0))
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

/** Run a command's `main`: a result of 0 or more is the exit code; -1 keeps the process serving. */
export async function runCommand(main: () => Promise<number>): Promise<void> {
  const code = await main()
  if (code >= 0) process.exit(code)
}
