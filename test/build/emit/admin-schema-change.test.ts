/**
 * A property added to a collection's JSON Schema is a field of the editor
 * with no other edit, through a real build: a temporary copy of the project
 * (its code, and the fixture content with a post that uses the property)
 * whose blog-post schema gains `subtitle` is built with the command `npm run
 * build` runs (build/run.mjs, bundled from that copy's sources), and its
 * dist/admin/config.yml has the field, with the widget, bounds and hint the
 * schema gives it. The same build accepts the post, which the schema as it
 * is refuses.
 */
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { AdminField } from '../../../contract/admin-config.ts'
import { FIXTURE_CONTENT, REPO_ROOT } from '../../helpers/project.ts'

const run = promisify(execFile)
const SCHEMA = 'contract/schemas/blog-posts.ts'
const SUBTITLE = `subtitle: { type: 'string', minLength: 1, maxLength: 160, description: 'A line under the title.' },`
const POST = `---
title: A post with a subtitle
subtitle: Said in one more line
published_at: 2026-01-05
authors:
  - name: Zoë Tester
---

The body.
`

describe('a property added to a schema', () => {
  let copy: string
  const build = () => run(process.execPath, ['build/run.mjs', 'cli', 'build', '--root', copy], { cwd: copy })

  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'content-api-copy-'))
    // Not the ignored runtime data (gateway/.data, .keys).
    for (const path of ['build', 'contract', 'gateway', 'package.json', 'package-lock.json', 'tsconfig.json'])
      await cp(join(REPO_ROOT, path), join(copy, path), {
        recursive: true,
        filter: (from) => !basename(from).startsWith('.'),
      })
    await symlink(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir')
    await cp(FIXTURE_CONTENT, join(copy, 'content'), { recursive: true })
    await writeFile(join(copy, 'content/blog-posts/with-a-subtitle.md'), POST)
  })
  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true })
  })

  it('is a field of the editor built from the changed schema, with no other edit', async () => {
    // The schema as it is refuses the post: the property is unknown.
    await expect(build()).rejects.toMatchObject({ stderr: expect.stringContaining('subtitle') })
    const schema = await readFile(join(copy, SCHEMA), 'utf8')
    await writeFile(join(copy, SCHEMA), schema.replace('...commonProperties,', `...commonProperties,\n    ${SUBTITLE}`))
    expect((await build()).stdout).toMatch(/✓ built \d+ files/)
    const config = parse(await readFile(join(copy, 'dist/admin/config.yml'), 'utf8')) as {
      collections: { name: string; fields: AdminField[] }[]
    }
    const fields = config.collections.find((c) => c.name === 'blog-posts')!.fields
    expect(fields.find((f) => f.name === 'subtitle')).toEqual({
      name: 'subtitle',
      label: 'Subtitle',
      required: false,
      hint: 'A line under the title.',
      widget: 'string',
      max_length: 160,
    })
    // In the schema's order: after the common fields, before the collection's own.
    expect(fields.map((f) => f.name).indexOf('subtitle')).toBe(fields.map((f) => f.name).indexOf('authors') - 1)
    const other = config.collections.find((c) => c.name === 'webinars')!.fields
    expect(other.some((f) => f.name === 'subtitle')).toBe(false)
  }, 240_000)
})
