/**
 * What the editor's wrappers of Decap's backends (build/emit/admin/) make of
 * the repository, run against the dev server's local backend over a real
 * working tree (called as Decap's proxy backend calls it, without the HTTP):
 * Decap's names of an item's files (`my-post.en.md`, `my-post.de.md`) are the
 * repository's (`my-post.md`, `my-post.de.md`, or `my-post/index.md` and
 * `index.de.md` for an item in a folder of its own) when it lists, reads,
 * saves and deletes; a locale nobody wrote is no file, an incomplete
 * translation is refused, and a translation's `related` names its locale's
 * items; a new file is named by its Slug, or by its title at most the
 * schema's length, and says no `slug:` its name already says.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { wrapBackends, type Implementation } from '../../../build/emit/admin/backends.js'
import { fromFrontmatterFile, toFrontmatterFile } from '../../../build/emit/admin/house-style.js'
import { placeUploads } from '../../../build/emit/admin/media.js'
import { repositoryLayout } from '../../../build/emit/admin/repository-layout.js'
import { newFileNames, registerSlugFromTitle, slugFromTitle } from '../../../build/emit/admin/slug.js'
import { translations } from '../../../build/emit/admin/translations.js'
import { slugify } from '../../../build/core/slug.ts'
import { type AdminField, createAdminConfig } from '../../../contract/admin-config.ts'
import { localBackend } from '../../../gateway/preview/local-backend.ts'
import { createProject, SITE_YAML, type TempProject } from '../../helpers/project.ts'
import { FIXTURE_MODEL } from '../../helpers/site.ts'

const MULTILINGUAL = `${SITE_YAML}language: en\nlocales: [en, de, fr]\nlocale_fallback: [de]\n`
const SITE = {
  name: 'Fixture Co',
  url: 'https://www.fixture.example',
  language: 'en',
  locales: ['en', 'de', 'fr'],
  model: FIXTURE_MODEL,
}
const FOLDER = 'content/blog-posts'
type Config = { collections: { name: string; folder: string; fields: AdminField[] }[] }

/** Decap's proxy backend as it calls the dev server's local backend (decap-cms-backend-proxy), in process. */
function proxyImplementation(root: string): Implementation {
  const backend = localBackend(root, () => FIXTURE_MODEL.names)
  const call = (action: string, params: Record<string, unknown>) => backend.handle({ action, params })
  return {
    entriesByFolder: (folder: string, extension: string, depth: number) =>
      call('entriesByFolder', { folder, extension, depth }),
    getEntry: (path: string) => call('getEntry', { path }),
    persistEntry: (entry: { dataFiles: unknown[]; assets: unknown[] }, options: unknown) =>
      call('persistEntry', { dataFiles: entry.dataFiles, assets: entry.assets, options }),
    deleteFiles: (paths: string[]) => call('deleteFiles', { paths }),
  }
}

/** The implementation Decap would use, wrapped as admin.js wraps it. */
function editorBackend(root: string, config: ReturnType<typeof createAdminConfig>) {
  const registry = { proxy: { init: () => proxyImplementation(root) } }
  const layout = repositoryLayout(config as never)
  wrapBackends({ getBackend: (name: string) => registry[name as 'proxy'] }, [
    layout.wrap,
    translations(config as never),
    placeUploads((config as Config).collections),
    newFileNames(config as never),
  ])
  return { implementation: registry.proxy.init(), layout }
}

/** A valid post as people write it (and the editor writes it): fields in the schema's order, a blank line before the body. */
const post = (title: string, slug?: string) => `---
title: ${title}
${slug ? `slug: ${slug}\n` : ''}tags: [testing]
published_at: 2026-01-05
authors:
  - name: Zoë Tester
---

First paragraph of the post.
`

