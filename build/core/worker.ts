/**
 * Start a worker thread on a module beside the caller. Run from TypeScript
 * sources (tsx), a worker does not inherit tsx's loader, so the worker
 * registers it before importing the module; a bundled build starts the `.js`.
 *
 * @example startModuleWorker(import.meta.url, 'render-worker')
 */
import { Worker } from 'node:worker_threads'

export function startModuleWorker(callerUrl: string, name: string, workerData?: unknown): Worker {
  const fromSources = callerUrl.endsWith('.ts')
  const entry = new URL(`./${name}${fromSources ? '.ts' : '.js'}`, callerUrl)
  if (!fromSources) return new Worker(entry, { workerData })
  const tsx = import.meta.resolve('tsx/esm/api')
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}) })`
  return new Worker(boot, { eval: true, workerData })
}
