/** Worker thread of file-events.ts: chokidar on the folder, each event's path posted to the dev server's thread. */
import { parentPort, workerData } from 'node:worker_threads'
import { watch } from 'chokidar'

const { dir } = workerData as { dir: string }
const post = (file: string) => parentPort!.postMessage({ file })
const watcher = watch(dir, { ignoreInitial: true, depth: 2 })
watcher.on('add', post).on('change', post).on('unlink', post)
watcher.once('ready', () => parentPort!.postMessage('ready'))
