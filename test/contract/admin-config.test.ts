/**
 * The editor's configuration is the schemas': every property of every
 * collection schema is a field with the widget its type calls for, required
 * where the schema requires it, validated by its pattern and length bounds
 * with the message `npm run check` gives, and a property added to a schema is
 * a field of the editor with no other edit. A string the schema marks as an
 * image gets the image widget, with uploads saved in the item's folder under
 * the relative path the build resolves. The editor writes files in the
 * schemas' order, as people write them: every file of the repository's
 * content/ in that order reads and writes back byte for byte.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SchemaObject } from 'ajv'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { partsOf, valueFromParts } from '../../build/emit/admin/datetime-offset.js'
import { fromFrontmatterFile, toFrontmatterFile } from '../../build/emit/admin/house-style.js'
import { wrapBackends } from '../../build/emit/admin/backends.js'
import { lengthProblem } from '../../build/emit/admin/bounds.js'
import { isLocal, placeNewItemUploads, placeUploads, resolveLocal } from '../../build/emit/admin/media.js'
import { isLocal as isLocalInBuild, resolveLocal as buildResolve } from '../../build/pipeline/media-refs.ts'
import { type AdminField, adminConfigYaml, createAdminConfig } from '../../contract/admin-config.ts'
import { COLLECTION_NAMES, FIXTURE_MODEL, schemaOf } from '../helpers/site.ts'
import { item } from '../../contract/routes/content.ts'
import { dateOrDateTime, dateTime, httpUrl, imageUrl } from '../../contract/model/common-fields.ts'
import { FIXTURE_CONTENT, LOCALE_FIXTURE, REPO_ROOT } from '../helpers/project.ts'

const SITE = {
  name: 'Fixture Co',
  url: 'https://www.fixture.example',
  repository: 'fixture/content',
  model: FIXTURE_MODEL,
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
      const paths = schemaPaths(schemaOf(name))
      for (const [path, schema, required] of paths) {
        const field = fields.get(path)
        expect(field, `${name}: ${path}`).toBeDefined()
        const parent = path.includes('.') ? paths.find(([p]) => p === path.split('.')[0]) : undefined
        const parentOptional = parent !== undefined && parent[1].type === 'object' && !parent[2]
        // Inside an optional object the form cannot require a field (see admin-fields.ts); the check still does.
        // A list's items are another matter: an optional list of speakers still needs each speaker's name.
        expect(field!.required, `${name}: ${path}`).toBe(required && !parentOptional)
        if (schema.description) expect(field!.hint, `${name}: ${path}`).toContain(schema.description)
      }
      expect([...fields.keys()].sort()).toEqual([...paths.map(([p]) => p), 'body'].sort())
      expect(collection.fields.map((f) => f.name)).toEqual([...Object.keys(schemaOf(name).properties), 'body'])
    }
  })

  it('gives each kind of property its widget', () => {
    const events = fieldPaths(collectionsOf(config).find((c) => c.name === 'events')!.fields)
    const posts = fieldPaths(collectionsOf(config).find((c) => c.name === 'blog-posts')!.fields)
    expect(posts.get('title')).toMatchObject({ widget: 'string', required: true })
    expect(posts.get('summary')).toMatchObject({ widget: 'text' })
    expect(posts.get('body')).toMatchObject({ widget: 'markdown' })
    // A date, with a time and its offset where scheduling needs one; an instant needs the time.
    expect(posts.get('published_at')).toMatchObject({ widget: 'datetime-offset', time: 'optional', required: true })
    expect(events.get('starts_at')).toMatchObject({ widget: 'datetime-offset', time: 'required' })
    expect(posts.get('expires_at')).toMatchObject({ widget: 'datetime-offset', time: 'required', required: false })
    expect(posts.get('tags')).toMatchObject({ widget: 'list', max: 20, field: { widget: 'string' } })
    expect(posts.get('authors')).toMatchObject({ widget: 'list', min: 1, max: 10 })
    expect(posts.get('image')).toMatchObject({ widget: 'object', required: false })
    expect(posts.get('draft')).toMatchObject({ widget: 'boolean' })
    expect(posts.get('related')).toMatchObject({ widget: 'related', multiple: true, max: 20, options: REFERENCES })
    expect(posts.get('related')).not.toHaveProperty('locale_options')
    expect(events.get('attendance_mode')).toMatchObject({
      widget: 'select',
      options: ['in_person', 'online', 'hybrid'],
    })
    expect(events.get('event_status')).toMatchObject({ widget: 'select', required: false })
    const webinars = fieldPaths(collectionsOf(config).find((c) => c.name === 'webinars')!.fields)
    expect(webinars.get('duration_minutes')).toMatchObject({ widget: 'number', value_type: 'int', min: 5, max: 1440 })
  })

  it('gives every image field the image widget, an upload or an absolute URL, wherever the schema marks one', () => {
    const images: string[] = []
    for (const collection of collectionsOf(config)) {
      // Uploads go to the item's folder, named by the path relative to its Markdown file (`my-post/cover.png`).
      expect(collection).toMatchObject({ media_folder: '{{filename}}', public_folder: '{{filename}}' })
      for (const [path, field] of fieldPaths(collection.fields))
        if (field.widget === 'image') {
          expect(field, `${collection.name}: ${path}`).toMatchObject({ choose_url: true })
          images.push(`${collection.name}: ${path}`)
        }
    }
    expect(images.sort()).toEqual([
      'blog-posts: authors.avatar_url',
      'blog-posts: image.url',
      'case-studies: image.url',
      'events: image.url',
      'events: speakers.avatar_url',
      'webinars: image.url',
      'webinars: speakers.avatar_url',
    ])
    // The schema says what an image is, not the field's name: a new image field needs no other edit, an http URL stays text.
    const schema = schemaOf('events')
    const before = schema.properties
    schema.properties = { ...before, venue_map: { ...imageUrl, description: 'A map of the venue.' } }
    try {
      const fields = fieldPaths(collectionsOf(createAdminConfig(SITE, [])).find((c) => c.name === 'events')!.fields)
      expect(fields.get('venue_map')).toMatchObject({ widget: 'image', choose_url: true, hint: 'A map of the venue.' })
      expect(fields.get('registration_url')).toMatchObject({ widget: 'string' })
      expect(schema.properties.registration_url).toEqual(httpUrl)
    } finally {
      schema.properties = before
    }
  })

  it('takes dates as the schema does: a date or a date-time with offset, an instant with its time, with its messages', () => {
    const posts = fieldPaths(collectionsOf(config).find((c) => c.name === 'blog-posts')!.fields)
    const accepts = (path: string, value: string) => new RegExp((posts.get(path)!.pattern as string[])[0]!).test(value)
    for (const good of [
      '2026-03-14',
      '2026-07-21T16:00:00+00:00',
      '2027-03-04T09:00:00Z',
      '2027-03-04T09:00:30.5+05:45',
    ])
      expect(accepts('published_at', good), good).toBe(true)
    for (const bad of [
      '2026-07-21T16:00',
      '2026-07-21T16:00:00',
      '2026-7-1',
      '14.03.2026',
      '2026-03-14 09:00:00+01:00',
    ])
      expect(accepts('published_at', bad), bad).toBe(false)
    expect(accepts('expires_at', '2027-03-04T09:00:00+01:00')).toBe(true)
    expect(accepts('expires_at', '2027-03-04')).toBe(false)
    expect((posts.get('published_at')!.pattern as string[])[1]).toBe(dateOrDateTime.errorMessage)
    expect((posts.get('expires_at')!.pattern as string[])[1]).toBe(dateTime.errorMessage)
  })

  it('validates patterns, and length bounds apart, with the messages of npm run check', () => {
    const posts = fieldPaths(collectionsOf(config).find((c) => c.name === 'blog-posts')!.fields)
    const test = (path: string, value: string) => new RegExp((posts.get(path)!.pattern as string[])[0]!).test(value)
    // A length bound is a rule of its own (admin/bounds.js): a value is told the one rule it breaks.
    expect(posts.get('title')).not.toHaveProperty('pattern')
    expect(posts.get('title')).toMatchObject({ max_length: 200 })
    expect(lengthProblem(posts.get('title')!, 'x'.repeat(200))).toBeUndefined()
    expect(lengthProblem(posts.get('title')!, 'x'.repeat(201))).toBe('must have at most 200 characters (it has 201)')
    expect(posts.get('slug')).toMatchObject({ max_length: 120 })
    expect(test('slug', 'my-first-post')).toBe(true)
    expect(test('slug', 'My_First_Post')).toBe(false)
    expect((posts.get('slug')!.pattern as string[])[1]).toContain(
      'must be lowercase letters, digits and single hyphens',
    )
    const tag = (posts.get('tags')!.field as AdminField).pattern as string[]
    expect(new RegExp(tag[0]!).test('data-quality')).toBe(true)
    expect(new RegExp(tag[0]!).test('Data Quality')).toBe(false)
    expect(tag[1]).toBe('must be lowercase letters, digits and single hyphens, like data-quality')
    expect(new RegExp(tag[0]!).test('a'.repeat(60))).toBe(true)
    expect(lengthProblem(posts.get('tags')!.field as AdminField, 'a'.repeat(60))).toBe(
      'must have at most 50 characters (it has 60)',
    )
    // An image is an absolute http(s) URL or a path relative to the Markdown file, as the schema's anyOf says.
    for (const path of ['authors.avatar_url', 'image.url']) {
      for (const good of ['https://cdn.example/a.png', 'my-post/cover.png', 'cover.jpg', '../people/ada.jpg'])
        expect(test(path, good), `${path}: ${good}`).toBe(true)
      for (const bad of ['/a.png', 'javascript:alert(1)', 'ftp://x.example/a.png', 'a.png?v=2', 'a\\b.png'])
        expect(test(path, bad), `${path}: ${bad}`).toBe(false)
      expect((posts.get(path)!.pattern as string[])[1]).toBe(imageUrl.errorMessage)
      expect(lengthProblem(posts.get(path)!, 'x'.repeat(imageUrl.maxLength + 1))).toBe(
        `must have at most ${imageUrl.maxLength} characters (it has ${imageUrl.maxLength + 1})`,
      )
    }
  })

  it('edits through GitHub with the editorial workflow, and reads back as YAML', () => {
    expect(config).toMatchObject({
      backend: { name: 'github', repo: 'fixture/content', branch: 'main', base_url: 'https://api.netlify.com' },
      publish_mode: 'editorial_workflow',
      // The Media page shows the portraits items share.
      media_folder: 'content/people',
      public_folder: '../people',
    })
    expect(config).not.toHaveProperty('media_library')
    expect(parse(adminConfigYaml(config))).toEqual(config)
  })

  it("links a draft's deploy preview as docs/deploying.md says: Netlify's preview status, then the item's record in its API", async () => {
    // How Decap picks the commit status of a pull request that links its deploy preview: its own
    // isPreviewContext, run from the installed decap-cms-lib-util (a browser bundle otherwise).
    const api = await readFile(join(REPO_ROOT, 'node_modules/decap-cms-lib-util/dist/esm/API.js'), 'utf8')
    const keywords = /const PREVIEW_CONTEXT_KEYWORDS = (\[[^\]]*\]);/.exec(api)![1]
    const rule = /function isPreviewContext\(context, previewContext\) \{[\s\S]*?\n\}/.exec(api)![0]
    const isPreviewContext = new Function(`const PREVIEW_CONTEXT_KEYWORDS = ${keywords}; return ${rule}`)() as (
      context: string,
      previewContext: string,
    ) => boolean
    // As decap-cms-backend-github reads it: `config.backend.preview_context || ''`.
    const previewContext = String((config.backend as { preview_context?: string }).preview_context ?? '')
    // Netlify's deploy preview status under its GitHub App, and under its older integration.
    for (const context of ['netlify/fixture-content/deploy-preview', 'deploy/netlify'])
      expect(isPreviewContext(context, previewContext), context).toBe(true)
    // Its other statuses link no preview.
    for (const context of [
      'Header rules - fixture-content',
      'Redirect rules - fixture-content',
      'Pages changed - fixture-content',
    ])
      expect(isPreviewContext(context, previewContext), context).toBe(false)
    // "View preview" opens the item's record in the API of that deploy preview (Decap appends preview_path to its URL).
    const preview = 'https://deploy-preview-42--fixture-content.netlify.app'
    for (const collection of collectionsOf(config)) {
      const path = (collection as Collection & { preview_path: string }).preview_path
      const slug = (await readdir(join(FIXTURE_CONTENT, collection.name))).find((f) => f.endsWith('.md'))!.slice(0, -3)
      const url = new URL(`${preview}/${path.replace('{{slug}}', slug)}`)
      expect(url.pathname, collection.name).toBe(
        item.path.replace('{collection}', collection.name).replace('{slug}', slug),
      )
      expect(url.origin).toBe(preview)
    }
    expect(config.site_url).toBe(SITE.url)
  })

  it('names a new file by its Slug field (filled from the title when empty, admin/slug.js), at most the schema’s length', () => {
    for (const collection of collectionsOf(config)) {
      expect(collection).toMatchObject({ slug: '{{fields.slug}}', identifier_field: 'title' })
      expect(collection.fields.find((f) => f.name === 'slug')).toMatchObject({ max_length: 120 })
    }
  })

  it('is single-language on a site with one locale: no translations anywhere', () => {
    expect(config).not.toHaveProperty('i18n')
    for (const collection of collectionsOf(config)) {
      expect(collection).not.toHaveProperty('i18n')
      for (const field of collection.fields)
        expect(field, `${collection.name}: ${field.name}`).not.toHaveProperty('i18n')
    }
  })

  it('edits translations on a multilingual site: each locale a file beside the item, every field its own, related per locale', () => {
    const de = [
      {
        value: 'blog-posts/tidewater-in-frankfurt',
        label: 'Blog post: In Frankfurt',
        translates: 'blog-posts/eu-region',
      },
      { value: 'webinars/data-contracts-101', label: 'Webinar: Data Contracts 101 (en)' },
    ]
    const multilingual = createAdminConfig({ ...SITE, language: 'en', locales: ['de', 'en', 'fr'] }, REFERENCES, {
      de,
      fr: [],
    })
    // The default locale first: Decap lists and validates it, and writes the others beside it (`my-post.de.md`).
    expect(multilingual.i18n).toEqual({
      structure: 'multiple_files',
      locales: ['en', 'de', 'fr'],
      default_locale: 'en',
    })
    for (const collection of collectionsOf(multilingual)) {
      expect(collection).toMatchObject({ i18n: true })
      // A translation is a complete file of its own (docs/authoring.md#translations): its own dates, tags, related.
      for (const field of collection.fields)
        expect(field, `${collection.name}: ${field.name}`).toMatchObject({ i18n: true })
      expect(collection.fields.find((f) => f.name === 'related')).toMatchObject({
        widget: 'related',
        options: REFERENCES,
        locale_options: { de, fr: [] },
      })
    }
  })

  it('edits each translation as an item of its own where Decap cannot name a locale (a region by number)', () => {
    // Decap refuses its whole configuration over such a locale: the editor must still open.
    const config = createAdminConfig({ ...SITE, language: 'es', locales: ['es', 'es-419'] }, REFERENCES, {})
    expect(config).not.toHaveProperty('i18n')
    expect(collectionsOf(config)[0]).not.toHaveProperty('i18n')
  })

  it('follows a property added to a schema, with no other edit', () => {
    const schema = schemaOf('blog-posts')
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
        max_length: 120,
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
      const files = await readdir(join(FIXTURE_CONTENT, collection.name), { withFileTypes: true })
      // The Markdown files: an item's folder of images sits beside its file.
      for (const name of files.filter((f) => f.isFile() && f.name.endsWith('.md')).map((f) => f.name)) {
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
    // Most hand-written files list their fields in the schema's order (the events' event_status comes earlier
    // in theirs than in the model, which declares it in the records' order).
    expect(same).toBeGreaterThan(20)
  })

  it('keep every date as written: the date widget reads each date of the content and writes it back the same', async () => {
    const dates: string[] = []
    for (const root of [FIXTURE_CONTENT, LOCALE_FIXTURE])
      for (const collection of COLLECTION_NAMES) {
        const names = await readdir(join(root, collection), { recursive: true }).catch(() => [] as string[])
        for (const name of names.filter((n) => n.endsWith('.md'))) {
          const data = fromFrontmatterFile(await readFile(join(root, collection, name), 'utf8'))
          for (const key of ['published_at', 'updated_at', 'expires_at', 'starts_at', 'ends_at'])
            if (typeof data[key] === 'string') dates.push(data[key])
        }
      }
    expect(dates.some((d) => d.length === 10) && dates.some((d) => /T.*[+-]\d\d:\d\d$/.test(d))).toBe(true)
    for (const date of dates) expect(valueFromParts(partsOf(date)!), date).toBe(date)
    // A time given to a date takes an offset; a changed time has whole seconds.
    expect(valueFromParts({ date: '2027-03-04', time: '09:00', seconds: '', offset: '+01:00' })).toBe(
      '2027-03-04T09:00:00+01:00',
    )
    expect(partsOf('2026-07-21T16:00')).toBeUndefined()
    expect(partsOf('')).toEqual({ date: '', time: '', seconds: '', offset: '' })
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

describe('images the editor saves', () => {
  const config = createAdminConfig(SITE, [])
  const fields = collectionsOf(config).find((c) => c.name === 'webinars')!.fields

  it('name a new item’s uploads by their path in its folder, in fields, lists of people and the body', () => {
    // Decap writes a new item's uploads as bare names while it saves them in the item's folder.
    const raw = toFrontmatterFile(
      {
        title: 'Lineage at scale',
        starts_at: '2027-02-10T11:00:00-05:00',
        speakers: [
          { name: 'Ada', avatar_url: 'ada.png' },
          { name: 'Ben', avatar_url: '../people/ben.jpg' },
        ],
        image: { url: 'cover.png', alt: 'A lineage graph' },
        body: 'See ![The graph](graph.png "Figure 1") and ![Kept](https://x.example/graph.png), not cover.png.',
      },
      fields,
    )
    const assets = ['cover.png', 'ada.png', 'graph.png'].map((n) => ({
      path: `content/webinars/lineage-at-scale/${n}`,
    }))
    const placed = placeNewItemUploads(raw, 'content/webinars/lineage-at-scale.md', assets, fields)
    expect(fromFrontmatterFile(placed)).toEqual({
      ...fromFrontmatterFile(raw),
      speakers: [
        { name: 'Ada', avatar_url: 'lineage-at-scale/ada.png' },
        { name: 'Ben', avatar_url: '../people/ben.jpg' },
      ],
      image: { url: 'lineage-at-scale/cover.png', alt: 'A lineage graph' },
      body: 'See ![The graph](lineage-at-scale/graph.png "Figure 1") and ![Kept](https://x.example/graph.png), not cover.png.\n',
    })
    // Nothing else of the file changes; with no upload in the item's folder, nothing at all.
    expect(placed.replaceAll('lineage-at-scale/', '')).toBe(raw)
    expect(placeNewItemUploads(raw, 'content/webinars/lineage-at-scale.md', [], fields)).toBe(raw)
    expect(
      placeNewItemUploads(
        raw,
        'content/webinars/lineage-at-scale.md',
        [{ path: 'content/webinars/cover.png' }],
        fields,
      ),
    ).toBe(raw)
  })

  it('are placed so by GitHub and the local backend alike, on a new item’s first save only', async () => {
    // Decap's registry as the page has it: each backend's `init` makes its implementation.
    const saved: [string, string][] = []
    const registry: Record<string, { init: () => unknown }> = {}
    for (const name of ['github', 'proxy', 'gitlab'])
      registry[name] = {
        init: () => ({
          name,
          // `this`: the wrapper must call it on its implementation.
          persistEntry(this: { name: string }, entry: { dataFiles: { raw: string }[] }, _options: unknown) {
            saved.push([this.name, entry.dataFiles[0]!.raw])
            return Promise.resolve()
          },
        }),
      }
    wrapBackends({ getBackend: (name: string) => registry[name] }, [placeUploads(collectionsOf(config))])
    const raw = toFrontmatterFile({ title: 'T', image: { url: 'cover.png', alt: 'A' } }, fields)
    const entry = {
      dataFiles: [{ path: 'content/webinars/t.md', slug: 't', raw }],
      assets: [{ path: 'content/webinars/t/cover.png' }],
    }
    for (const name of ['github', 'proxy', 'gitlab']) {
      const implementation = registry[name]!.init() as { persistEntry: (e: unknown, o: unknown) => Promise<void> }
      await implementation.persistEntry(entry, { newEntry: true })
      await implementation.persistEntry(entry, { newEntry: false })
    }
    const placed = raw.replace('url: cover.png', 'url: t/cover.png')
    expect(placed).not.toBe(raw)
    expect(saved).toEqual([
      ['github', placed],
      ['github', raw],
      ['proxy', placed],
      ['proxy', raw],
      // Only the backends this editor configures.
      ['gitlab', raw],
      ['gitlab', raw],
    ])
  })

  it('resolve a local image from the item’s file as the build does', () => {
    for (const url of [
      'cover.png',
      'my-post/cover.png',
      '../people/ada.jpg',
      './a/../b.png',
      'my%20post/a.png',
      '../../package.json',
      '../../../etc/passwd',
      'https://x.example/a.png',
      '/media/a.png',
      '#x',
    ]) {
      expect(isLocal(url), url).toBe(isLocalInBuild(url))
      if (isLocal(url))
        expect(resolveLocal('content/blog-posts', url), url).toBe(buildResolve('content/blog-posts/x.md', url))
    }
  })
})
