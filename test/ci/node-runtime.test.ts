/**
 * Node 24 wherever the project runs, and 22 at least: the npm scripts
 * (package.json pins the `node` package, whose binary leads their PATH),
 * `npm ci` in .ci/run and in the README's set-up (both fetch that Node first
 * where the machine's is older than 22, so npm itself runs on it), the MCP
 * conformance script, the workflow's containers; declared in `.nvmrc`, with
 * 22 as `engines`' least, which the bundles are compiled for; and no
 * dependency finds its engine unmet.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { delimiter, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { NODE_TARGET } from '../../build/bundle/tsup.ts'
import { REPO_ROOT } from '../helpers/project.ts'

const run = promisify(execFile)
const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string }
  devDependencies: Record<string, string>
}
const pinned = pkg.devDependencies.node!
const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0])

describe('the Node runtime', () => {
  it('is the pinned Node 24 for the npm scripts, whatever Node the machine has', async () => {
    expect(major(pinned)).toBe(24)
    expect(process.version).toBe(`v${pinned}`)
    // `npm exec` gives a command the npm scripts' PATH.
    const { stdout } = await run('npm', ['exec', '--', 'node', '-p', 'process.version'], { cwd: REPO_ROOT })
    expect(stdout.trim()).toBe(`v${pinned}`)
  })

  it('is declared in engines and .nvmrc', async () => {
    expect(pkg.engines.node).toBe('>=22.12')
    expect((await readFile(join(REPO_ROOT, '.nvmrc'), 'utf8')).trim()).toBe('24')
  })

  it("meets every dependency's engines: npm reports no EBADENGINE", async () => {
    const env = { ...process.env, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) }
    const { stdout, stderr } = await run(
      'npm',
      ['install', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=warn'],
      { cwd: REPO_ROOT, env, maxBuffer: 16 * 1024 * 1024 },
    )
    expect(`${stdout}${stderr}`).not.toContain('EBADENGINE')
  }, 120_000)

  it("the README's set-up runs npm ci itself on the pinned Node: no EBADENGINE on a machine with an older Node", async () => {
    const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8')
    const setup = readme.slice(readme.indexOf('## Set-up'))
    const block = setup.slice(setup.indexOf('```sh\n') + 6, setup.indexOf('\n```', setup.indexOf('```sh\n')))
    const commands = block.split('\n').map((line) => line.replace(/\s+#.*$/, ''))
    expect(commands).toEqual([`npx -y -p node@${major(pinned)} -- npm ci && npm start`, 'npm test'])
    const install = commands[0]!.split(' && ')[0]!
    // The README's install as a new user runs it, on the system's PATH (Node 20 on the development
    // machines), as a dry run: npm checks every dependency's engines without touching node_modules/.
    const dryRun = `${install.replace(/ npm ci$/, ' npm install')} --dry-run --ignore-scripts --no-audit --no-fund`
    const system = { ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin' }
    const options = { cwd: REPO_ROOT, env: system, maxBuffer: 16 * 1024 * 1024 }
    const { stdout, stderr } = await run('bash', ['-c', dryRun], options)
    expect(`${stdout}${stderr}`).not.toContain('EBADENGINE')
    // The npm that command runs reports the Node it runs on.
    const versions = await run('bash', ['-c', `${install.replace(/ npm ci$/, ' npm version --json')}`], options)
    expect(major((JSON.parse(versions.stdout) as { node: string }).node)).toBe(major(pinned))
  }, 120_000)

  it('.ci/run and the MCP conformance script put the pinned Node first on PATH where the machine has an older one', async () => {
    // Both source .ci/node.sh before they run anything on Node (npm ci, the build, the suite).
    for (const script of ['.ci/run', 'test/gateway/mcp/conformance/run.sh']) {
      const lines = (await readFile(join(REPO_ROOT, script), 'utf8')).split('\n').filter((l) => !/^\s*#/.test(l))
      const sourced = lines.indexOf('. .ci/node.sh')
      expect(sourced, script).toBeGreaterThan(0)
      expect(
        lines.slice(0, sourced).filter((l) => /\b(node|npm|npx|tsx)\b/.test(l)),
        script,
      ).toEqual([])
    }
    // A machine whose `node` is the system's (Node 20 on the development machines, 22 in CI's containers).
    const system = { ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin' }
    const own = (await run('node', ['--version'], { env: system })).stdout.trim()
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', '. .ci/node.sh; node --version'], {
      cwd: REPO_ROOT,
      env: system,
    })
    // Exactly the pinned version where the machine's is older; the machine's own where it is 22 or later.
    expect(stdout.trim().split('\n').at(-1)).toBe(major(own) >= 22 ? own : `v${pinned}`)
  }, 120_000)

  it('is, at its least (engines), what the bundles are compiled for (the commands, the Netlify function)', async () => {
    expect(NODE_TARGET).toBe(`node${major(pkg.engines.node.replace(/^>=/, ''))}`)
    expect(NODE_TARGET).toBe('node22')
    for (const file of ['build/bundle/tsup.ts', 'build/bundle/prebuilt.ts']) {
      const targets = (await readFile(join(REPO_ROOT, file), 'utf8')).match(/^\s*target: .*$/gm)
      expect(
        targets?.map((t) => t.trim()),
        file,
      ).toEqual(['target: NODE_TARGET,'])
    }
  })

  it('is what the workflow runs in', async () => {
    const workflow = parse(await readFile(join(REPO_ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
      jobs: Record<string, { container?: string; steps: { run?: string }[] }>
    }
    for (const [name, job] of Object.entries(workflow.jobs))
      expect(job.container, name).toBe(`node:${major(pinned)}-bookworm`)
    // npm ci once per job, the linters from the lockfile.
    const test = workflow.jobs.test!.steps.map((s) => s.run ?? '').join('\n')
    expect(test).not.toContain('npm ci')
    expect(test).toContain('.ci/run')
    expect((await readFile(join(REPO_ROOT, '.ci/run'), 'utf8')).match(/^npm ci\b/gm)).toHaveLength(1)
    expect(JSON.stringify(pkg)).not.toMatch(/npx -y/)
  })
})
