/**
 * A build killed mid-way (SIGKILL of `npm run build` while it writes
 * dist/) leaves the previous dist/ whole and loadable, and the next build
 * recovers and cleans up after the dead one. Also the narrowest window: a
 * build killed between its two renames (no dist/, only the old one aside).
 */
import { spawn } from 'node:child_process'
import { appendFile, readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateCorpus } from '../../../bench/corpus/generate.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { loadSnapshot } from '../../../gateway/artifacts.ts'
import { commandArgs } from '../../helpers/commands.ts'
import { REPO_ROOT } from '../../helpers/project.ts'

let root: string
let firstId: string

beforeAll(async () => {
  // Big enough that writing dist/ takes a moment (several hundred files).
  root = (await generateCorpus({ items: 300, seed: 9 })).root
  firstId = (await buildSite({ root })).manifest.build.id
}, 120_000)
afterAll(() => rm(root, { recursive: true, force: true }))

const leftovers = async () => (await readdir(root)).filter((n) => n.startsWith('.dist-'))

/** Start a forced build and SIGKILL it as soon as it starts writing its temporary dist. */
async function killDuringEmit(): Promise<{ sawTmp: boolean; code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, commandArgs('cli', 'build', '--root', root, '--force'), {
    cwd: REPO_ROOT,
    stdio: 'ignore',
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  let sawTmp = false
  let finished = false
  void exited.then(() => (finished = true))
  while (!finished) {
    if ((await leftovers()).some((n) => n.startsWith('.dist-tmp-'))) {
      sawTmp = true
      child.kill('SIGKILL')
      break
    }
    await new Promise((r) => setTimeout(r, 2))
  }
  return { sawTmp, ...(await exited) }
}

describe('a build killed mid-way', () => {
  it('leaves the previous dist/ whole, and the next build recovers', async () => {
    let killedMidWrite = 0
    for (let attempt = 0; attempt < 4 && killedMidWrite < 2; attempt++) {
      const before = (await loadSnapshot(join(root, 'dist'))).id
      const { sawTmp, signal } = await killDuringEmit()
      // Whatever the moment of death, dist/ is a complete build: every file matches its manifest.
      const after = await loadSnapshot(join(root, 'dist'))
      if (sawTmp && signal === 'SIGKILL') {
        killedMidWrite++
        expect(after.id).toBe(before)
        expect((await leftovers()).some((n) => n.startsWith('.dist-tmp-'))).toBe(true)
      }
    }
    expect(killedMidWrite).toBeGreaterThan(0)

    // The next build succeeds, swaps in, and clears what the dead builds left.
    const sample = (await readdir(join(root, 'content', 'blog-posts')))[0]!
    await appendFile(join(root, 'content', 'blog-posts', sample), '\nOne more line.\n')
    const report = await buildSite({ root })
    expect(report.upToDate).toBe(false)
    expect(report.manifest.build.id).not.toBe(firstId)
    expect((await loadSnapshot(join(root, 'dist'))).id).toBe(report.manifest.build.id)
    expect(await leftovers()).toEqual([])
  })

  it('killed between its two renames (dist/ moved aside, the new one not yet in): the next build recovers and cleans up', async () => {
    const id = (await loadSnapshot(join(root, 'dist'))).id
    // The state such a kill leaves: dist/ renamed to .dist-old-<pid of a dead process>-…
    await rename(join(root, 'dist'), join(root, '.dist-old-999999999-deadbeef'))
    const report = await buildSite({ root })
    // Same inputs, same build (deterministic), now in place; the moved-aside copy is gone.
    expect(report.manifest.build.id).toBe(id)
    expect((await loadSnapshot(join(root, 'dist'))).id).toBe(id)
    expect(await leftovers()).toEqual([])
  })
})
