/**
 * How every command line tool ends, the same way: `main` returns an exit
 * code, or `'serving'` to keep a server running. An AppError prints its lines
 * as `✗ …` and exits with its exitCode (1, or 2 for usage); a system error
 * (a full disk, a folder it may not write) prints its message; anything else
 * is a bug and prints its stack, to be reported. Exit code 1 for both. Never
 * a stack trace for the user's mistake.
 *
 * @example await runCli(async () => { await doWork(); return 0 })
 */
import { AppError } from './errors.ts'

export type CliResult = number | 'serving'

export async function runCli(main: () => Promise<CliResult>): Promise<void> {
  let result: CliResult
  try {
    result = await main()
  } catch (error) {
    result = report(error)
  }
  if (result !== 'serving') process.exit(result)
}

/** Print an error the way every command does and give its exit code. */
export function report(error: unknown, print: (line: string) => void = (line) => console.error(line)): number {
  if (error instanceof AppError) {
    const [first, ...rest] = error.lines()
    print(`✗ ${first}`)
    for (const line of rest) print(line)
    return error.exitCode
  }
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string')
    print(`✗ ${error.message}`)
  else
    print(
      `✗ unexpected error (a bug: please report it with what follows): ${error instanceof Error ? error.stack : String(error)}`,
    )
  return 1
}
