/**
 * The editor's configuration is the schemas': every property of every
 * collection schema is a field with the widget its type calls for, required
 * where the schema requires it, validated by its pattern and length bounds
 * with the message `npm run check` gives, and a property added to a schema is
 * a field of the editor with no other edit. The editor writes files in the
 * schemas' order, as people write them: every file of the repository's
 * content/ in that order reads and writes back byte for byte.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SchemaObject } from 'ajv'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { fromFrontmatterFile, toFrontmatterFile } from '../../build/emit/admin/house-style.js'
import { type AdminField, adminConfigYaml, createAdminConfig } from '../../contract/admin-config.ts'
import { COLLECTION_NAMES, COLLECTIONS } from '../../contract/collections.ts'
import { FIXTURE_CONTENT } from '../helpers/project.ts'

const SITE = {
  name: 'Fixture Co',
  url: 'https://www.fixture.example',
  repository: 'fixture/content',
  collections: {
    'blog-posts': { title: 'Blog' },
    'case-studies': { title: 'Customers' },
    webinars: { title: 'Webinars' },
    events: { title: 'Events' },
  },
}
const REFERENCES = [{ value: 'webinars/data-contracts-101', label: 'Webinar: Data Contracts 101' }]

interface Collection {
  name: string
  folder: string
  format: string
  fields: AdminField[]
}
const collectionsOf = (config: Record<string, unknown>) => config.collections as Collection[]

/** Every property path of a schema (`authors.name`, `image.url`), with its schema and whether it is required. */
function schemaPaths(schema: SchemaObject, prefix = ''): [string, SchemaObject, boolean][] {
  const required = new Set<string>(schema.required ?? [])
  return Object.entries((schema.properties ?? {}) as Record<string, SchemaObject>).flatMap(([name, property]) => {
    const path = `${prefix}${name}`
    const nested =
      property.type === 'object' ? property : property.items?.type === 'object' ? property.items : undefined
    return [
      [path, property, required.has(name)] as [string, SchemaObject, boolean],
      ...(nested ? schemaPaths(nested, `${path}.`) : []),
    ]
  })
}

function fieldPaths(fields: readonly AdminField[], prefix = ''): Map<string, AdminField> {
  const out = new Map<string, AdminField>()
  for (const field of fields) {
    out.set(`${prefix}${field.name}`, field)
    const nested = field.fields as AdminField[] | undefined
    if (nested) for (const [p, f] of fieldPaths(nested, `${prefix}${field.name}.`)) out.set(p, f)
  }
  return out
}

