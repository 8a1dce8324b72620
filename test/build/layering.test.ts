/**
 * Dependencies point one way: the gateway reads build/'s contract (and the
 * dev server drives the compiler); build/ never imports gateway/. Checked on
 * every import of every source file, so a new one that crosses fails here.
 */
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/project.ts'

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

/** Every relative import of every TypeScript file under `dir`, as repository paths. */
async function importsUnder(dir: string): Promise<{ file: string; target: string }[]> {
  const entries = await readdir(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
  const out: { file: string; target: string }[] = []
  for (const entry of entries.filter((e) => e.isFile() && e.name.endsWith('.ts'))) {
    const file = join(entry.parentPath, entry.name)
    const text = await readFile(file, 'utf8')
    for (const match of text.matchAll(IMPORT)) {
      const target = relative(REPO_ROOT, resolve(dirname(file), match[1] ?? match[2]!))
      out.push({ file: relative(REPO_ROOT, file), target })
    }
  }
  return out
}

describe('layering', () => {
  it('finds imports (the check below is not vacuous)', async () => {
    const gateway = await importsUnder('gateway')
    expect(gateway.some((i) => i.target.startsWith('contract/'))).toBe(true)
    expect((await importsUnder('build')).length).toBeGreaterThan(50)
  })

  it('build/ never imports gateway/', async () => {
    const crossing = (await importsUnder('build')).filter((i) => i.target.startsWith('gateway/'))
    expect(crossing.map((i) => `${i.file} → ${i.target}`)).toEqual([])
  })

  it('gateway/ imports build/ only through its contract and the compiler', async () => {
    const allowed = (target: string) => target.startsWith('contract/') || target.startsWith('build/compiler/')
    const crossing = (await importsUnder('gateway')).filter((i) => i.target.startsWith('build/') && !allowed(i.target))
    expect(crossing.map((i) => `${i.file} → ${i.target}`)).toEqual([])
  })
})
