/**
 * The watch mode with its full pass and its file watcher on worker threads (the default for large
 * content, forced here on the repository's content): edits are served at once,
 * and once they settle the whole-content outputs the worker made are adopted,
 * so dist/ and the served build are byte-identical to a full build.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type FullPass, FullPassThread, isUnchanged } from '../../../../build/compiler/full-pass.ts'
import { startDev, type DevServer } from '../../../../gateway/dev-server.ts'
import { expectDevEqualsFullBuild } from './full-build-equality.ts'
import { copyOfFixtureContent, type TempProject } from '../../../helpers/project.ts'
import { until } from '../../../helpers/until.ts'

const POST = 'content/blog-posts/bigquery-support-ga.md'
const ITEM = '/api/blog-posts/bigquery-support-ga'

describe('npm run dev with the full pass and the file watcher on worker threads', () => {
  let project: TempProject
  let dev: DevServer
  const printed: string[] = []

  /** Poll the gateway until the body at `path` passes `check`. */
  const served = (path: string, check: (body: string) => boolean) =>
    until(async () => (await fetch(`${dev.url}${path}`)).text(), { holds: check, what: path, everyMs: 10 })

  // Watched, not replaced: each pass the dev server asks its worker for, and what came back.
  const passes = vi.spyOn(FullPassThread.prototype, 'pass')

  beforeAll(async () => {
    project = await copyOfFixtureContent()
    dev = await startDev({ root: project.root, port: 0, offThread: true, print: (line) => printed.push(line) })
  })
  afterAll(async () => {
    passes.mockRestore()
    await dev?.close()
    await project?.remove()
  })

  it('adopts the worker’s full pass after edits: llms-full.txt, feeds and dist/ as a full build makes them', async () => {
    const source = await readFile(join(project.root, POST), 'utf8')
    for (const n of [1, 2]) {
      await writeFile(join(project.root, POST), source.replace(/^title: .*$/m, `title: Edited on the way ${n}`))
      // The edit is served first (its event crosses from the watcher's thread), then settles.
      await served(ITEM, (body) => body.includes(`"title":"Edited on the way ${n}"`))
      await dev.settled()
    }
    const llms = await (await fetch(`${dev.url}/llms-full.txt`)).text()
    expect(llms).toContain('Edited on the way 2')
    expect(llms).not.toContain('Edited on the way 1')
    // Had the worker failed or made other bytes, the dev server would have said so and run the pass itself.
    expect(printed.filter((l) => l.includes('full pass ran on this thread'))).toEqual([])
    expect(printed.filter((l) => /^✓ full build \w+ on a worker thread:/.test(l))).toHaveLength(2)
    // The first pass carried every file; the second, after the dev server adopted the first, only what
    // the edit changed (the editor's script stayed behind, as its ETag).
    const replies = await Promise.all(passes.mock.results.map((r) => r.value.result))
    const made: FullPass[] = replies.flatMap((reply) => reply.pass ?? [])
    const kept = made.map((pass) =>
      Object.values(pass.owners).flatMap((files) =>
        Object.entries(files).flatMap(([path, f]) => (isUnchanged(f) ? [path] : [])),
      ),
    )
    expect(kept[0]).toEqual([])
    expect(kept.at(-1)).toContain('admin/decap-cms/decap-cms.js')
    expect(kept.at(-1)).not.toContain('llms-full.txt')
    await expectDevEqualsFullBuild(project, dev)
    // Two edits, two full passes on a worker and a full build to compare: more than 30 s on a loaded CI machine.
  }, 120_000)
})
