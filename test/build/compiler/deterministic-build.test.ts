/**
 * `npm run build` twice gives a byte-identical dist/, feeds, calendars and
 * change feed included, on a project with a git history; and a commit of
 * content already built (same bytes, new history) is not "up to date".
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANGE_LOG_FILE } from '../../../contract/changes.ts'
import { runCommand } from '../../helpers/commands.ts'
import { hashTree } from '../../helpers/files.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { copyOfFixtureContent, validPost, type TempProject } from '../../helpers/project.ts'

/** `npm run build -- --root <root> <flags…>`, started as the npm script starts it; what it printed. */
async function build(root: string, ...flags: string[]): Promise<string> {
  const { code, stdout, stderr } = await runCommand('cli', ['build', '--root', root, ...flags])
  expect(code, stderr).toBe(0)
  return stdout
}

let project: TempProject
beforeAll(async () => {
  project = await copyOfFixtureContent()
  await initAndCommit(project.root, 1_767_225_600)
})
afterAll(() => project?.remove())

describe('npm run build', () => {
  it('writes the same bytes twice, feeds, calendars and the change feed included', async () => {
    await build(project.root, '--force', '--no-cache')
    const first = await hashTree(project.dist)
    await build(project.root, '--force')
    expect(await hashTree(project.dist)).toEqual(first)
    const paths = Object.keys(first)
    for (const expected of [
      '/feeds/all.atom',
      '/feeds/blog-posts.xml',
      '/feeds/events.json',
      '/calendar/events.ics',
      '/calendar/webinars.ics',
      '/api/_changes.json',
      `/${CHANGE_LOG_FILE}`,
    ]) {
      expect(paths).toContain(expected)
    }
    expect(paths.filter((p) => p.startsWith('/calendar/events/')).length).toBeGreaterThan(3)
  }, 120_000)

  it('builds again when a commit changes the history though not the files', async () => {
    // Dated before its commit: created at the commit (a later date would schedule it).
    await project.write('content/blog-posts/late-post.md', validPost('A late post').replace('2026-01-05', '2026-01-01'))
    expect(await build(project.root)).toMatch(/✓ built/)
    const uncommitted = await readFile(join(project.dist, CHANGE_LOG_FILE), 'utf8')
    expect(await build(project.root)).toMatch(/up to date/)
    await commitAll(project.root, 'late post', 1_767_312_000)
    expect(await build(project.root)).toMatch(/✓ built/)
    const committed = await readFile(join(project.dist, CHANGE_LOG_FILE), 'utf8')
    expect(uncommitted).toContain('[1767225600,')
    expect(committed).toContain('[1767312000,1,"created","blog-posts","late-post"')
  }, 120_000)
})
