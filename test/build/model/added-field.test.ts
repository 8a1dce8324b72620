/**
 * A field added to a collection in content/site.yaml, and nothing else: no
 * code is changed. A copy of the fixture content whose blog posts gain
 * `subtitle` (and a post that uses it) is built by the command `npm run
 * build` runs, and the field is in the post's record, in the OpenAPI
 * document's record schemas of blog posts (no other collection's) and in
 * the editor's configuration, with the widget, bounds and hint its
 * declaration gives. The same content with the model as it was refuses the
 * post, naming the field.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { AdminField } from '../../../contract/admin-config.ts'
import { copyOfFixtureContent, REPO_ROOT, type TempProject } from '../../helpers/project.ts'

const run = promisify(execFile)
const SUBTITLE = "      subtitle: { type: string, min: 1, max: 160, description: 'A line under the title.' }\n"
const POST = `---
title: A post with a subtitle
subtitle: Said in one more line
published_at: 2026-01-05
authors:
  - name: Zoë Tester
---

The body.
`

type Json = Record<string, unknown>

describe('a field added to blog posts in site.yaml', () => {
  let project: TempProject
  const build = () =>
    run(process.execPath, ['build/run.mjs', 'cli', 'build', '--root', project.root], { cwd: REPO_ROOT })
  const read = async (path: string) => JSON.parse(await readFile(join(project.dist, path), 'utf8')) as Json

  beforeAll(async () => {
    project = await copyOfFixtureContent()
    await project.write('content/blog-posts/with-a-subtitle.md', POST)
  })
  afterAll(() => project?.remove())

  it('is in the record, the OpenAPI document and the editor, with no other edit', async () => {
    // The model as it is refuses the post: the field is not one of a blog post's.
    await expect(build()).rejects.toMatchObject({
      stderr: expect.stringContaining('subtitle: is not a field of a blog post'),
    })
    const site = await readFile(join(project.root, 'content/site.yaml'), 'utf8')
    const blog = '  blog-posts:\n'
    const fields = site.indexOf('    fields:\n', site.indexOf(blog)) + '    fields:\n'.length
    await project.write('content/site.yaml', site.slice(0, fields) + SUBTITLE + site.slice(fields))
    expect((await build()).stdout).toMatch(/✓ built \d+ files/)

    const record = await read('api/blog-posts/with-a-subtitle.json')
    expect(record.subtitle).toBe('Said in one more line')
    // The collection's own fields in the model's order: the new one before authors.
    const keys = Object.keys(record)
    expect(keys.indexOf('subtitle')).toBe(keys.indexOf('authors') - 1)
    const other = await read('api/blog-posts/_list/limit-100.json')
    const withoutOne = (other.data as Json[]).find((r) => r.slug !== 'with-a-subtitle')!
    expect(withoutOne.subtitle).toBeNull()

    const doc = await read('openapi.json')
    const schemas = (doc.components as Json).schemas as Record<string, { properties: Json; required: string[] }>
    for (const name of ['BlogPost', 'BlogPostSummary'])
      expect(schemas[name]!.properties.subtitle).toEqual({
        type: ['string', 'null'],
        minLength: 1,
        maxLength: 160,
        description: 'A line under the title.',
      })
    expect(schemas.Webinar!.properties).not.toHaveProperty('subtitle')
    const fieldsParameter = ((doc.paths as Json)['/api/blog-posts'] as { get: { parameters: Json[] } }).get.parameters
    const selectable = fieldsParameter.find((p) => p.name === 'fields') as { schema: { items: { enum: string[] } } }
    expect(selectable.schema.items.enum).toContain('subtitle')

    const config = parse(await readFile(join(project.dist, 'admin/config.yml'), 'utf8')) as {
      collections: { name: string; fields: AdminField[] }[]
    }
    const editor = config.collections.find((c) => c.name === 'blog-posts')!.fields
    expect(editor.find((f) => f.name === 'subtitle')).toEqual({
      name: 'subtitle',
      label: 'Subtitle',
      required: false,
      hint: 'A line under the title.',
      widget: 'string',
      max_length: 160,
    })
    // In the schema's order: after the common fields, before the collection's own.
    expect(editor.map((f) => f.name).indexOf('subtitle')).toBe(editor.map((f) => f.name).indexOf('authors') - 1)
    const webinars = config.collections.find((c) => c.name === 'webinars')!.fields
    expect(webinars.some((f) => f.name === 'subtitle')).toBe(false)
  }, 240_000)
})
