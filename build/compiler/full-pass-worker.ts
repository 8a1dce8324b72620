/**
 * Worker thread of full-pass.ts: a Compiler over the same root, fed the
 * paths that changed, running the full pass on request. A newer request or a
 * cancel stops the pass in progress between emitters, and a cancel also
 * inside the long ones (their checkpoints, core/interrupt.ts).
 */
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { armInterrupt } from '../core/interrupt.ts'
import { Compiler } from './compiler.ts'
import { type FullPassReply, type FullPassRequest, type FullPassWorkerData, leaveOutKept } from './full-pass.ts'

const { root, cancelled } = workerData as FullPassWorkerData
// Background work: on Linux the nice value is per thread (and inherited by the threads this one starts), so
// the dev server's thread answering an edit gets the cores first. Where that is not allowed, it runs as is.
try {
  setPriority(10)
} catch {}
// The search index inline: this thread is already off the dev server's, and a third would compete for its cores.
const opening = Compiler.open({ root, offThread: false })
let queue: Promise<void> = Promise.resolve()
/** Each requested pass's abort: a newer request or a cancel stops it. */
const passes = new Map<number, AbortController>()
/** The last pass sent, and the ETag of each of its files: what the dev server holds once it says it adopted that pass. */
let sent: { id: number; etags: Map<string, string> } | undefined

parentPort!.on('message', (request: FullPassRequest) => {
  for (const [id, pass] of passes) if (id <= request.id) pass.abort()
  if (request.kind === 'cancel') return
  const pass = new AbortController()
  passes.set(request.id, pass)
  queue = queue.then(() => run(request, pass.signal)).finally(() => passes.delete(request.id))
})

async function run(
  { id, paths, adopted }: Extract<FullPassRequest, { kind: 'pass' }>,
  signal: AbortSignal,
): Promise<void> {
  const reply: FullPassReply = { id, pass: undefined }
  try {
    const compiler = await opening
    await compiler.update(paths)
    // Files no event reported: the dev server reads them first; their own round brings the pass back.
    const missed = await compiler.stale(signal)
    if (missed?.length) reply.missed = missed
    if (!missed || missed.length) return
    // The long emitters stop at their next checkpoint once the dev server cancels this pass.
    armInterrupt(() => Atomics.load(cancelled, 0) >= id)
    const output = compiler.current().ok && !signal.aborted ? await compiler.emit('full', signal) : undefined
    if (output) {
      // Only what the dev server lacks: it holds the last pass sent when that is the one it adopted.
      const slim = leaveOutKept(compiler.fullPass(output), sent?.id === adopted ? sent?.etags : undefined)
      reply.pass = slim.pass
      sent = { id, etags: slim.sent }
    }
  } finally {
    armInterrupt(undefined)
    // A failure answers "no pass" (the dev server then runs it itself) rather than leaving it waiting.
    parentPort!.postMessage(reply)
  }
}
