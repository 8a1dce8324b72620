/**
 * One person, one slug: a name given a `slug:` in one file and none in
 * another would be two people to `author=`, so the mention without one is an
 * author error naming the other file; mentions that all say their slug (the
 * same one, or different ones for two people of one name) build.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { createProject, type TempProject } from '../../helpers/project.ts'

const post = (title: string, people: string) =>
  `---\ntitle: ${title}\npublished_at: 2026-01-05\nauthors:\n${people}---\nFirst paragraph.\n`

const webinar = (people: string) =>
  `---\ntitle: A webinar\npublished_at: 2026-01-05\nstarts_at: 2026-02-05T17:00:00+01:00\nduration_minutes: 45\ntimezone: Europe/Berlin\nspeakers:\n${people}---\nFirst paragraph.\n`

let project: TempProject | undefined
afterEach(() => project?.remove())

async function errorsOf(files: Record<string, string>): Promise<string[]> {
  project = await createProject(files)
  const error = await checkContent(project.root).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ContentErrors)
  return (error as ContentErrors).errors.map((e) => `${e.code} ${e.message}`)
}

describe('people’s slugs across files', () => {
  it('a name with a slug in one file and none in others: an error at each other mention, naming where the slug is', async () => {
    const errors = await errorsOf({
      'content/blog-posts/b-first.md': post('First', '  - name: Grace Hopper\n    slug: grace\n'),
      'content/blog-posts/c-second.md': post('Second', '  - name: Ada Lovelace\n  - name: Grace Hopper\n'),
      'content/webinars/talk.md': webinar('  - name: grace hopper\n    title: Rear Admiral\n'),
    })
    const advice =
      'has no slug here (so grace-hopper), but content/blog-posts/b-first.md:6:11 gives this name the slug grace: one person has one slug. Write slug: grace here if it is the same person, slug: grace-hopper if it is someone else, or remove the slug there'
    expect(errors).toEqual([
      `PERSON_SLUG content/blog-posts/c-second.md:6:11 authors[1].name: Grace Hopper ${advice}`,
      `PERSON_SLUG content/webinars/talk.md:8:11 speakers[0].name: grace hopper ${advice}`,
    ])
  })

  it('builds when every mention of a name says its slug, or only the slug made from the name is written', async () => {
    project = await createProject({
      'content/blog-posts/one.md': post('One', '  - name: Grace Hopper\n    slug: grace\n'),
      'content/blog-posts/two.md': post('Two', '  - name: Grace Hopper\n    slug: grace\n  - name: Ada Lovelace\n'),
      'content/blog-posts/three.md': post('Three', '  - name: Ada Lovelace\n    slug: ada-lovelace\n'),
      // Two people of one name, told apart by their slugs.
      'content/webinars/talk.md': webinar('  - name: Grace Hopper\n    slug: grace-hopper-navy\n'),
    })
    const report = await buildSite({ root: project.root })
    expect(report.upToDate).toBe(false)
    const byGrace = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/two.json'), 'utf8')) as {
      authors: { name: string; slug: string }[]
    }
    expect(byGrace.authors.map((a) => a.slug)).toEqual(['grace', 'ada-lovelace'])
  })
})
