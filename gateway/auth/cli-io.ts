/**
 * What the keys CLI (and its `client`, `user`, `webhook` and `audit`
 * commands) read and write: injected, so tests run it in-process; `processIo`
 * is the real process's. Output stops quietly when its reader goes away
 * (`… | head -1`): EPIPE ends the command with status 0, as other Unix tools
 * do, whatever it was printing.
 */
import { UsageError } from '../../contract/errors.ts'

export interface CliIo {
  env: NodeJS.ProcessEnv
  cwd: string
  out: (line: string) => void
  err: (line: string) => void
  /** All of stdin as text (for `user create --password-stdin`). */
  stdin?: () => Promise<string>
  now?: () => Date
}

/** `value`, or a usage error naming what is missing. */
export function required(value: string | undefined, name: string, usage: string): string {
  if (!value) throw new UsageError(`${name} is required`, usage)
  return value
}

/** The process's own streams, with a closed pipe ending the command quietly. */
export function processIo(): CliIo {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // Nobody reads any more: nothing left to say to anyone. Anything else is a real failure.
      if (error.code === 'EPIPE') process.exit(0)
      throw error
    })
  return {
    env: process.env,
    cwd: process.cwd(),
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    stdin: async () => {
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
  }
}