describe('the editor configuration', () => {
  const config = createAdminConfig(SITE, REFERENCES)

  it('has a field for every property of every schema, in the schema order, and the body', () => {
    for (const name of COLLECTION_NAMES) {
      const collection = collectionsOf(config).find((c) => c.name === name)!
      expect(collection).toMatchObject({ folder: `content/${name}`, format: `${name}-frontmatter` })
      const fields = fieldPaths(collection.fields)
      const paths = schemaPaths(COLLECTIONS[name].schema)
      for (const [path, schema, required] of paths) {
        const field = fields.get(path)
        expect(field, `${name}: ${path}`).toBeDefined()
        const parentOptional = path.includes('.') && !paths.find(([p]) => p === path.split('.')[0])![2]
        // Inside an optional object the form cannot require a field (see admin-fields.ts); the check still does.
        expect(field!.required, `${name}: ${path}`).toBe(required && !parentOptional)
        if (schema.description) expect(field!.hint, `${name}: ${path}`).toContain(schema.description)
      }
      expect([...fields.keys()].sort()).toEqual([...paths.map(([p]) => p), 'body'].sort())
      expect(collection.fields.map((f) => f.name)).toEqual([
        ...Object.keys(COLLECTIONS[name].schema.properties),
        'body',
      ])
    }
  })

  it('gives each kind of property its widget', () => {
    const events = fieldPaths(collectionsOf(config).find((c) => c.name === 'events')!.fields)
    const posts = fieldPaths(collectionsOf(config).find((c) => c.name === 'blog-posts')!.fields)
    expect(posts.get('title')).toMatchObject({ widget: 'string', required: true })
    expect(posts.get('summary')).toMatchObject({ widget: 'text' })
    expect(posts.get('body')).toMatchObject({ widget: 'markdown' })
    expect(posts.get('published_at')).toMatchObject({ widget: 'datetime', format: 'YYYY-MM-DD', time_format: false })
    expect(events.get('starts_at')).toMatchObject({ widget: 'datetime', format: 'YYYY-MM-DDTHH:mm:ssZ' })
    expect(posts.get('tags')).toMatchObject({ widget: 'list', max: 20, field: { widget: 'string' } })
    expect(posts.get('authors')).toMatchObject({ widget: 'list', min: 1, max: 10 })
    expect(posts.get('authors.avatar_url')).toMatchObject({ widget: 'image' })
    expect(posts.get('image')).toMatchObject({ widget: 'object', required: false })
    expect(posts.get('image.url')).toMatchObject({ widget: 'image' })
    expect(posts.get('draft')).toMatchObject({ widget: 'boolean' })
    expect(posts.get('related')).toMatchObject({ widget: 'select', multiple: true, max: 20, options: REFERENCES })
    expect(events.get('attendance_mode')).toMatchObject({
      widget: 'select',
      options: ['in_person', 'online', 'hybrid'],
    })
    expect(events.get('event_status')).toMatchObject({ widget: 'select', required: false })
    const webinars = fieldPaths(collectionsOf(config).find((c) => c.name === 'webinars')!.fields)
    expect(webinars.get('duration_minutes')).toMatchObject({ widget: 'number', value_type: 'int', min: 5, max: 1440 })
  })

  it('validates patterns and length bounds with the messages of npm run check', () => {
    const posts = fieldPaths(collectionsOf(config).find((c) => c.name === 'blog-posts')!.fields)
    const test = (path: string, value: string) => new RegExp((posts.get(path)!.pattern as string[])[0]!).test(value)
    expect(test('title', 'x'.repeat(200))).toBe(true)
    expect(test('title', 'x'.repeat(201))).toBe(false)
    expect((posts.get('title')!.pattern as string[])[1]).toBe('must NOT have more than 200 characters')
    expect(test('slug', 'my-first-post')).toBe(true)
    expect(test('slug', 'My_First_Post')).toBe(false)
    expect((posts.get('slug')!.pattern as string[])[1]).toContain(
      'must be lowercase letters, digits and single hyphens',
    )
    const tag = (posts.get('tags')!.field as AdminField).pattern as string[]
    expect(new RegExp(tag[0]!).test('data-quality')).toBe(true)
    expect(new RegExp(tag[0]!).test('Data Quality')).toBe(false)
    expect(tag[1]).toContain('like data-quality')
    expect(test('authors.avatar_url', 'https://cdn.example/a.png')).toBe(true)
    expect(test('authors.avatar_url', '/a.png')).toBe(false)
  })

  it('edits through GitHub with the editorial workflow, and reads back as YAML', () => {
    expect(config).toMatchObject({
      backend: { name: 'github', repo: 'fixture/content', branch: 'main', base_url: 'https://api.netlify.com' },
      publish_mode: 'editorial_workflow',
      media_library: { name: 'url' },
    })
    expect(parse(adminConfigYaml(config))).toEqual(config)
  })

  it('follows a property added to a schema, with no other edit', () => {
    const schema = COLLECTIONS['blog-posts'].schema
    const before = schema.properties
    schema.properties = {
      ...before,
      subtitle: { type: 'string', minLength: 1, maxLength: 120, description: 'A line under the title.' },
    }
    schema.required = [...schema.required, 'subtitle']
    try {
      const fields = fieldPaths(collectionsOf(createAdminConfig(SITE, [])).find((c) => c.name === 'blog-posts')!.fields)
      expect(fields.get('subtitle')).toMatchObject({
        widget: 'string',
        required: true,
        hint: 'A line under the title.',
        pattern: ['^(?=[\\s\\S]{1,120}$)', 'must NOT have more than 120 characters'],
      })
    } finally {
      schema.properties = before
      schema.required = schema.required.filter((r: string) => r !== 'subtitle')
    }
    expect(
      fieldPaths(collectionsOf(createAdminConfig(SITE, [])).find((c) => c.name === 'blog-posts')!.fields).has(
        'subtitle',
      ),
    ).toBe(false)
  })
})

describe('files the editor writes', () => {
  const config = createAdminConfig(SITE, [])

  it('are the files people write: every content file in the schema order reads and writes back byte for byte', async () => {
    let same = 0
    for (const collection of collectionsOf(config)) {
      const order = collection.fields.map((f) => f.name)
      for (const name of await readdir(join(FIXTURE_CONTENT, collection.name))) {
        const text = await readFile(join(FIXTURE_CONTENT, collection.name, name), 'utf8')
        const data = fromFrontmatterFile(text)
        const written = toFrontmatterFile(data, collection.fields)
        // Nothing is lost, whatever the order.
        expect(fromFrontmatterFile(written), name).toEqual(data)
        const keys = Object.keys(data).filter((k) => k !== 'body')
        if (keys.join() !== order.filter((k) => keys.includes(k)).join()) continue
        expect(written, name).toBe(text)
        same++
      }
    }
    // Most hand-written files list their fields in the schema's order.
    expect(same).toBeGreaterThan(25)
  })

  it('leave empty optional fields out, quote only what YAML would misread, and keep fields they do not know', () => {
    const fields = collectionsOf(config).find((c) => c.name === 'case-studies')!.fields
    const written = toFrontmatterFile(
      {
        body: '\n\nThe story.\n\n\n',
        legacy: 'kept',
        results: [
          { value: '-63%', label: 'Incident time' },
          { label: 'Feeds', value: '412' },
        ],
        customer: { industry: 'Retail', name: 'Cobalt & Pine', size: '' },
        summary: '',
        tags: [],
        published_at: '2026-03-14',
        title: 'Cobalt & Pine: 38% less spend',
        products: ['Tidewater Monitor', 'Tidewater Lineage'],
        related: [
          'case-studies/very-long-slug-number-one-for-wrapping',
          'webinars/another-quite-long-slug-for-wrapping',
        ],
      },
      fields,
    )
    expect(written).toBe(`---
title: "Cobalt & Pine: 38% less spend"
published_at: 2026-03-14
related:
  - case-studies/very-long-slug-number-one-for-wrapping
  - webinars/another-quite-long-slug-for-wrapping
customer:
  name: Cobalt & Pine
  industry: Retail
results:
  - label: Incident time
    value: "-63%"
  - label: Feeds
    value: "412"
products: [Tidewater Monitor, Tidewater Lineage]
legacy: kept
---

The story.
`)
  })
})
