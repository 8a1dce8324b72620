/**
 * Netlify's emulations run one at a time, beside the rest of the suite: two
 * at once wait on each other (each builds its functions and starts a worker
 * per call: a function's first call then takes minutes, and the delivery
 * waits of the webhooks test run out). vitest.config.ts's `netlify` project
 * runs this before each of its files: the file waits here, before its set-up
 * and outside any hook's timeout, until no other emulation file of this
 * repository runs. The lock is a folder holding its owner's pid (made
 * atomically); one whose owner has died is taken over.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { REPO_ROOT } from '../../helpers/project.ts'

const LOCK = join(REPO_ROOT, '.cache', 'netlify-emulation.lock')

async function take(): Promise<boolean> {
  try {
    await mkdir(LOCK)
    await writeFile(join(LOCK, 'pid'), String(process.pid))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    if (await ownerAlive()) return false
    await rm(LOCK, { recursive: true, force: true })
    return take()
  }
}

/** Whether the lock's owner still runs (a lock just made, its pid not yet written, counts as alive). */
async function ownerAlive(): Promise<boolean> {
  const pid = Number((await readFile(join(LOCK, 'pid'), 'utf8').catch(() => '')).trim() || Number.NaN)
  if (!Number.isInteger(pid)) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

await mkdir(join(REPO_ROOT, '.cache'), { recursive: true })
while (!(await take())) await new Promise((resolve) => setTimeout(resolve, 1000))
// Registered before the file's own hooks, so it runs after them (the emulation stopped).
afterAll(() => rm(LOCK, { recursive: true, force: true }))
