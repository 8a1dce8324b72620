/**
 * gitState reads what git's answers about content/'s history depend on from
 * the repository's files, so the dev server's full pass runs git only when
 * that changed (git-state.ts says why). What must hold: whenever git's answer
 * (historyKey) changes, so does the state; while nothing happens, the state
 * stays. Real repositories and real git, through commits, a checkout, packed
 * refs, a worktree and a shallow clone; then a compiler's full emits, with a
 * `git` on PATH that logs each run before running the real one.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Compiler } from '../../../build/compiler/compiler.ts'
import { itemPath } from '../../../build/core/sources.ts'
import { gitState } from '../../../build/history/git-state.ts'
import { historyKey } from '../../../build/history/history-key.ts'
import { commitAll, git, initAndCommit } from '../../helpers/git.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'

const T1 = 1_767_225_600

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'content-api-git-state-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Steps on a repository at `root`, each checked against the one before: git's answer changed, so did the state. */
function observer(root: string) {
  let last: { state: string | undefined; key: string } | undefined
  return async (what: string): Promise<{ state: string | undefined; key: string; changed: boolean }> => {
    const state = gitState(root)
    const key = await historyKey(root)
    expect(gitState(root), `${what}: read twice`).toBe(state)
    const changed = last !== undefined && last.state !== state
    if (last && last.key !== key)
      expect(changed, `${what}: git's answer changed (${key}), the state did not`).toBe(true)
    last = { state, key }
    return { state, key, changed }
  }
}

async function post(root: string, name: string, title: string): Promise<void> {
  await mkdir(join(root, 'content', 'blog-posts'), { recursive: true })
  await writeFile(join(root, 'content', 'blog-posts', `${name}.md`), validPost(title))
}

describe('gitState', () => {
  it('follows commits, a checkout, a detached HEAD and packed refs, and stays put in between', async () => {
    const root = join(dir, 'repo')
    await post(root, 'one', 'One')
    const step = observer(root)
    expect((await step('no repository')).state).toBe('none')
    expect((await step('still none')).changed).toBe(false)

    await git(root, ['init', '-q'])
    const empty = await step('git init, no commit')
    expect(empty.state).toBeDefined()
    expect(empty.state).not.toBe('none')

    await commitAll(root, 'first', T1)
    expect((await step('first commit')).key).toMatch(/^git:/)
    expect((await step('nothing happened')).changed).toBe(false)

    await post(root, 'two', 'Two')
    await commitAll(root, 'second', T1 + 60)
    expect((await step('second commit')).changed).toBe(true)

    await writeFile(join(root, 'README.md'), 'outside content/\n')
    await commitAll(root, 'outside content', T1 + 120)
    await step('a commit outside content/')

    await git(root, ['pack-refs', '--all', '--prune'])
    await step('refs packed')
    expect((await step('nothing happened')).changed).toBe(false)
    await post(root, 'three', 'Three')
    await commitAll(root, 'third, over packed refs', T1 + 180)
    expect((await step('a commit over packed refs')).changed).toBe(true)

    await git(root, ['pack-refs', '--all', '--prune'])
    await step('packed again')
    await post(root, 'packed', 'Packed')
    await commitAll(root, 'a commit packed before anyone looked', T1 + 200)
    await git(root, ['pack-refs', '--all', '--prune'])
    expect((await step('a commit, then its ref packed')).changed).toBe(true)

    await git(root, ['checkout', '-q', '--detach', 'HEAD~2'])
    expect((await step('detached two commits back')).changed).toBe(true)
    await git(root, ['checkout', '-q', '-b', 'other', 'main'])
    expect((await step('a new branch at main')).changed).toBe(true)
    await post(root, 'four', 'Four')
    await commitAll(root, 'on the other branch', T1 + 240)
    expect((await step('a commit on the other branch')).changed).toBe(true)
    await git(root, ['checkout', '-q', 'main'])
    expect((await step('back on main')).changed).toBe(true)
  })

  it('reads a worktree (a .git file), a project below the repository root, and a shallow clone', async () => {
    const origin = join(dir, 'origin')
    await post(origin, 'one', 'One')
    await initAndCommit(origin, T1)
    await post(origin, 'two', 'Two')
    await commitAll(origin, 'second', T1 + 60)

    const tree = join(dir, 'tree')
    await git(origin, ['worktree', 'add', '-q', '-b', 'side', tree])
    const inTree = observer(tree)
    expect((await inTree('worktree')).state).not.toBe('none')
    await post(tree, 'three', 'Three')
    await commitAll(tree, 'in the worktree', T1 + 120)
    expect((await inTree('a commit in the worktree')).changed).toBe(true)

    const below = join(dir, 'parent', 'site')
    await post(below, 'one', 'One')
    await initAndCommit(join(dir, 'parent'), T1)
    const inBelow = observer(below)
    expect((await inBelow('a project below the root')).key).toMatch(/^git:/)
    await post(below, 'two', 'Two')
    await commitAll(join(dir, 'parent'), 'second', T1 + 60)
    expect((await inBelow('a commit seen from below')).changed).toBe(true)

    const clone = join(dir, 'clone')
    await git(dir, ['clone', '-q', '--depth', '1', `file://${origin}`, clone])
    const inClone = observer(clone)
    expect((await inClone('shallow clone')).key).toMatch(/:true$/)
    await git(clone, ['fetch', '-q', '--unshallow'])
    const deep = await inClone('unshallowed')
    expect(deep.key).toMatch(/:false$/)
    expect(deep.changed).toBe(true)
  })

  it('is undefined where the layout is not one it reads (git is asked as before)', async () => {
    const odd = join(dir, 'odd')
    await mkdir(odd, { recursive: true })
    await writeFile(join(odd, '.git'), 'not a gitdir line\n')
    expect(gitState(odd)).toBeUndefined()
  })
})

describe('the full emit asks git only when the repository changed', () => {
  let project: TempProject
  let log: string
  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/one.md': validPost('One') })
    await initAndCommit(project.root, T1)
    // A `git` first on PATH that notes each run, then runs the real one.
    const bin = join(dir, 'bin')
    log = join(dir, 'git-runs.log')
    const real = (await git(dir, ['--exec-path'])).trim()
    await mkdir(bin, { recursive: true })
    await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}/git' "$@"\n`)
    await chmod(join(bin, 'git'), 0o755)
    await writeFile(log, '')
    vi.stubEnv('PATH', `${bin}${delimiter}${process.env.PATH}`)
  })
  afterAll(async () => {
    vi.unstubAllEnvs()
    await project?.remove()
  })
  const runs = async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean)

  it('runs git on the first, not on the next with nothing committed, and again after a commit', async () => {
    const compiler = await Compiler.open({ root: project.root, offThread: false, processMedia: false })
    await compiler.emit('full')
    const first = await runs()
    expect(first.some((line) => line.includes('log'))).toBe(true)
    const id = compiler.committedHistory()

    await compiler.emit('full')
    expect(await runs()).toEqual(first)

    await project.write('content/blog-posts/two.md', validPost('Two'))
    await commitAll(project.root, 'second', T1 + 60)
    await compiler.update([itemPath('blog-posts', 'two.md')])
    await compiler.emit('full')
    expect((await runs()).length).toBeGreaterThan(first.length)
    // The new commit is in the history the emit read.
    expect(compiler.committedHistory()).not.toBe(id)
  })
})
