/**
 * `--root <dir>` on `npm run build`, `npm run check` and `npm run dev`: the
 * commands work on another project folder (its content/), writing dist/ and
 * the cache there and nothing in this repository.
 */
import { spawn } from 'node:child_process'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandArgs, runCommand as run } from '../../helpers/commands.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'

describe('--root', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/elsewhere.md': validPost('Written elsewhere') })
  })
  afterAll(() => project.remove())

  it('check validates that project', async () => {
    const result = await run('cli', ['check', '--root', project.root])
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^✓ 1 content files valid/)
    expect(result.code).toBe(0)
  })

  it('build writes its dist/ and .cache/ there', async () => {
    const result = await run('cli', ['build', '--root', project.root])
    expect(result.code).toBe(0)
    const item = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/elsewhere.json'), 'utf8')) as {
      title: string
      url: string
    }
    expect(item.title).toBe('Written elsewhere')
    expect(item.url).toBe('https://www.fixture.example/blog/elsewhere')
    expect((await stat(join(project.root, '.cache'))).isDirectory()).toBe(true)
  })

  it('dev serves that project', async () => {
    const child = spawn(process.execPath, commandArgs('dev', '--root', project.root), {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent' },
    })
    try {
      let stderr = ''
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d) => {
          stderr += d
          const match = /serves every edit at (http:\/\/\S+)/.exec(stderr)
          if (match) resolve(match[1]!)
        })
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)))
      })
      expect(stderr).toContain(`watching ${project.root}/content/`)
      const item = (await (await fetch(`${url}/api/blog-posts/elsewhere`)).json()) as { title: string }
      expect(item.title).toBe('Written elsewhere')
    } finally {
      // Removing the project while the dev server still writes its dist/ fails with ENOTEMPTY.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
    }
  })

  it('dev refuses arguments it does not know, naming the one it meant', async () => {
    const result = await run('dev', ['--rot', project.root])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('✗ unknown option --rot for npm run dev (did you mean --root?)\n')
  })
})
