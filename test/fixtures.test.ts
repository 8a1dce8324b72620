/**
 * The tests' content is their own (test/fixtures/content), never the
 * repository's content/ where authors work: an author's invalid draft must
 * not fail a test, and the fixtures themselves are valid content.
 */
import { readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkContent } from '../build/compiler/build.ts'
import { ContentErrors } from '../build/core/errors.ts'
import { filesTheTestsLoad, pathsIntoContent } from './helpers/content-readers.ts'
import { copyOfFixtureContent, createProject, REPO_ROOT, validPost } from './helpers/project.ts'

describe('test content', () => {
  it('no code the tests run reads the repository content/: the test files, and every module and script they reach', async () => {
    const files = await filesTheTestsLoad()
    const reached = new Set(files.map((f) => relative(REPO_ROOT, f)))
    // Through imports and through the scripts the tests run: the smoke bench, the commands, the conformance script.
    for (const file of ['bench/corpus/realistic.ts', 'bench/suites/build.ts', 'build/cli.ts', 'gateway/dev.ts'])
      expect(reached, file).toContain(file)
    expect(reached).toContain('test/gateway/mcp/conformance/run.sh')
    const found: string[] = []
    for (const file of files) found.push(...pathsIntoContent(file, await readFile(file, 'utf8')))
    // Two paths into content/, both on purpose: what the bench proper measures (its smoke run, which the
    // tests run, copies test/fixtures/content instead: test/own-content.test.ts runs it beside an invalid
    // draft), and the examples the README and docs show, which must work on the repository's own content
    // (test/docs/examples.test.ts; an invalid draft there fails `npm run check` first in CI anyway).
    expect(found).toHaveLength(2)
    expect(found[0]).toMatch(/^bench\/lib\/paths\.ts:\d+: .*: repository: join\(REPO_ROOT, .content.\),$/)
    expect(found[1]).toMatch(/^test\/docs\/examples\.test\.ts:\d+: the repository root joined with/)
  })

  it('that scan finds a path into content/ written any of the ways paths are written here', async () => {
    const lines = JSON.parse(await readFile(join(REPO_ROOT, 'test/fixtures/content-paths.json'), 'utf8')) as Record<
      'reads' | 'readsShell' | 'own' | 'ownShell',
      string[]
    >
    const found = (line: string, file: string) => pathsIntoContent(join(REPO_ROOT, file), line)
    for (const line of lines.reads) expect(found(line, 'test/x.test.ts'), line).toHaveLength(1)
    for (const line of lines.readsShell) expect(found(line, 'test/x.sh'), line).toHaveLength(1)
    for (const line of lines.own) expect(found(line, 'test/x.test.ts'), line).toEqual([])
    for (const line of lines.ownShell) expect(found(line, 'test/x.sh'), line).toEqual([])
  })

  it('is valid content of every collection', async () => {
    const project = await copyOfFixtureContent()
    try {
      expect((await checkContent(project.root)).files).toBeGreaterThan(30)
    } finally {
      await project.remove()
    }
  })

  it("names the files of a failing build in the error's own message (what a failing test shows)", async () => {
    const project = await createProject({
      'content/blog-posts/good.md': validPost(),
      'content/blog-posts/work-in-progress.md': '---\ntitle: WIP\ndraft: true\n---\nNot done.\n',
    })
    try {
      const error = await checkContent(project.root).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ContentErrors)
      expect((error as Error).message).toBe('2 content errors in content/blog-posts/work-in-progress.md')
    } finally {
      await project.remove()
    }
  })
})
