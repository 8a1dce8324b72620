import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { itemFile, listFile, MANIFEST_FILE } from '../../../contract/paths.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { hashTree } from '../../helpers/files.ts'

describe('build output of the sample content', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await copyOfFixtureContent()
    await buildSite({ root: project.root, cache: false })
  })
  afterAll(() => project.remove())

  it('is byte-identical on a second build, with or without the render cache', async () => {
    const first = await hashTree(project.dist)
    await buildSite({ root: project.root, force: true })
    const second = await hashTree(project.dist)
    await buildSite({ root: project.root, force: true })
    expect(await hashTree(project.dist)).toEqual(second)
    expect(second).toEqual(first)
  })

  it('has every limit 1..100 of each collection and one file per published item, drafts absent', async () => {
    const manifest = JSON.parse(await readFile(join(project.dist, MANIFEST_FILE), 'utf8'))
    for (const collection of COLLECTION_NAMES) {
      const sources = (await readdir(join(project.root, 'content', collection))).filter((n) => n.endsWith('.md'))
      const drafts: string[] = []
      for (const name of sources) {
        if (/^draft:\s*true\s*$/m.test(await readFile(join(project.root, 'content', collection, name), 'utf8')))
          drafts.push(name)
      }
      const published = sources.length - drafts.length
      expect(manifest.build.counts[collection]).toBe(published)
      for (let limit = 1; limit <= 100; limit++) {
        const list = JSON.parse(await readFile(join(project.dist, listFile(collection, limit)), 'utf8'))
        expect(list.meta).toEqual({
          limit,
          page: 1,
          count: Math.min(limit, published),
          total: published,
          pages: Math.ceil(published / limit),
        })
      }
      const items = (await readdir(join(project.dist, 'api', collection))).filter((n) => n.endsWith('.json'))
      expect(items).toHaveLength(published)
      for (const draft of drafts) {
        const slug = draft.replace(/\.md$/, '')
        await expect(readFile(join(project.dist, itemFile(collection, slug)))).rejects.toThrow()
        expect(JSON.stringify(manifest.collections[collection])).not.toContain(`"slug":"${slug}"`)
      }
    }
    expect(Object.values(manifest.build.counts).reduce((a: number, b) => a + (b as number), 0)).toBeGreaterThanOrEqual(
      34,
    )
  })

  it('writes records in the shape of the product contract, newest first', async () => {
    const list = JSON.parse(await readFile(join(project.dist, listFile('events', 100)), 'utf8'))
    const starts = list.data.map((e: { starts_at: string }) => Date.parse(e.starts_at))
    expect(starts).toEqual([...starts].sort((a, b) => b - a))
    const first = list.data[0]
    expect(Object.keys(first).slice(0, 11)).toEqual([
      'id',
      'type',
      'slug',
      'title',
      'summary',
      'url',
      'tags',
      'published_at',
      'updated_at',
      'expires_at',
      'image',
    ])
    expect(first).not.toHaveProperty('body')
    const item = JSON.parse(await readFile(join(project.dist, itemFile('events', first.slug)), 'utf8'))
    expect(item).toMatchObject({ id: first.id, type: 'event', slug: first.slug })
    expect(Object.keys(item.body)).toEqual(['html', 'markdown', 'text', 'tree'])
    expect(item.word_count).toBeGreaterThan(0)
    expect(item.reading_time_minutes).toBeGreaterThanOrEqual(1)
    expect(item.url).toBe(`https://www.tidewater.example/events/${first.slug}`)
  })
})
