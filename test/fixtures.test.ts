/**
 * The tests' content is their own (test/fixtures/content), never the
 * repository's content/ where authors work: an author's invalid draft must
 * not fail a test, and the fixtures themselves are valid content.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkContent } from '../build/compiler/build.ts'
import { ContentErrors } from '../build/core/errors.ts'
import { copyOfFixtureContent, createProject, REPO_ROOT, validPost } from './helpers/project.ts'

describe('test content', () => {
  it('no test reads the repository content/', async () => {
    const files = (await readdir(join(REPO_ROOT, 'test'), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && /\.(ts|mjs)$/.test(e.name))
      .map((e) => join(e.parentPath, e.name))
    expect(files.length).toBeGreaterThan(50)
    const offenders: string[] = []
    for (const file of files) {
      const text = await readFile(file, 'utf8')
      if (/join\(REPO_ROOT, ['"]content['"]/.test(text)) offenders.push(relative(REPO_ROOT, file))
    }
    expect(offenders).toEqual([])
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
