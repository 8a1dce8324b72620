/**
 * chokidar on content/: add, change and unlink events, here or on a worker
 * thread. On any event in a directory chokidar reads the whole directory
 * again (an lstat per file) to find what was added or removed: at 5,000 posts
 * in one folder that is tens of milliseconds on the thread that then has to
 * answer the edit. For large content it runs on a worker and only its events
 * cross over.
 */
import { watch } from 'chokidar'
import { startModuleWorker } from '../core/worker.ts'

export interface FileEvents {
  close(): Promise<void>
}

/** Follow `dir` (two levels deep); resolves once the initial scan is done. */
export async function watchFiles(
  dir: string,
  onEvent: (file: string) => void,
  offThread: boolean,
): Promise<FileEvents> {
  if (!offThread) {
    const watcher = watch(dir, { ignoreInitial: true, depth: 2 })
    watcher.on('add', onEvent).on('change', onEvent).on('unlink', onEvent)
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
    return { close: () => watcher.close() }
  }
  const worker = startModuleWorker(import.meta.url, 'file-events-worker', { dir })
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { file: string } | 'ready') => {
      if (message === 'ready') resolve()
      else onEvent(message.file)
    })
    worker.once('error', reject)
  })
  return { close: () => worker.terminate().then(() => undefined) }
}