describe('the editor’s backends on a multilingual site', () => {
  let project: TempProject
  const references = [{ value: 'blog-posts/existing', label: 'Blog post: Existing' }]
  const de = [
    { value: 'blog-posts/ubersetzt', label: 'Blog post: Übersetzt', translates: 'blog-posts/translated' },
    { value: 'blog-posts/existing', label: 'Blog post: Existing (en)' },
  ]
  const config = createAdminConfig(SITE, references, { de, fr: [] })
  const fields = (config as Config).collections[0]!.fields
  const read = async (path: string) => readFile(join(project.root, path), 'utf8')

  beforeEach(async () => {
    project = await createProject({
      'content/site.yaml': MULTILINGUAL,
      [`${FOLDER}/existing.md`]: post('Existing'),
      [`${FOLDER}/translated.md`]: post('Translated'),
      [`${FOLDER}/translated.de.md`]: post('Übersetzt', 'ubersetzt'),
      [`${FOLDER}/in-a-folder/index.md`]: post('In a folder'),
      [`${FOLDER}/in-a-folder/index.de.md`]: post('In einem Ordner'),
      [`${FOLDER}/in-a-folder/notes.md`]: 'not an item',
      [`${FOLDER}/in-a-folder/index.dee.md`]: post('Not a locale of the site'),
      [`${FOLDER}/nur-deutsch.de.md`]: post('Nur auf Deutsch'),
      [`${FOLDER}/named.en.md`]: post('Named in English'),
    })
  })
  afterEach(() => project.remove())

  it('lists every item’s files by Decap’s names: translations beside it, items in folders, an item in one locale only', async () => {
    const { implementation } = editorBackend(project.root, config)
    const listed = (await implementation.entriesByFolder(FOLDER, 'md', 1)) as { file: { path: string }; data: string }[]
    expect(listed.map((e) => e.file.path).sort()).toEqual(
      [
        'existing.en.md',
        'in-a-folder.de.md',
        'in-a-folder.en.md',
        'named.en.md',
        'nur-deutsch.de.md',
        'translated.de.md',
        'translated.en.md',
      ].map((n) => `${FOLDER}/${n}`),
    )
    expect(listed.find((e) => e.file.path.endsWith('in-a-folder.de.md'))!.data).toContain('title: In einem Ordner')
  })

  it('reads each locale of an item from its file, an item in a folder too before any listing, and a missing one as empty', async () => {
    const { implementation } = editorBackend(project.root, config)
    const data = async (path: string) => ((await implementation.getEntry(path)) as { data: string }).data
    expect(await data(`${FOLDER}/in-a-folder.de.md`)).toContain('title: In einem Ordner')
    expect(await data(`${FOLDER}/in-a-folder.en.md`)).toContain('title: In a folder')
    expect(await data(`${FOLDER}/named.en.md`)).toContain('title: Named in English')
    expect(await implementation.getEntry(`${FOLDER}/existing.fr.md`)).toEqual({
      data: '',
      file: { path: `${FOLDER}/existing.fr.md`, id: null },
    })
    // Decap's check whether a new item's name is taken asks without a locale: an item in a folder takes it.
    expect(await data(`${FOLDER}/in-a-folder.md`)).toContain('title: In a folder')
    expect(await data(`${FOLDER}/not-there.md`)).toBe('')
  })

  it('saves each locale to the item’s file and no file for a locale nobody wrote', async () => {
    const { implementation } = editorBackend(project.root, config)
    await implementation.entriesByFolder(FOLDER, 'md', 1)
    const english = toFrontmatterFile(
      { ...fromFrontmatterFile(post('In a folder')), summary: 'Now summed up.' },
      fields,
    )
    const german = toFrontmatterFile(
      { ...fromFrontmatterFile(post('In einem Ordner')), image: { url: 'in-a-folder/cover.png', alt: 'Ein Bild' } },
      fields,
    )
    await implementation.persistEntry(
      {
        dataFiles: [
          { path: `${FOLDER}/in-a-folder.en.md`, slug: 'in-a-folder', raw: english },
          { path: `${FOLDER}/in-a-folder.de.md`, slug: 'in-a-folder', raw: german },
          // What Decap writes for a locale nobody filled in: its empty form.
          { path: `${FOLDER}/in-a-folder.fr.md`, slug: 'in-a-folder', raw: toFrontmatterFile({ body: '' }, fields) },
        ],
        assets: [],
      },
      { newEntry: false },
    )
    expect(await read(`${FOLDER}/in-a-folder/index.md`)).toBe(english)
    // The image Decap named from the item's Decap file is named from its index file.
    expect(await read(`${FOLDER}/in-a-folder/index.de.md`)).toBe(
      german.replace('url: in-a-folder/cover.png', 'url: cover.png'),
    )
    expect((await readdir(join(project.root, FOLDER))).sort()).toEqual([
      'existing.md',
      'in-a-folder',
      'named.en.md',
      'nur-deutsch.de.md',
      'translated.de.md',
      'translated.md',
    ])
    expect((await readdir(join(project.root, FOLDER, 'in-a-folder'))).sort()).toEqual([
      'index.de.md',
      'index.dee.md',
      'index.md',
      'notes.md',
    ])
  })

  it('refuses an incomplete translation with the form’s messages, writing nothing', async () => {
    const { implementation } = editorBackend(project.root, config)
    const before = await read(`${FOLDER}/existing.md`)
    const save = implementation.persistEntry(
      {
        dataFiles: [
          { path: `${FOLDER}/existing.en.md`, slug: 'existing', raw: toFrontmatterFile({ title: 'Changed' }, fields) },
          {
            path: `${FOLDER}/existing.de.md`,
            slug: 'existing',
            raw: toFrontmatterFile(
              { summary: 'Nur eine Zusammenfassung.', tags: ['Nicht Gut', 'ein-viel-zu-langes-schlagwort'.repeat(2)] },
              fields,
            ),
          },
        ],
        assets: [],
      },
      { newEntry: false },
    )
    await expect(save).rejects.toThrow(
      // Each value is told the one rule it breaks: the pattern, or the length.
      'The DE version is not complete (Title: is required; Tag: must be lowercase letters, digits and single hyphens, like data-quality; Tag: must have at most 50 characters (it has 58); Published at: is required; Authors: is required).',
    )
    expect(await read(`${FOLDER}/existing.md`)).toBe(before)
    expect(await readdir(join(project.root, FOLDER))).not.toContain('existing.de.md')
  })

  it('names a translation’s related items in its locale, as npm run new -- --translate does', async () => {
    const { implementation } = editorBackend(project.root, config)
    const german = toFrontmatterFile(
      { ...fromFrontmatterFile(post('Bestehend')), related: ['blog-posts/translated', 'blog-posts/existing'] },
      fields,
    )
    await implementation.persistEntry(
      {
        dataFiles: [
          { path: `${FOLDER}/existing.en.md`, slug: 'existing', raw: await read(`${FOLDER}/existing.md`) },
          { path: `${FOLDER}/existing.de.md`, slug: 'existing', raw: german },
        ],
        assets: [],
      },
      { newEntry: false },
    )
    expect(await read(`${FOLDER}/existing.de.md`)).toBe(
      german.replace('blog-posts/translated, blog-posts/existing', 'blog-posts/ubersetzt, blog-posts/existing'),
    )
  })

  it('deletes an item’s files in the locales it has', async () => {
    const { implementation } = editorBackend(project.root, config)
    await implementation.deleteFiles(['en', 'de', 'fr'].map((l) => `${FOLDER}/in-a-folder.${l}.md`))
    expect((await readdir(join(project.root, FOLDER, 'in-a-folder'))).sort()).toEqual(['index.dee.md', 'notes.md'])
  })
})

