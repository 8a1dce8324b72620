/** Git in test projects: commits with fixed dates and identity, so histories (and builds) are reproducible. */
import { execFile } from 'node:child_process'
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** Run git in `cwd`; commits are dated `time` (seconds since the epoch) when given. */
export async function git(cwd: string, args: string[], time?: number): Promise<string> {
  const date = time === undefined ? {} : { GIT_AUTHOR_DATE: `@${time} +0000`, GIT_COMMITTER_DATE: `@${time} +0000` }
  const { stdout } = await run(
    'git',
    [
      '-c',
      'user.name=Content Tests',
      '-c',
      'user.email=tests@example.invalid',
      '-c',
      'commit.gpgsign=false',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    {
      cwd,
      env: { ...process.env, ...date, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    },
  )
  return stdout
}

/**
 * `git init`, then commit everything in `cwd` at `time` but the build caches
 * (ignored as a real project's .gitignore does, so a copy of the fixture
 * content with warm caches has the same commits as one without).
 */
export async function initAndCommit(cwd: string, time: number): Promise<void> {
  await git(cwd, ['init', '-q'])
  await appendFile(join(cwd, '.git', 'info', 'exclude'), '/.cache/\n')
  await commitAll(cwd, 'initial content', time)
}

export async function commitAll(cwd: string, message: string, time: number): Promise<void> {
  await git(cwd, ['add', '-A'])
  await git(cwd, ['commit', '-q', '--allow-empty', '-m', message], time)
}
