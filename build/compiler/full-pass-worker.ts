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
import {
  type FullPassReply,
  type FullPassRequest,
  type FullPassWorkerData,
  leaveOutUnchanged,
  movedCopies,
} from './full-pass.ts'

const { root, cancelled, apiOrigin } = workerData as FullPassWorkerData
// Background work: on Linux the nice value is per thread (and inherited by the threads this one starts), so
// the dev server's thread answering an edit gets the cores first. Where that is not allowed, it runs as is.
try {
  setPriority(10)
} catch {}
// The search index inline: this thread is already off the dev server's, and a third would compete for its cores.
const opening = Compiler.open({ root, offThread: false, apiOrigin })
let queue: Promise<void> = Promise.resolve()
/** Each requested pass's abort: a newer request or a cancel stops it. */
const passes = new Map<number, AbortController>()
/**
 * The ETag of each file of the passes sent, by pass id, from the one the dev server last said it
 * holds: what it holds once it says it adopted one of them (a pass it dropped for a newer edit
 * leaves the one before as the baseline).
 */
const sent = new Map<number, Map<string, string>>()
const KEPT_BASELINES = 4

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
      // Only what the dev server lacks: the files of the pass it says it holds, if one sent from here.
      const held = adopted === undefined ? undefined : sent.get(adopted)
      for (const older of sent.keys()) if (adopted === undefined || older < adopted) sent.delete(older)
      const slim = leaveOutUnchanged(compiler.fullPass(output), held)
      reply.pass = slim.pass
      sent.set(id, slim.sent)
      // Passes the dev server dropped are kept a while only (one held, a few since).
      for (const older of sent.keys()) if (sent.size > KEPT_BASELINES && older !== adopted) sent.delete(older)
    }
  } finally {
    armInterrupt(undefined)
    // A failure answers "no pass" (the dev server then runs it itself) rather than leaving it waiting.
    parentPort!.postMessage(reply, reply.pass ? movedCopies(reply.pass) : [])
  }
}
