/**
 * Poll until something holds, for state that changes on its own time (a
 * reload, a watched edit, a fault that clears). `timeoutMs` is when to give
 * up — a test never asserts how long it took — and the error says what was
 * last seen.
 *
 * @example await until(async () => (await fetch(url)).status, { holds: (s) => s === 200, what: 'health' })
 */
export interface UntilOptions<T> {
  /** Whether the probed value is the one waited for (default: it is truthy). */
  holds?: (value: T) => boolean
  /** What is waited for, for the error. */
  what: string
  /** How the last value is shown in the error (default: JSON, cut). */
  show?: (value: T) => string
  timeoutMs?: number
  everyMs?: number
}

export async function until<T>(probe: () => T | Promise<T>, options: UntilOptions<T>): Promise<T> {
  const { holds = Boolean, what, timeoutMs = 30_000, everyMs = 20 } = options
  const show = options.show ?? ((value: T) => String(JSON.stringify(value)).slice(0, 300))
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (holds(value)) return value
    if (Date.now() > deadline)
      throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms; last: ${show(value)}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** An answer's status and body, the probe a test polls a server with until it serves what it should. */
export async function answerAt(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url)
  return { status: response.status, body: await response.text() }
}
