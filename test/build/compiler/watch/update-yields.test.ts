/**
 * The watch mode reads edited files synchronously (a stat and a read on the
 * dev server's thread take microseconds; through the thread pool they queued
 * behind the full pass's scan). A change of many files at once (a branch
 * switched) must still let the server's other events in between files, or it
 * answers nothing until every file is compiled.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Compiler } from '../../../../build/compiler/compiler.ts'
import { classify } from '../../../../build/core/sources.ts'
import { copyOfFixtureContent, type TempProject } from '../../../helpers/project.ts'

let project: TempProject
let compiler: Compiler

beforeAll(async () => {
  project = await copyOfFixtureContent()
  compiler = await Compiler.open({ root: project.root, offThread: false })
}, 60_000)
afterAll(() => project?.remove())

/** Append a line to each post's body; the paths as the watcher reports them. */
async function touch(names: string[], line: string) {
  const paths = names.map((name) => join(project.root, 'content', 'blog-posts', name))
  for (const path of paths) await writeFile(path, `${await readFile(path, 'utf8')}\n${line}\n`)
  return paths.map((path) => classify(project.root, path)!)
}

describe('an update of several files', () => {
  it('lets other events run between its files, and compiles every one', async () => {
    const names = ['data-contracts-in-ci.md', 'bigquery-support-ga.md', 'cost-of-a-broken-dashboard.md']
    const paths = await touch(names, 'Switched branch.')
    let between = false
    const updating = compiler.update(paths)
    setImmediate(() => {
      between = true
    })
    const update = await updating
    expect(between).toBe(true)
    expect(update?.files.sort()).toEqual(names.map((name) => `content/blog-posts/${name}`).sort())
    const state = compiler.current()
    expect(state.ok).toBe(true)
    if (!state.ok) return
    for (const slug of ['data-contracts-in-ci', 'bigquery-support-ga', 'cost-of-a-broken-dashboard'])
      expect(JSON.stringify(state.content.collections['blog-posts']!.find((r) => r.slug === slug))).toContain(
        'Switched branch.',
      )
  })
})
