/**
 * Dependencies point one way. contract/ is what build/ and gateway/ share and
 * imports neither; build/ never imports gateway/; gateway/ imports build/
 * only through build/dev.ts (the dev server driving the compiler); and the
 * folders inside build/ import each other without a cycle. build/'s root holds
 * only the launcher and the commands' entries; the tools beside the build
 * (deploy/, bundle/, ci/, docs/, scaffold/) are leaves that nothing in the
 * build imports. Checked on every import of every source file, so a new one
 * that crosses fails here.
 */
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/project.ts'

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

interface Import {
  file: string
  target: string
}

/** Every relative import of every TypeScript file under `dir`, as repository paths. */
async function importsUnder(dir: string): Promise<Import[]> {
  const entries = await readdir(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
  const out: Import[] = []
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

const show = (imports: Import[]) => imports.map((i) => `${i.file} → ${i.target}`)

/** The folder-to-folder edges of `imports` (inside `root`), and one cycle among them if there is one. */
function folderCycle(imports: Import[], root: string): string[] | undefined {
  const edges = new Map<string, Set<string>>()
  for (const { file, target } of imports) {
    const from = dirname(file)
    const to = dirname(target)
    if (from === to || !to.startsWith(root)) continue
    if (!edges.has(from)) edges.set(from, new Set())
    edges.get(from)!.add(to)
  }
  const state = new Map<string, 'open' | 'done'>()
  const walk = (node: string, path: string[]): string[] | undefined => {
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node]
    if (state.get(node) === 'done') return undefined
    state.set(node, 'open')
    for (const next of edges.get(node) ?? []) {
      const cycle = walk(next, [...path, node])
      if (cycle) return cycle
    }
    state.set(node, 'done')
    return undefined
  }
  for (const node of edges.keys()) {
    const cycle = walk(node, [])
    if (cycle) return cycle
  }
  return undefined
}

describe('layering', () => {
  it('finds imports (the checks below are not vacuous)', async () => {
    const gateway = await importsUnder('gateway')
    expect(gateway.some((i) => i.target.startsWith('contract/'))).toBe(true)
    expect((await importsUnder('build')).some((i) => i.target.startsWith('contract/'))).toBe(true)
    expect((await importsUnder('build')).length).toBeGreaterThan(50)
    expect(
      folderCycle(
        [
          { file: 'build/a/x.ts', target: 'build/b/y.ts' },
          { file: 'build/b/y.ts', target: 'build/a/z.ts' },
        ],
        'build',
      ),
    ).toEqual(['build/a', 'build/b', 'build/a'])
  })

  it('contract/ imports neither build/ nor gateway/', async () => {
    const crossing = (await importsUnder('contract')).filter((i) => /^(build|gateway)\//.test(i.target))
    expect(show(crossing)).toEqual([])
  })

  it('build/ never imports gateway/', async () => {
    const crossing = (await importsUnder('build')).filter((i) => i.target.startsWith('gateway/'))
    expect(show(crossing)).toEqual([])
  })

  it('gateway/ imports build/ only through build/dev.ts', async () => {
    const crossing = (await importsUnder('gateway')).filter(
      (i) => i.target.startsWith('build/') && i.target !== 'build/dev.ts',
    )
    expect(show(crossing)).toEqual([])
  })

  it('build/import/ is a command of its own: nothing else imports it', async () => {
    const crossing = [...(await importsUnder('build')), ...(await importsUnder('gateway'))].filter(
      (i) => i.target.startsWith('build/import/') && !i.file.startsWith('build/import/'),
    )
    expect(show(crossing)).toEqual([])
  })

  it('the folders of build/ import each other without a cycle', async () => {
    expect(folderCycle(await importsUnder('build'), 'build')).toBeUndefined()
  })

  it("build/'s root holds only the launcher and the commands' entries", async () => {
    const files = (await readdir(join(REPO_ROOT, 'build'), { withFileTypes: true })).filter((e) => e.isFile())
    expect(files.map((e) => e.name).sort()).toEqual(['cli.ts', 'dev.ts', 'run.mjs', 'start.sh'])
  })

  /** What each tool folder of build/ may import, as path prefixes (contract/ always). */
  const TOOLS: Record<string, string[]> = {
    // The deploy tools read the route table and the settings; the function bundle is tsup's.
    'build/deploy/': ['build/deploy/', 'build/bundle/tsup.ts'],
    // The commands' bundle is keyed by the fingerprint the compiler checks.
    'build/bundle/': ['build/bundle/', 'build/compiler/inputs.ts'],
    'build/docs/': ['build/docs/'],
    // `npm run new` reads site.yaml and content/ as the build does.
    'build/scaffold/': ['build/scaffold/', 'build/core/'],
  }

  it('each tool folder of build/ imports only what its place allows', async () => {
    const imports = await importsUnder('build')
    for (const [folder, allowed] of Object.entries(TOOLS)) {
      const own = imports.filter((i) => i.file.startsWith(folder))
      expect(own.length, folder).toBeGreaterThan(0)
      const crossing = own.filter(
        (i) => !i.target.startsWith('contract/') && !allowed.some((prefix) => i.target.startsWith(prefix)),
      )
      expect(show(crossing), folder).toEqual([])
    }
  })

  it('nothing in the build imports its tools, and its entries nothing of them but the bundle', async () => {
    const tools = /^build\/(deploy|bundle|ci|docs)\/|^build\/scaffold\/new\.ts$/
    const crossing = (await importsUnder('build')).filter(
      (i) => tools.test(i.target) && !i.file.startsWith(i.target.split('/').slice(0, 2).join('/')),
    )
    // The Netlify Function is bundled with the commands' tsup settings.
    expect(show(crossing)).toEqual(['build/deploy/netlify-function.ts → build/bundle/tsup.ts'])
  })

  it('build/ci/ runs on plain Node: it imports only node: built-ins', async () => {
    const dir = join(REPO_ROOT, 'build', 'ci')
    const files = (await readdir(dir)).filter((name) => name.endsWith('.ts'))
    expect(files.length).toBeGreaterThan(0)
    for (const name of files) {
      const text = await readFile(join(dir, name), 'utf8')
      const specifiers = [...text.matchAll(/(?:^|\n)\s*import\s[^'"]*?['"]([^'"]+)['"]/g)].map((m) => m[1]!)
      expect(specifiers.length, name).toBeGreaterThan(0)
      expect(
        specifiers.filter((s) => !s.startsWith('node:')),
        name,
      ).toEqual([])
    }
  })
})
