/**
 * A log destination that hands lines to the real destination in batches.
 * Under load the gateway answers thousands of requests a second, and writing
 * each request's line on its own cost more than answering the request
 * (a write per line, and sonic-boom re-measuring its pending string on every
 * one). Lines wait at most {@link FLUSH_MS} (or until {@link MAX_PENDING}
 * characters are pending); warnings and errors go out at once, with whatever
 * was logged before them; and pending lines are handed over on exit.
 */

/** What pino writes to: `write` per line, and `flushSync` on a fatal log or at exit. */
export interface LineSink {
  write(data: string): unknown
  flushSync?(): void
}

/** Longest a line waits in the batch. */
export const FLUSH_MS = 20
/** Characters that make a batch go out at once. */
export const MAX_PENDING = 64 * 1024

export class BatchedDestination implements LineSink {
  private pending: string[] = []
  private pendingChars = 0
  private timer: NodeJS.Timeout | undefined
  private readonly onTimer = () => {
    this.timer = undefined
    this.flush()
  }

  constructor(private readonly target: LineSink) {
    // pino's own exit hook flushes the target; lines still here must reach it too.
    process.once('exit', () => this.flushSync())
  }

  write(line: string): boolean {
    this.pending.push(line)
    this.pendingChars += line.length
    if (this.pendingChars >= MAX_PENDING) this.flush()
    else if (!this.timer) this.timer = setTimeout(this.onTimer, FLUSH_MS).unref()
    return true
  }

  /** Hand every pending line to the target now (it writes asynchronously). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    if (this.pending.length === 0) return
    const lines = this.pending.length === 1 ? this.pending[0]! : this.pending.join('')
    this.pending = []
    this.pendingChars = 0
    this.target.write(lines)
  }

  /** Everything pending, written before returning (pino calls this for fatal logs; we call it at exit). */
  flushSync(): void {
    this.flush()
    this.target.flushSync?.()
  }
}

/** `,"time":"<ISO 8601>"` for pino, formatted once per millisecond instead of once per line. */
export function cachedIsoTime(): () => string {
  let last = -1
  let text = ''
  return () => {
    const now = Date.now()
    if (now !== last) {
      last = now
      text = `,"time":"${new Date(now).toISOString()}"`
    }
    return text
  }
}
