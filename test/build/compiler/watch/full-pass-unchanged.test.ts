/**
 * The full pass's worker sends the dev server only the whole-content files
 * that differ from the pass it adopted last; the rest (the editor's scripts,
 * the documents, the feeds an edit left alone) go as their ETag, and the dev
 * server adopts them from its own copies; the large ones it carries travel as
 * copies whose memory moves with the message. Real threads: a Compiler here, the
 * worker's Compiler there, on a copy of the fixture content. The tests run in
 * order, on one worker: each starts from what the one before left the dev
 * server holding.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildFile } from '../../../../contract/manifest.ts'
import { Compiler } from '../../../../build/compiler/compiler.ts'
import {
  type FullPass,
  FullPassThread,
  isUnchanged,
  type Unchanged,
  MOVE_FROM_BYTES,
  movedCopies,
} from '../../../../build/compiler/full-pass.ts'
import { classify } from '../../../../build/core/sources.ts'
import { copyOfFixtureContent, type TempProject } from '../../../helpers/project.ts'

const POST = 'content/blog-posts/bigquery-support-ga.md'

let project: TempProject
let compiler: Compiler
let thread: FullPassThread

beforeAll(async () => {
  project = await copyOfFixtureContent()
  compiler = await Compiler.open({ root: project.root, offThread: false })
  await compiler.emit('full')
  thread = new FullPassThread(project.root, undefined)
}, 60_000)
afterAll(async () => {
  await thread?.close()
  await project?.remove()
})

function files(pass: FullPass): [string, BuildFile | Unchanged][] {
  return Object.values(pass.owners).flatMap((owned) => Object.entries(owned))
}

/** Edit the post's title here and tell the worker; the pass it then makes. */
async function editAndPass(title: string, paths: Parameters<FullPassThread['pass']>[0] = []) {
  const source = await readFile(join(project.root, POST), 'utf8')
  await writeFile(join(project.root, POST), source.replace(/^title: .*$/m, `title: ${title}`))
  const path = classify(project.root, join(project.root, POST))!
  await compiler.update([path])
  await compiler.emit('edit')
  const task = thread.pass([...paths, path])
  const { pass } = await task.result
  expect(pass).toBeDefined()
  return { id: task.id, pass: pass! }
}

describe("the full pass's files", () => {
  it('are all carried while the dev server holds none of the worker’s passes', async () => {
    const { id, pass } = await editAndPass('Carried in full')
    expect(files(pass).filter(([, file]) => isUnchanged(file))).toEqual([])
    expect(compiler.adoptFull(pass)).toBeDefined()
    thread.holds(id)
    // The worker opens its own compiler first: tens of seconds beside the rest of the suite on two cores.
  }, 120_000)

  it('after an adopted pass, leave out what the dev server has, and adopt to the bytes of a full emit', async () => {
    const { id, pass } = await editAndPass('Carried by difference')
    const kept = new Set(files(pass).flatMap(([path, file]) => (isUnchanged(file) ? [path] : [])))
    const carried = new Set(files(pass).flatMap(([path, file]) => (isUnchanged(file) ? [] : [path])))
    // The editor's scripts and the API document never change with a title; the full text and the index do.
    expect(kept).toContain('admin/decap-cms/decap-cms.js')
    expect(kept).toContain('openapi.json')
    expect(carried).toContain('llms-full.txt')
    expect(carried).toContain('_build/search-index.bin')
    const adopted = compiler.adoptFull(pass)
    expect(adopted).toBeDefined()
    thread.holds(id)
    const llms = adopted!.files.get('llms-full.txt')!.body.toString()
    expect(llms).toContain('Carried by difference')
    // The same bytes as this compiler's own full emit of the same content.
    const own = (await compiler.emit('full'))!
    expect(own.manifest.build.id).toBe(adopted!.manifest.build.id)
    for (const [path, file] of adopted!.files) expect(own.files.get(path)?.etag, path).toBe(file.etag)
  }, 60_000)

  it('after a pass the dev server dropped (a newer edit came), still leave out what it holds', async () => {
    await editAndPass('Dropped for a newer edit')
    const { id, pass } = await editAndPass('After the dropped one')
    const kept = files(pass).flatMap(([path, file]) => (isUnchanged(file) ? [path] : []))
    expect(kept).toContain('admin/decap-cms/decap-cms.js')
    expect(kept).not.toContain('llms-full.txt')
    expect(compiler.adoptFull(pass)).toBeDefined()
    thread.holds(id)
  }, 60_000)

  it('are all carried again once the dev server made its own (it holds no pass of the worker’s)', async () => {
    thread.holds(undefined)
    const { pass } = await editAndPass('Carried in full again')
    expect(files(pass).filter(([, file]) => isUnchanged(file))).toEqual([])
  }, 60_000)

  it('are not adopted when the dev server holds a file the pass left out with other bytes, or lacks it', async () => {
    const { pass } = await editAndPass('Left out wrongly')
    const [owner, owned] = Object.entries(pass.owners).find(([, o]) => Object.keys(o).length)!
    const path = Object.keys(owned)[0]!
    const other: FullPass = {
      ...pass,
      owners: { ...pass.owners, [owner]: { ...owned, [path]: { unchanged: '"nope"' } } },
    }
    expect(compiler.adoptFull(other)).toBeUndefined()
    const unknown = { ...owned, 'never-made.txt': { unchanged: '"nope"' } }
    expect(compiler.adoptFull({ ...pass, owners: { ...pass.owners, [owner]: unknown } })).toBeUndefined()
    expect(compiler.adoptFull(pass)).toBeDefined()
  }, 60_000)
})

describe('movedCopies', () => {
  it('swaps the files from MOVE_FROM_BYTES on for copies whose memory moves, leaving the rest and the originals', async () => {
    const pass = compiler.fullPass((await compiler.emit('full'))!)
    const big: BuildFile = { body: Buffer.alloc(MOVE_FROM_BYTES, 7), etag: '"big"' }
    const owner = Object.keys(pass.owners)[0]!
    pass.owners[owner] = { ...pass.owners[owner], 'big.bin': big }
    const before = new Map(files(pass))
    const manifest = pass.manifest
    const moved = movedCopies(pass)
    const large = files(pass).filter(([, file]) => !isUnchanged(file) && file.body.byteLength >= MOVE_FROM_BYTES)
    expect(large.map(([path]) => path)).toContain('big.bin')
    expect(moved).toHaveLength(large.length + (manifest.body.byteLength >= MOVE_FROM_BYTES ? 1 : 0))
    for (const [path, file] of files(pass)) {
      const original = before.get(path)!
      if (isUnchanged(file) || file.body.byteLength < MOVE_FROM_BYTES) {
        expect(file).toBe(original)
        continue
      }
      expect(file.body.equals((original as BuildFile).body)).toBe(true)
      expect(moved).toContain(file.body.buffer)
      expect(file.body.buffer).not.toBe((original as BuildFile).body.buffer)
    }
    // Moving the copies leaves the originals, which the worker's compiler keeps, whole.
    structuredClone(moved, { transfer: moved })
    expect(big.body.byteLength).toBe(MOVE_FROM_BYTES)
    expect(big.body[0]).toBe(7)
    expect(manifest.body.byteLength).toBeGreaterThan(0)
  })
})
