/**
 * A build that is meant to have content/'s history (REQUIRE_HISTORY=on, as in
 * CI and on Netlify) fails instead of warning; a checkout that belongs to
 * another user (CI's container runs as root over the runner's checkout) is
 * trusted by the workflow's own step; and the change feed never shows the
 * build's path. Real `npm run build`/`check` processes over real git.
 */
import { execFile } from 'node:child_process'
import { chown, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANGES_FILE } from '../../../contract/changes.ts'
import { commandArgs } from '../../helpers/commands.ts'
import { commitAll, git, initAndCommit } from '../../helpers/git.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'

const run = promisify(execFile)
const T1 = 1_767_225_600

/** `npm run <command> -- --root <root>` with git's global config in `home` only. */
async function cli(command: 'build' | 'check', root: string, home: string, env: Record<string, string> = {}) {
  return run(process.execPath, commandArgs('cli', command, '--root', root), {
    cwd: REPO_ROOT,
    env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', REQUIRE_HISTORY: 'off', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  )
}

let home: string
const projects: TempProject[] = []
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'content-api-home-'))
})
afterAll(async () => {
  for (const p of projects) await p.remove()
  await rm(home, { recursive: true, force: true })
})

async function project(committed: boolean): Promise<TempProject> {
  const p = await createProject({ 'content/blog-posts/one.md': validPost('One') })
  projects.push(p)
  if (committed) await initAndCommit(p.root, T1)
  return p
}

describe('REQUIRE_HISTORY=on', () => {
  it('fails build and check without git history, with one line naming the setting, and writes no dist/', async () => {
    const p = await project(false)
    for (const command of ['build', 'check'] as const) {
      const result = await cli(command, p.root, home, { REQUIRE_HISTORY: 'on' })
      expect(result.code, command).toBe(1)
      const lines = result.stderr.split('\n').filter(Boolean)
      expect(lines, command).toHaveLength(1)
      expect(lines[0]).toMatch(/^✗ REQUIRE_HISTORY is on, but content\/ has no git history \(not a git repository/)
    }
    await expect(stat(p.dist)).rejects.toThrow()
    // Off (the default), the same build warns and succeeds.
    const warned = await cli('build', p.root, home)
    expect(warned.code).toBe(0)
    expect(warned.stderr).toMatch(/^! content\/ has no git history/m)
  }, 60_000)

  it('is on for the builds of a deploy: the workflow and netlify.toml set it', async () => {
    const workflow = await readFile(join(REPO_ROOT, '.github/workflows/ci.yml'), 'utf8')
    expect(workflow).toMatch(/REQUIRE_HISTORY: "on"/)
    const toml = await readFile(join(REPO_ROOT, 'netlify.toml'), 'utf8')
    const environment = toml.slice(toml.indexOf('[build.environment]'), toml.indexOf('[functions]'))
    expect(environment).toMatch(/^\s*REQUIRE_HISTORY = "on"$/m)
  })

  it('fails build and check of a shallow clone, with one line naming the setting and the fix', async () => {
    const p = await project(true)
    await p.write('content/blog-posts/two.md', validPost('Two'))
    await commitAll(p.root, 'two', T1 + 60)
    const clone = await createProject()
    projects.push(clone)
    await rm(clone.root, { recursive: true, force: true })
    // What actions/checkout does without fetch-depth: 0 (file:// so that git honours --depth locally).
    await git(tmpdir(), ['clone', '-q', '--depth', '1', `file://${p.root}`, clone.root])
    expect((await git(clone.root, ['rev-parse', '--is-shallow-repository'])).trim()).toBe('true')
    for (const command of ['build', 'check'] as const) {
      const result = await cli(command, clone.root, home, { REQUIRE_HISTORY: 'on' })
      expect(result.code, command).toBe(1)
      const lines = result.stderr.split('\n').filter(Boolean)
      expect(lines, command).toHaveLength(1)
      expect(lines[0]).toMatch(
        /^✗ REQUIRE_HISTORY is on, but the git clone is shallow\b.*fetch-depth: 0.*REQUIRE_HISTORY=off/,
      )
    }
    await expect(stat(clone.dist)).rejects.toThrow()
  }, 60_000)

  it('builds a committed project', async () => {
    const p = await project(true)
    const result = await cli('build', p.root, home, { REQUIRE_HISTORY: 'on' })
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(await readFile(join(p.dist, CHANGES_FILE), 'utf8')).meta.history).toBe('git')
  }, 60_000)
})

// CI's containers run as root over a checkout the runner's user owns; here root chowns a repository away.
describe.skipIf(process.getuid?.() !== 0)('a checkout owned by another user (CI containers)', () => {
  let p: TempProject
  beforeAll(async () => {
    p = await project(true)
    await chownTree(p.root, 65_534)
  })

  it("is refused by git: the build's log says how to trust it, the public feed names no path", async () => {
    const result = await cli('build', p.root, home)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/dubious ownership.*git config --global --add safe\.directory/)
    const feed = await readFile(join(p.dist, CHANGES_FILE), 'utf8')
    expect(JSON.parse(feed).meta).toMatchObject({ history: 'none', warning: expect.stringContaining('git history') })
    expect(feed).not.toContain(p.root)
    expect(feed).not.toContain(tmpdir())
    expect((await cli('build', p.root, home, { REQUIRE_HISTORY: 'on' })).code).toBe(1)
  }, 60_000)

  it("is trusted after the workflow's own step, and then builds with its history", async () => {
    const workflow = parse(await readFile(join(REPO_ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
      jobs: Record<string, { steps: { name?: string; run?: string }[] }>
    }
    const building = Object.entries(workflow.jobs).filter(([, { steps }]) =>
      steps.some((s) => /npm ci|\.ci\/run/.test(s.run ?? '')),
    )
    // Every job that installs and builds (the scheduled release check only asks the live site).
    expect(building.map(([job]) => job)).toEqual(['test', 'deploy'])
    for (const [job, { steps }] of building) {
      const trust = steps.find((s) => s.name === 'Trust the checkout')
      expect(trust?.run, job).toBeDefined()
      // Before the steps that install and build.
      expect(steps.indexOf(trust!), job).toBeLessThan(steps.findIndex((s) => /npm ci|\.ci\/run/.test(s.run ?? '')))
      const jobHome = await mkdtemp(join(tmpdir(), 'content-api-home-'))
      try {
        await run('sh', ['-c', trust!.run!], { env: { ...process.env, HOME: jobHome, GITHUB_WORKSPACE: p.root } })
        const result = await cli('build', p.root, jobHome, { REQUIRE_HISTORY: 'on' })
        expect(result.code, `${job}: ${result.stderr}`).toBe(0)
        expect(JSON.parse(await readFile(join(p.dist, CHANGES_FILE), 'utf8')).meta.history).toBe('git')
      } finally {
        await rm(jobHome, { recursive: true, force: true })
      }
    }
  }, 120_000)
})

async function chownTree(root: string, uid: number): Promise<void> {
  await run('chown', ['-R', `${uid}:${uid}`, root])
  await chown(root, uid, uid)
}
