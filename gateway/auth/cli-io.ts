import { UsageError } from '../../contract/errors.ts'

/** What the keys CLI (and its `user` commands) read and write: injected, so tests run it in-process. */
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