describe('the editor’s backends over GitHub', () => {
  const config = createAdminConfig(SITE, [])
  /** What Decap's GitHub backend answers for a repository holding `files` (decap-cms-backend-github's shapes). */
  const github = (files: Record<string, string>, pullRequest: string[]) => {
    const entries = (paths: string[]) =>
      paths.map((path) => ({ file: { path, id: `sha-${path}` }, data: files[path]! }))
    const cursor = Symbol.for('cursor key for compatibility with old backends')
    return {
      read: [] as string[],
      entriesByFolder(folder: string, _extension: string, depth: number) {
        const listed = entries(
          Object.keys(files).filter((p) => p.split('/').length - folder.split('/').length <= depth),
        )
        return Object.assign(listed, { [cursor]: 'next page' })
      },
      // Decap passes its own filter of the paths: the files named in the default locale.
      allEntriesByFolder: (_folder: string, _extension: string, _depth: number, regex?: RegExp) =>
        entries(Object.keys(files).filter((p) => !regex || regex.test(p))),
      getEntry(path: string) {
        this.read.push(path)
        return { file: { path, id: null }, data: files[path] ?? '' }
      },
      unpublishedEntry: () => ({
        collection: 'blog-posts',
        slug: 'in-a-folder',
        diffs: pullRequest.map((path) => ({ path, newFile: false, id: `sha-${path}` })),
      }),
      unpublishedEntryDataFile(_collection: string, _slug: string, path: string) {
        this.read.push(path)
        return files[path] ?? ''
      },
    }
  }

  it('lists every item’s files whatever Decap’s filter, keeps its cursor, and maps a pull request’s files both ways', async () => {
    const files = {
      [`${FOLDER}/plain.md`]: post('Plain'),
      [`${FOLDER}/in-a-folder/index.md`]: post('In a folder'),
      [`${FOLDER}/in-a-folder/index.de.md`]: post('In einem Ordner'),
      [`${FOLDER}/nur-deutsch.de.md`]: post('Nur auf Deutsch'),
    }
    const registry = {
      github: { init: () => github(files, [`${FOLDER}/in-a-folder/index.de.md`, `${FOLDER}/in-a-folder/cover.png`]) },
    }
    wrapBackends({ getBackend: (name: string) => registry[name as 'github'] }, [repositoryLayout(config as never).wrap])
    const implementation: Implementation = registry.github.init()
    const all = await implementation.allEntriesByFolder(FOLDER, 'md', 1, /\.en\..*/)
    expect(all.map((e: { file: { path: string } }) => e.file.path).sort()).toEqual(
      ['in-a-folder.de.md', 'in-a-folder.en.md', 'nur-deutsch.de.md', 'plain.en.md'].map((n) => `${FOLDER}/${n}`),
    )
    // A page of a long collection, with Decap's cursor to the next one.
    const page = await implementation.entriesByFolder(FOLDER, 'md', 1)
    expect(page).toHaveLength(4)
    expect(page[Symbol.for('cursor key for compatibility with old backends')]).toBe('next page')
    // The editorial workflow: a pull request's files by Decap's names, read from the repository's.
    const draft = await implementation.unpublishedEntry({ collection: 'blog-posts', slug: 'in-a-folder' })
    expect(draft.diffs.map((d: { path: string }) => d.path)).toEqual([
      `${FOLDER}/in-a-folder.de.md`,
      `${FOLDER}/in-a-folder/cover.png`,
    ])
    expect(
      await implementation.unpublishedEntryDataFile('blog-posts', 'in-a-folder', `${FOLDER}/in-a-folder.en.md`, ''),
    ).toBe(post('In a folder'))
    expect(implementation.read).toEqual([`${FOLDER}/in-a-folder/index.md`])
  })
})

