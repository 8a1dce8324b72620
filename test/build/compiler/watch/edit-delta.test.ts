/**
 * An edit costs what it changes: `emit('edit')` reports exactly the files the
 * edit changed among those it makes at once (the items, lists, calendars,
 * images and social cards of the edited collection), checked against two
 * full builds, one before and one after the edit; its snapshot holds those
 * new bytes and every other file as it was; and the build id follows the files (the one a full build of the
 * same files gives, once the full pass is done).
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Compiler } from '../../../../build/compiler/compiler.ts'
import type { BuildOutput } from '../../../../build/compiler/emit-schedule.ts'
import { classify } from '../../../../build/core/sources.ts'
import { copyOfFixtureContent, validPost, type TempProject } from '../../../helpers/project.ts'

/** The files `emit('edit')` makes: items, pre-rendered lists, calendars, images and social cards. */
const PER_COLLECTION =
  /^(api\/(blog-posts|case-studies|webinars|events)\/[^/]+\.json|api\/[^/]+\/_list\/.+|calendar\/.+|media\/.+)$/

const etags = (output: BuildOutput) => new Map([...output.files].map(([path, file]) => [path, file.etag]))

/** Paths whose file differs between two builds, or is in one only. */
function differing(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()])
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort()
}

let project: TempProject
let compiler: Compiler
let current: Map<string, string>

/**
 * A full build's files, from a fresh compiler as `npm run build` opens one: every file read and
 * compiled again, with the build caches (rendered bodies and processed images, content-addressed;
 * correctness never depends on them: render-cache.test.ts, the media tests), which it keeps for
 * the next. Only the watch compiler under test runs without them.
 */
async function fullBuild(): Promise<Map<string, string>> {
  const fresh = await Compiler.open({ root: project.root, offThread: false })
  await fresh.saveCache()
  return etags((await fresh.emit('full'))!)
}

/** Apply the edit in the watch mode's compiler; check it against full builds before and after. */
async function expectEditDelta(files: string[]): Promise<string[]> {
  const update = await compiler.update(files.map((f) => classify(project.root, join(project.root, f))!))
  expect(update?.state.ok).toBe(true)
  const output = (await compiler.emit('edit'))!
  const after = await fullBuild()
  const expected = differing(current, after).filter((p) => PER_COLLECTION.test(p))
  expect(expected.length).toBeGreaterThan(0)
  expect(output.changed).toEqual(expected)
  const served = etags(output)
  for (const path of new Set([...served.keys(), ...current.keys()]))
    expect(served.get(path), path).toBe(expected.includes(path) ? after.get(path) : current.get(path))
  // The full pass brings the rest; then everything, the build id included, is the full build's.
  const full = (await compiler.emit('full'))!
  expect(etags(full)).toEqual(after)
  current = after
  return output.changed as string[]
}

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await project.write(
    'content/blog-posts/pointing-post.md',
    validPost('A post pointing to an event', 'related:\n  - events/data-council-austin-2026\n'),
  )
  compiler = await Compiler.open({ root: project.root, cache: false, offThread: false })
  current = etags((await compiler.emit('full'))!)
  expect(current).toEqual(await fullBuild())
}, 60_000)
afterAll(() => project?.remove())

describe('an edit emits exactly what it changed', () => {
  it('a body edit: the item alone (it is in no list past its place, and its summary did not change)', async () => {
    const path = 'content/blog-posts/bigquery-support-ga.md'
    await writeFile(join(project.root, path), `${await readFile(join(project.root, path), 'utf8')}\nOne more line.\n`)
    expect(await expectEditDelta([path])).toEqual(['api/blog-posts/bigquery-support-ga.json'])
  })

  it('a title edit: the item and the lists it is in', async () => {
    const path = 'content/blog-posts/bigquery-support-ga.md'
    const text = await readFile(join(project.root, path), 'utf8')
    await writeFile(join(project.root, path), text.replace(/^title: .*$/m, 'title: BigQuery, edited'))
    const changed = await expectEditDelta([path])
    expect(changed).toContain('api/blog-posts/bigquery-support-ga.json')
    expect(changed).toContain('api/blog-posts/_list/limit-100.json')
  })

  it('an event another item points to: its files, its calendars and the item pointing to it', async () => {
    const path = 'content/events/data-council-austin-2026.md'
    const text = await readFile(join(project.root, path), 'utf8')
    await writeFile(join(project.root, path), text.replace(/^title: .*$/m, 'title: Data Council, renamed'))
    const changed = await expectEditDelta([path])
    expect(changed).toContain('api/blog-posts/pointing-post.json')
    expect(changed).toContain('calendar/events/data-council-austin-2026.ics')
    expect(changed).toContain('calendar/events.ics')
  })

  it('an added and a removed file', async () => {
    await project.write('content/webinars/brand-new.md', validPost('A new webinar'))
    await rm(join(project.root, 'content/blog-posts/pointing-post.md'))
    const update = await compiler.update(
      ['content/webinars/brand-new.md', 'content/blog-posts/pointing-post.md'].map(
        (f) => classify(project.root, join(project.root, f))!,
      ),
    )
    // A webinar needs its dates: the new file has errors, and nothing is emitted.
    expect(update?.state.ok).toBe(false)
    await rm(join(project.root, 'content/webinars/brand-new.md'))
    const changed = await expectEditDelta(['content/webinars/brand-new.md'])
    expect(changed).toContain('api/blog-posts/pointing-post.json')
    // The removed post's social card goes with it.
    expect(changed.some((p) => /^media\/blog-posts\/card-pointing-post-\w+\.png$/.test(p))).toBe(true)
    expect(changed).not.toContain('api/webinars/brand-new.json')
  })
})
