/**
 * The watch mode's file events (build/compiler/file-events.ts): a saved,
 * added or removed item, site.yaml, the files of a collection folder that
 * appears after the watch started, and the image folders it is asked to
 * follow (one made later too).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { type FileEvents, watchFiles } from '../../../build/compiler/file-events.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'

let project: TempProject
let events: FileEvents
const seen: string[] = []

/** Wait until `file` has been reported (at most 5 s). */
async function reported(file: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (!seen.includes(file)) {
    if (Date.now() > deadline) throw new Error(`no event for ${file}; saw ${seen.join(', ')}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

beforeAll(async () => {
  project = await createProject({ 'content/blog-posts/first.md': validPost('First') })
  events = await watchFiles(join(project.root, 'content'), (file) => seen.push(file))
})
afterAll(async () => {
  await events?.close()
  await project?.remove()
})

describe('file events', () => {
  it('reports a saved, an added and a removed item, and site.yaml', async () => {
    const content = join(project.root, 'content')
    await writeFile(join(content, 'blog-posts/first.md'), validPost('First, saved again'))
    await reported(join(content, 'blog-posts/first.md'))
    await writeFile(join(content, 'blog-posts/second.md'), validPost('Second'))
    await reported(join(content, 'blog-posts/second.md'))
    seen.length = 0
    await rm(join(content, 'blog-posts/second.md'))
    await reported(join(content, 'blog-posts/second.md'))
    await writeFile(join(content, 'site.yaml'), 'name: Fixture Co\n')
    await reported(join(content, 'site.yaml'))
  })

  it('follows a collection folder made after the watch started, with the files already in it', async () => {
    const webinars = join(project.root, 'content', 'webinars')
    await mkdir(webinars)
    await writeFile(join(webinars, 'early.md'), validPost('Early'))
    await reported(join(webinars, 'early.md'))
    await writeFile(join(webinars, 'later.md'), validPost('Later'))
    await reported(join(webinars, 'later.md'))
  })

  it('follows the image folders it is asked to, one made after it was asked too', async () => {
    const content = join(project.root, 'content')
    const covers = join(content, 'blog-posts', 'first')
    const people = join(content, 'people')
    await mkdir(covers)
    events.follow([covers, people])
    await writeFile(join(covers, 'cover.jpg'), 'not yet an image')
    await reported(join(covers, 'cover.jpg'))
    // content/people/ did not exist when asked for: followed once content/'s own event shows it.
    await mkdir(people)
    await writeFile(join(people, 'ada.jpg'), 'a portrait')
    await reported(join(people, 'ada.jpg'))
    await writeFile(join(people, 'grace.jpg'), 'another portrait')
    await reported(join(people, 'grace.jpg'))
  })
})
