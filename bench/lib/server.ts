/** Start a server as a child process and wait for the line that says where it listens. */
import { spawn, type ChildProcess } from 'node:child_process'

export interface ChildServer {
  url: string
  pid: number
  stop(): Promise<void>
}

/** `pattern` finds the URL in the child's stdout or stderr (first capture group). */
export function startChildServer(
  args: string[],
  pattern: RegExp,
  options: { cwd: string; env?: NodeJS.ProcessEnv; follow?: (output: string) => void; startMs?: number },
): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    // The gateway logs one line per request: read them into nothing, as a log shipper would.
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let seen = ''
  return new Promise((resolve, reject) => {
    const startMs = options.startMs ?? 120_000
    const timer = setTimeout(
      () => fail(new Error(`server did not start in ${startMs / 1000} s:\n${seen.slice(-2000)}`)),
      startMs,
    )
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    const onData = (data: Buffer) => {
      if (seen.length < 100_000) seen += data
      const match = pattern.exec(seen)
      if (!match) return
      clearTimeout(timer)
      // From here on, discard the output (one log line per request) without parsing it, or hand it on.
      for (const stream of [child.stdout!, child.stderr!]) {
        stream.removeListener('data', onData)
        if (options.follow) stream.on('data', (d: Buffer) => options.follow!(String(d)))
        stream.resume()
      }
      resolve({
        url: match[1]!,
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
            setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
          }),
      })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      if (!pattern.test(seen)) fail(new Error(`server exited with ${code}:\n${seen.slice(-2000)}`))
    })
  })
}
