/**
 * DistWriter writes on its own thread (build/emit/write-worker.ts): what it
 * is handed early and at commit lands in dist/ byte for byte, a file handed
 * again is written again, one dropped before commit is gone, and a write
 * that fails fails the commit with the reason and leaves dist/ as it was.
 */
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import type { BuildFile } from '../../../contract/manifest.ts'
import { DistWriter } from '../../../build/emit/write.ts'
import { hashTree } from '../../helpers/files.ts'

const file = (text: string | Buffer): BuildFile => ({ body: Buffer.from(text), etag: '"x"' })

let root: string | undefined
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true })
})

/** What hashTree gives for `files` written under a folder. */
function tree(files: ReadonlyMap<string, BuildFile>): Record<string, string> {
  return Object.fromEntries(
    [...files].map(([path, f]) => [`/${path}`, createHash('sha256').update(f.body).digest('hex')]),
  )
}

describe('DistWriter', () => {
  it('writes early and committed files byte for byte, and leaves out the ones dropped', async () => {
    root = await mkdtemp(join(tmpdir(), 'dist-writer-'))
    const dist = join(root, 'dist')
    const writer = await DistWriter.open(dist)
    // Bodies of every size, several batches' worth (8 MB each), and bytes that are not text.
    const big = Buffer.alloc(9 << 20, 7)
    const binary = Buffer.from([0, 255, 128, 10, 13])
    const early = new Map([
      ['api/a.json', file('{"a":1}')],
      ['api/big.bin', file(big)],
      ['api/gone.json', file('soon gone')],
      ['deep/er/still/b.txt', file('b')],
    ])
    writer.write(early)
    const final = new Map(early)
    final.delete('api/gone.json')
    final.set('api/a.json', file('{"a":2}'))
    final.set('bin/x', file(binary))
    final.set('empty', file(''))
    await writer.commit(final)
    expect(await hashTree(dist)).toEqual(tree(final))
    expect((await readdir(root)).filter((n) => n.startsWith('.dist-'))).toEqual([])
  })

  it('fails the commit with the reason when a write fails, leaving dist/ as it was', async () => {
    root = await mkdtemp(join(tmpdir(), 'dist-writer-'))
    const dist = join(root, 'dist')
    await mkdir(dist)
    await writeFile(join(dist, 'kept.json'), 'the last build')
    const writer = await DistWriter.open(dist)
    // A file where a later one needs a folder: the second cannot be written.
    writer.write(new Map([['api', file('a file')]]))
    const commit = writer.commit(
      new Map([
        ['api', file('a file')],
        ['api/inside.json', file('{}')],
      ]),
    )
    await expect(commit).rejects.toThrow(/^writing dist\/: .*(ENOTDIR|EEXIST)/)
    expect(await hashTree(dist)).toEqual(tree(new Map([['kept.json', file('the last build')]])))
    expect((await readdir(root)).filter((n) => n.startsWith('.dist-'))).toEqual([])
  })
  it('fails the commit, rather than waiting for ever, when its writer thread has died', async () => {
    root = await mkdtemp(join(tmpdir(), 'dist-writer-'))
    const dist = join(root, 'dist')
    const writer = await DistWriter.open(dist)
    writer.write(new Map([['a.json', file('{}')]]))
    // The thread ends as a crash would end it.
    await (writer as unknown as { worker: Worker }).worker.terminate()
    await expect(writer.commit(new Map([['a.json', file('{}')]]))).rejects.toThrow(
      /^writing dist\/: the writer thread stopped/,
    )
    expect((await readdir(root)).filter((n) => n.startsWith('.dist-'))).toEqual([])
  })

  it('writes batches of several megabytes, handed over between flushes, byte for byte', async () => {
    root = await mkdtemp(join(tmpdir(), 'dist-writer-'))
    const dist = join(root, 'dist')
    const writer = await DistWriter.open(dist)
    const flush = () => (writer as unknown as { flush(): Promise<void> }).flush()
    const first = new Map([['one.bin', file(Buffer.alloc(3 << 20, 1))]])
    writer.write(first)
    await flush()
    writer.write(new Map([['two.bin', file(Buffer.alloc(1 << 20, 2))]]))
    await flush()
    writer.write(new Map([['three.bin', file(Buffer.alloc(9 << 20, 3))]]))
    const final = new Map([
      ...first,
      ['two.bin', file(Buffer.alloc(1 << 20, 2))],
      ['three.bin', file(Buffer.alloc(9 << 20, 3))],
    ])
    await writer.commit(final)
    expect(await hashTree(dist)).toEqual(tree(final))
  })
})
