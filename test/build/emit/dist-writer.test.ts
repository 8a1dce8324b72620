/**
 * DistWriter writes on its own thread (build/emit/write-worker.ts): what it
 * is handed early and at commit lands in dist/ byte for byte, a file handed
 * again is written again, one dropped before commit is gone, and a write
 * that fails fails the commit with the reason and leaves dist/ as it was.
 */
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BuildFile } from '../../../contract/manifest.ts'
import { DistWriter } from '../../../build/emit/write.ts'

const file = (text: string | Buffer): BuildFile => ({ body: Buffer.from(text), etag: '"x"' })

let root: string | undefined
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true })
})

async function listed(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort()
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
    expect(await listed(dist)).toEqual([...final.keys()].sort())
    for (const [path, f] of final) expect((await readFile(join(dist, path))).equals(f.body)).toBe(true)
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
    expect(await listed(dist)).toEqual(['kept.json'])
    expect(await readFile(join(dist, 'kept.json'), 'utf8')).toBe('the last build')
    expect((await readdir(root)).filter((n) => n.startsWith('.dist-'))).toEqual([])
  })
})
