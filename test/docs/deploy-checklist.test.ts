/**
 * docs/deploying.md's checklist from nothing to a live site, run as far as a
 * machine without Netlify's API allows: the commands that make the secrets
 * print values the settings schema accepts, the build command netlify.toml
 * gives a Git-connected build deepens a shallow clone first, and a deploy's
 * check (REQUIRE_HISTORY=on) of a shallow clone is refused before that and
 * passes after it.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify, stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSettings } from '../../contract/settings.ts'
import { outsideVitest } from '../helpers/ci-step.ts'
import { REPO_ROOT } from '../helpers/project.ts'

const exec = promisify(execFile)
const RUN = join(REPO_ROOT, 'build/run.mjs')

async function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return exec(command, args, { cwd, env: { ...outsideVitest(), NO_COLOR: '1', ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, output: stripVTControlCharacters(stdout + stderr) }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      output: stripVTControlCharacters(e.stdout + e.stderr),
    }),
  )
}

let checklist: string
let clone: string
beforeAll(async () => {
  const page = await readFile(join(REPO_ROOT, 'docs/deploying.md'), 'utf8')
  const start = page.indexOf('## From nothing to a live site on Netlify')
  checklist = page.slice(start, page.indexOf('\n## ', start + 1))
  clone = await mkdtemp(join(tmpdir(), 'content-api-shallow-'))
  // A Git-connected build's clone: the latest commit only.
  await exec('git', ['clone', '-q', '--depth', '1', pathToFileURL(REPO_ROOT).href, clone])
}, 60_000)
afterAll(() => (clone ? rm(clone, { recursive: true, force: true }) : undefined))

describe("docs/deploying.md's checklist", () => {
  it('makes the secrets with commands whose output the settings accept', async () => {
    const commands = [...checklist.matchAll(/env:set (\w+) "\$\(npm run -s keys -- ([^)]+)\)"/g)]
    expect(commands.map((m) => m[1])).toEqual(['OAUTH_SIGNING_KEY', 'WEBHOOK_SECRETS_KEY'])
    for (const [, name, args] of commands) {
      const made = await run(process.execPath, [RUN, 'keys', ...args!.split(' ')], REPO_ROOT)
      expect(made.code, made.output).toBe(0)
      const value = made.stdout.trim()
      expect(value.split('\n')).toHaveLength(1)
      expect(() => readSettings({ [name!]: value, PUBLIC_URL: 'https://api.example.com' }, 'start'), name).not.toThrow()
    }
  }, 60_000)

  it('names only npm scripts package.json has', async () => {
    const { scripts } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    const named = [...checklist.matchAll(/npm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]!)
    expect(named.length).toBeGreaterThan(0)
    for (const script of named) expect(Object.keys(scripts), script).toContain(script)
  })

  it('gives a Git-connected build a command that deepens a shallow clone before it builds', async () => {
    const command = /command = "([^"]+)"/.exec(await readFile(join(REPO_ROOT, 'netlify.toml'), 'utf8'))![1]!
    expect(command.split(' && ')[0]).toBe('sh build/deploy/unshallow.sh')
    expect(checklist).toContain('build/deploy/unshallow.sh')

    const check = () =>
      run(process.execPath, [RUN, 'cli', 'check', '--root', clone], REPO_ROOT, { REQUIRE_HISTORY: 'on' })
    const refused = await check()
    expect(refused.code, refused.output).toBe(1)
    expect(refused.output).toContain('REQUIRE_HISTORY is on')

    const deepened = await run('sh', [join(REPO_ROOT, 'build/deploy/unshallow.sh')], clone)
    expect(deepened.code, deepened.output).toBe(0)
    expect(deepened.output).toContain('deepened the shallow clone')
    expect((await run('git', ['rev-parse', '--is-shallow-repository'], clone)).stdout.trim()).toBe('false')

    const passed = await check()
    expect(passed.code, passed.output).toBe(0)
    // A full clone is left as it is.
    expect((await run('sh', [join(REPO_ROOT, 'build/deploy/unshallow.sh')], clone)).output).toBe('')
  }, 180_000)
})
