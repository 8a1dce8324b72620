/**
 * Tags and people over real HTTP on the fixture content: every tag's counts
 * equal the totals of the filtered lists, per collection and in total; a
 * tag's items and a person's items are exactly the items carrying the tag
 * or naming the person, newest first, paginated; declared labels show, an
 * undeclared tag is its own label; pre-rendered answers are the build's
 * files. Every answer is checked against the OpenAPI document.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CollectionName } from '../../../contract/model/model.ts'
import { COLLECTION_NAMES, COLLECTIONS } from '../../helpers/site.ts'
import type { PeopleEnvelope, PersonItemsEnvelope } from '../../../contract/people-index.ts'
import { tagsFile, type TagItemsEnvelope, type TagsEnvelope } from '../../../contract/tags.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent } from '../../helpers/project.ts'

type Item = { type: string; slug: string; tags: string[]; published_at: string } & Record<string, unknown>

let gw: BuiltGateway
/** Every published item of every collection, by collection. */
const all = {} as Record<CollectionName, Item[]>

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${gw.url}${path}`)
  await assertMatchesContract('GET', path, response.clone())
  expect(response.status, path).toBe(200)
  return (await response.json()) as T
}

const key = (r: { type: string; slug: string }) => `${r.type}/${r.slug}`
const newestFirst = (items: readonly Item[]) =>
  items.map((r) => Date.parse(r.published_at)).every((t, i, times) => i === 0 || times[i - 1]! >= t)

beforeAll(async () => {
  const project = await copyOfFixtureContent()
  const site = await readFile(join(project.root, 'content/site.yaml'), 'utf8')
  await project.write(
    'content/site.yaml',
    `${site}tags:\n  lineage: { label: Data lineage, description: Where data comes from and where it goes. }\n  dbt: dbt\n`,
  )
  gw = await startBuiltGateway({ project })
  for (const c of COLLECTION_NAMES) all[c] = (await get<{ data: Item[] }>(`/api/${c}?limit=100`)).data
}, 120_000)
afterAll(async () => {
  await gw?.close()
  await gw?.project.remove()
})

describe('GET /api/tags', () => {
  it('counts each tag as the filtered lists total it, per collection and in total, highest first then by name', async () => {
    const { data, meta } = await get<TagsEnvelope>('/api/tags')
    expect(meta.count).toBe(data.length)
    const used = new Set(COLLECTION_NAMES.flatMap((c) => all[c]!.flatMap((r) => r.tags)))
    expect(new Set(data.map((t) => t.tag))).toEqual(used)
    for (const entry of data) {
      let total = 0
      for (const c of COLLECTION_NAMES) {
        const list = await fetch(`${gw.url}/api/${c}?tag=${entry.tag}&limit=1`)
        const listed = Number(list.headers.get('x-total-count'))
        expect(entry.counts[c], `${entry.tag} in ${c}`).toBe(listed)
        total += listed
      }
      expect(entry.count, entry.tag).toBe(total)
    }
    for (let i = 1; i < data.length; i++) {
      const [a, b] = [data[i - 1]!, data[i]!]
      expect(a.count > b.count || (a.count === b.count && a.tag < b.tag), `${a.tag} before ${b.tag}`).toBe(true)
    }
  })

  it('narrows to one collection with collection=, and shows the declared labels', async () => {
    for (const c of COLLECTION_NAMES) {
      const { data } = await get<TagsEnvelope>(`/api/tags?collection=${c}`)
      expect(new Set(data.map((t) => t.tag))).toEqual(new Set(all[c]!.flatMap((r) => r.tags)))
      for (const entry of data) expect(Object.keys(entry.counts)).toEqual([c])
    }
    const { data } = await get<TagsEnvelope>('/api/tags')
    expect(data.find((t) => t.tag === 'lineage')).toMatchObject({
      label: 'Data lineage',
      description: 'Where data comes from and where it goes.',
    })
    const undeclared = data.find((t) => t.tag !== 'lineage' && t.tag !== 'dbt')!
    expect(undeclared).toMatchObject({ label: undeclared.tag, description: null })
    expect((await fetch(`${gw.url}/api/tags?collection=nope`)).status).toBe(400)
  })

  it('answers with the pre-rendered file, byte for byte', async () => {
    const file = await readFile(join(gw.project.dist, tagsFile(undefined)), 'utf8')
    expect(await (await fetch(`${gw.url}/api/tags`)).text()).toBe(file)
  })
})

describe('GET /api/tags/{tag}', () => {
  it('lists exactly the items with the tag across collections, each with its type, newest first', async () => {
    const { data: tags } = await get<TagsEnvelope>('/api/tags')
    for (const { tag, count } of tags) {
      const page = await get<TagItemsEnvelope>(`/api/tags/${tag}?limit=100`)
      const expected = COLLECTION_NAMES.flatMap((c) => all[c]!.filter((r) => r.tags.includes(tag)))
      expect(new Set(page.data.map((r) => key(r as Item))), tag).toEqual(new Set(expected.map(key)))
      expect(page.meta.total).toBe(count)
      expect(page.tag.tag).toBe(tag)
      expect(newestFirst(page.data as Item[]), tag).toBe(true)
    }
  })

  it('pages with limit and page (links chain to the same items), filters by date, and 404s an unknown tag', async () => {
    const { data: tags } = await get<TagsEnvelope>('/api/tags')
    const busiest = tags[0]!
    expect(busiest.count).toBeGreaterThan(1)
    const whole = await get<TagItemsEnvelope>(`/api/tags/${busiest.tag}?limit=100`)
    const paged: string[] = []
    let next: string | null = `/api/tags/${busiest.tag}?limit=1`
    while (next) {
      const page: TagItemsEnvelope = await get<TagItemsEnvelope>(next)
      paged.push(...page.data.map((r) => key(r as Item)))
      next = page.links.next
    }
    expect(paged).toEqual(whole.data.map((r) => key(r as Item)))
    const cut = (whole.data[0] as Item).published_at
    const older = await get<TagItemsEnvelope>(`/api/tags/${busiest.tag}?published_before=${cut}`)
    expect(older.data.every((r) => (r as Item).published_at < cut)).toBe(true)
    const unknown = await fetch(`${gw.url}/api/tags/no-such-tag`)
    await assertMatchesContract('GET', '/api/tags/no-such-tag', unknown.clone())
    expect(unknown.status).toBe(404)
  })
})

describe('GET /api/people and /api/people/{slug}', () => {
  /** The slugs of the people an item names, in its collection's people fields. */
  const peopleOf = (c: CollectionName, r: Item) =>
    COLLECTIONS[c]!.people.flatMap((f) => {
      const named = r[f] as { slug: string }[] | { slug: string } | undefined
      return (Array.isArray(named) ? named : named ? [named] : []).map((p) => p.slug)
    })

  it('lists everyone an item names, with counts equal to the items naming them', async () => {
    const { data, meta } = await get<PeopleEnvelope>('/api/people')
    expect(meta.count).toBe(data.length)
    const named = new Set(COLLECTION_NAMES.flatMap((c) => all[c]!.flatMap((r) => peopleOf(c, r))))
    expect(new Set(data.map((p) => p.slug))).toEqual(named)
    for (const person of data)
      for (const c of COLLECTION_NAMES)
        expect(person.counts[c], `${person.slug} in ${c}`).toBe(
          all[c]!.filter((r) => peopleOf(c, r).includes(person.slug)).length,
        )
    // A portrait is the processed image object.
    const portrait = data.find((p) => p.avatar)
    expect(portrait?.avatar?.url).toMatch(/\/media\//)
  })

  it("gives a person's page exactly the items naming them, newest first, and 404s a slug no item names", async () => {
    const { data } = await get<PeopleEnvelope>('/api/people')
    for (const { slug, count } of data) {
      const page = await get<PersonItemsEnvelope>(`/api/people/${slug}?limit=100`)
      const expected = COLLECTION_NAMES.flatMap((c) => all[c]!.filter((r) => peopleOf(c, r).includes(slug)))
      expect(page.data.map((r) => key(r as Item)).sort(), slug).toEqual(expected.map(key).sort())
      expect(page.meta.total).toBe(count)
      expect(newestFirst(page.data as Item[]), slug).toBe(true)
    }
    const one = await get<PersonItemsEnvelope>(`/api/people/${data[0]!.slug}?limit=1`)
    expect(one.data).toHaveLength(1)
    const unknown = await fetch(`${gw.url}/api/people/nobody-at-all`)
    await assertMatchesContract('GET', '/api/people/nobody-at-all', unknown.clone())
    expect(unknown.status).toBe(404)
  })
})
