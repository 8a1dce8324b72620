/**
 * Runtime data is not build input: API keys and OAuth clients change without
 * a rebuild. In a copy of the repository (so its tracked files are left
 * alone), `npm run keys` creates a key and a client in their default files,
 * and the next `npm run build` finds dist/ up to date, byte for byte.
 */
import { execFile } from 'node:child_process'
import { appendFile, cp, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashTree } from '../../helpers/files.ts'
import { copyFixtureCaches, FIXTURE_CONTENT, REPO_ROOT } from '../../helpers/project.ts'

const run = promisify(execFile)

describe('runtime data and the build', () => {
  let copy: string
  const npmScript = (script: string, ...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join(copy, script), ...args], {
      cwd: copy,
      env: { ...process.env, KEYS_FILE: '', OAUTH_CLIENTS_FILE: '' },
    })

  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'content-api-copy-'))
    for (const entry of ['contract', 'build', 'gateway', 'package.json', 'package-lock.json', 'tsconfig.json']) {
      await cp(join(REPO_ROOT, entry), join(copy, entry), { recursive: true, filter: (src) => !src.includes('/.keys') })
    }
    await cp(FIXTURE_CONTENT, join(copy, 'content'), { recursive: true })
    // Its caches warm: what is tested is the no-change check after runtime data changed, not a cold build.
    await copyFixtureCaches(copy)
    await symlink(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'))
  })
  afterAll(() => rm(copy, { recursive: true, force: true }))

  it('creating an API key or a client leaves dist/ up to date and untouched', { timeout: 120_000 }, async () => {
    expect((await npmScript('build/cli.ts', 'build')).stdout).toMatch(/^✓ built/)
    const before = await hashTree(join(copy, 'dist'))
    const key = await npmScript(
      'gateway/auth/keys-cli.ts',
      'create',
      '--role',
      'agent.mcp',
      '--label',
      'runtime data test',
    )
    expect(key.stdout).toMatch(/tw_live_/)
    await npmScript(
      'gateway/auth/keys-cli.ts',
      'client',
      'create',
      '--id',
      'runtime-test',
      '--scopes',
      'api.read',
      '--label',
      'runtime data test',
    )
    expect((await npmScript('build/cli.ts', 'build')).stdout).toMatch(/^✓ dist\/ is up to date/)
    expect(await hashTree(join(copy, 'dist'))).toEqual(before)
  })

  it('a change to the build code is build input (the check above is not vacuous)', async () => {
    await appendFile(join(copy, 'build/emit/api.ts'), '\n// a code change\n')
    expect((await npmScript('build/cli.ts', 'build')).stdout).toMatch(/^✓ built/)
  })
})