describe('a new item’s file name', () => {
  let project: TempProject
  const config = createAdminConfig(SITE, [])
  const fields = (config as Config).collections[0]!.fields

  beforeEach(async () => {
    project = await createProject({ 'content/site.yaml': MULTILINGUAL })
  })
  afterEach(() => project.remove())

  it('is the title’s slug as npm run new makes it, at most the schema’s length', () => {
    for (const title of ['Crème brûlée -- at 10:00!', 'Editing without git: a first post', 'Snake_case ~ and tildes'])
      expect(slugFromTitle(title, 120)).toBe(slugify(title))
    expect(fields.find((f) => f.name === 'slug')).toMatchObject({ max_length: 120 })
    const long = slugFromTitle('A title of many words '.repeat(10), 120)
    expect(long.length).toBeLessThanOrEqual(120)
    expect(long).toMatch(/^a-title-of-many-words(-[a-z]+)+$/)
  })

  it('fills an empty Slug from the title before Decap names the file, and only for a new item', () => {
    let handler: ((event: { entry: unknown }) => unknown) | undefined
    registerSlugFromTitle(
      { registerEventListener: (l: { name: string; handler: typeof handler }) => (handler = l.handler) },
      (config as Config).collections,
    )
    // Decap's entry and data are Immutable maps: `get` and `set` are all the handler uses.
    const map = (values: Record<string, unknown>): unknown => ({
      get: (key: string) => values[key],
      set: (key: string, value: unknown) => map({ ...values, [key]: value }),
    })
    const entry = (newRecord: boolean, data: Record<string, unknown>) => ({
      entry: map({ collection: 'blog-posts', newRecord, data: map(data) }),
    })
    const filled = handler!(entry(true, { title: 'Ünïcode & more' })) as { get(key: string): unknown }
    expect(filled.get('slug')).toBe('unicode-more')
    expect(handler!(entry(true, { title: 'T', slug: 'mine' }))).toBeUndefined()
    expect(handler!(entry(false, { title: 'T' }))).toBeUndefined()
  })

  it('says no slug its file name says, and is refused when longer than a slug may be', async () => {
    const { implementation } = editorBackend(project.root, config)
    const save = (name: string, data: Record<string, unknown>) =>
      implementation.persistEntry(
        {
          dataFiles: [{ path: `${FOLDER}/${name}.en.md`, slug: name, raw: toFrontmatterFile(data, fields) }],
          assets: [],
        },
        { newEntry: true },
      )
    const base = fromFrontmatterFile(post('My first post'))
    await save('my-first-post', { ...base, slug: 'my-first-post' })
    await save('chosen', { ...base, slug: 'chosen' })
    // Decap made the name unique: the name is the slug then.
    await save('my-first-post-1', { ...base, slug: 'my-first-post' })
    expect(await readFile(join(project.root, FOLDER, 'my-first-post.md'), 'utf8')).toBe(post('My first post'))
    expect(await readFile(join(project.root, FOLDER, 'chosen.md'), 'utf8')).toBe(post('My first post'))
    expect(await readFile(join(project.root, FOLDER, 'my-first-post-1.md'), 'utf8')).toBe(post('My first post'))
    await expect(save('', { ...base, title: '日本語' })).rejects.toThrow(
      'The title gives no file name (letters or digits): fill in Slug, like my-first-post.',
    )
    const long = 'x'.repeat(121)
    await expect(save(long, { ...base, slug: long })).rejects.toThrow(
      'The file name would have 121 characters; a slug has at most 120: fill in a shorter Slug.',
    )
  })
})
