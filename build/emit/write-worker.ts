/**
 * Worker thread of DistWriter (write.ts): writes a build's files into its
 * temporary folder with plain synchronous calls, so the disk's work goes on
 * while the main thread is busy in a long emitter (promise-based writes
 * needed the main thread between every few files, and a 10,000-item build
 * waited two seconds for them at its end).
 *
 * Messages in: a batch of files (their bytes packed in one transferred
 * buffer) or `flush`; out, for each flush: the first error since, if any.
 * After an error the files of later batches are skipped: the build fails.
 */
import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parentPort } from 'node:worker_threads'

export interface WriteBatch {
  type: 'batch'
  /** Absolute paths, each with its bytes' end in `bytes` (a file kept on disk: its own path in `links`). */
  paths: string[]
  ends: number[]
  links: (string | null)[]
  bytes: ArrayBuffer
}

export type WriterMessage = WriteBatch | { type: 'flush' }

const made = new Set<string>()
let failure: string | undefined

function write(batch: WriteBatch): void {
  let start = 0
  for (const [i, path] of batch.paths.entries()) {
    const end = batch.ends[i]!
    const link = batch.links[i] ?? null
    const dir = dirname(path)
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true })
      made.add(dir)
    }
    if (link === null) writeFileSync(path, new Uint8Array(batch.bytes, start, end - start))
    else
      try {
        linkSync(link, path)
      } catch {
        // Another file system: a copy.
        copyFileSync(link, path)
      }
    start = end
  }
}

parentPort!.on('message', (message: WriterMessage) => {
  if (message.type === 'flush') {
    parentPort!.postMessage(failure ?? null)
    return
  }
  if (!failure)
    try {
      write(message)
    } catch (error) {
      failure = (error as Error).message
    }
})
