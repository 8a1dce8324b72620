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
