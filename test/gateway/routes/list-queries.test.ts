/**
 * The list queries real sites make — `fields`, `sort`, `author`,
 * `published_after`/`published_before`, several tags, `exclude` — on the
 * repository's content through the whole gateway: each parameter against
 * what the full list says, each bad value a 400 naming it, combinations with
 * their paging totals and Link headers, sparse items, ETag/304 and cache
 * headers on the computed answers, and every answer checked against the
 * OpenAPI document. (`when=upcoming|past` across a start: when.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { COLLECTION_NAMES, COLLECTIONS } from '../../helpers/site.ts'
import { CACHE } from '../../../contract/headers.ts'
import { personSlug } from '../../../contract/people.ts'
import { recordFields, type ContentRecord } from '../../../contract/records.ts'
import { queryGuide } from '../../../build/openapi/guide.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture } from '../../helpers/project.ts'

// Far more computed answers than one client's budget allows: the budget is not what this tests.
const ctx = useBuiltGateway(copyOfBuiltFixture, { env: { COMPUTED_RATE_LIMIT_PER_MINUTE: '0' } })

type Person = { name: string; slug: string }
type Item = ContentRecord & { authors?: Person[]; speakers?: Person[]; starts_at?: string }
type List = {
  data: Item[]
  meta: { limit: number; page: number; count: number; total: number; pages: number }
  links: { self: string; next: string | null; prev: string | null }
}
type Problem = { type: string; detail: string; errors: { parameter: string; message: string }[] }

async function get(path: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(`${ctx.gateway.url}${path}`, init)
  await assertMatchesContract('GET', path, response)
  return response
}

async function list(path: string): Promise<{ response: Response; body: List }> {
  const response = await get(path)
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200)
  return { response, body: (await response.clone().json()) as List }
}

const all = async (collection: string) => (await list(`/api/${collection}?limit=100`)).body.data
const slugs = (items: readonly { slug: string }[]) => items.map((i) => i.slug)
const peopleOf = (item: Item) => [...(item.authors ?? []), ...(item.speakers ?? [])]

describe('people', () => {
  it('every author and speaker has a slug made from the name', async () => {
    for (const collection of COLLECTION_NAMES)
      for (const item of await all(collection))
        for (const person of peopleOf(item)) expect(person.slug).toBe(personSlug(person.name))
  })

  it('personSlug takes accents and letters of other alphabets apart, and names without Latin letters get a hash', () => {
    expect(personSlug('José Núñez')).toBe('jose-nunez')
    expect(personSlug('Łukasz Wiśniewski')).toBe('lukasz-wisniewski')
    expect(personSlug('Dr. Ingrid Sæther')).toBe('dr-ingrid-saether')
    expect(personSlug('Søren Kierkegaard-Holm')).toBe('soren-kierkegaard-holm')
    expect(personSlug('山田太郎')).toMatch(/^person-[0-9a-f]{12}$/)
    expect(personSlug('山田太郎')).toBe(personSlug(' 山田太郎 '))
  })
})

describe('author', () => {
  it.each([
    ['blog-posts', 'authors'],
    ['webinars', 'speakers'],
    ['events', 'speakers'],
  ] as const)('%s: by slug or by name, only items listing the person among its %s', async (collection, _field) => {
    const items = await all(collection)
    const people = new Map(items.flatMap(peopleOf).map((p) => [p.slug, p.name]))
    expect(people.size).toBeGreaterThan(0)
    for (const [slug, name] of people) {
      const expected = slugs(items.filter((i) => peopleOf(i).some((p) => p.slug === slug)))
      const bySlug = await list(`/api/${collection}?limit=100&author=${slug}`)
      expect(slugs(bySlug.body.data), slug).toEqual(expected)
      expect(bySlug.response.headers.get('x-total-count')).toBe(String(expected.length))
      const byName = await list(`/api/${collection}?limit=100&author=${encodeURIComponent(name.toUpperCase())}`)
      expect(slugs(byName.body.data), name).toEqual(expected)
      // The link names the person by slug, whatever the request wrote.
      expect(byName.body.links.self).toBe(`/api/${collection}?limit=100&author=${slug}`)
    }
  })

  it('finds José Núñez on posts and webinars alike, and nobody for a stranger', async () => {
    expect(slugs((await list('/api/blog-posts?author=jose-nunez&limit=100')).body.data)).toContain(
      'data-contracts-in-ci',
    )
    expect(slugs((await list('/api/webinars?author=Jos%C3%A9%20N%C3%BA%C3%B1ez')).body.data)).toContain(
      'data-contracts-101',
    )
    expect(slugs((await list('/api/events?author=lukasz-wisniewski')).body.data)).toEqual(['lineage-office-hours-2027'])
    expect((await list('/api/blog-posts?author=nobody-at-all')).body.meta).toMatchObject({ total: 0, pages: 0 })
  })
})

describe('tag', () => {
  it('with several, keeps items with any of them, in any case', async () => {
    const items = await all('case-studies')
    const [a, b] = [...new Set(items.flatMap((i) => i.tags))]
    const expected = slugs(items.filter((i) => i.tags.includes(a!) || i.tags.includes(b!)))
    const { body, response } = await list(`/api/case-studies?limit=100&tag=${a},${b!.toUpperCase()}`)
    expect(slugs(body.data)).toEqual(expected)
    expect(expected.length).toBeGreaterThan(items.filter((i) => i.tags.includes(a!)).length - 1)
    expect(response.headers.get('x-total-count')).toBe(String(expected.length))
    expect(body.links.self).toBe(`/api/case-studies?limit=100&tag=${a},${b}`)
  })
})

describe('published_after and published_before', () => {
  it.each(COLLECTION_NAMES)('%s: a date is a whole UTC day, a date-time an instant', async (collection) => {
    const items = await all(collection)
    const days = [...new Set(items.map((i) => i.published_at.slice(0, 10)))].sort()
    const day = days[Math.floor(days.length / 2)]!
    const midnight = Date.parse(`${day}T00:00:00Z`)
    const at = (i: Item) => Date.parse(i.published_at)
    const after = await list(`/api/${collection}?limit=100&published_after=${day}`)
    expect(slugs(after.body.data)).toEqual(slugs(items.filter((i) => at(i) >= midnight + 86_400_000)))
    const before = await list(`/api/${collection}?limit=100&published_before=${day}`)
    expect(slugs(before.body.data)).toEqual(slugs(items.filter((i) => at(i) < midnight)))
    // The items of that day are in neither.
    const onTheDay = items.filter((i) => i.published_at.startsWith(day))
    expect(onTheDay.length).toBeGreaterThan(0)
    expect(after.body.meta.total + before.body.meta.total + onTheDay.length).toBe(items.length)
    // A date-time is strict on both sides, and an offset names the same instant.
    const instant = items[Math.floor(items.length / 2)]!.published_at
    const strict = await list(`/api/${collection}?limit=100&published_after=${encodeURIComponent(instant)}`)
    expect(slugs(strict.body.data)).toEqual(slugs(items.filter((i) => at(i) > Date.parse(instant))))
    const shifted = `${new Date(Date.parse(instant) + 7_200_000).toISOString().slice(0, 19)}+02:00`
    const same = await list(`/api/${collection}?limit=100&published_after=${encodeURIComponent(shifted)}`)
    expect(same.body.data).toEqual(strict.body.data)
    expect(same.body.links.self).toBe(strict.body.links.self)
  })

  it('an item published on a date (its midnight) is after the day before and before the day after, in neither on its own', async () => {
    const items = await all('blog-posts')
    const dated = items.find((i) => i.published_at.endsWith('T00:00:00Z'))!
    const day = dated.published_at.slice(0, 10)
    const shift = (days: number) =>
      new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
    const found = async (query: string) =>
      slugs((await list(`/api/blog-posts?limit=100&${query}`)).body.data).includes(dated.slug)
    expect(await found(`published_after=${shift(-1)}`)).toBe(true)
    expect(await found(`published_after=${day}`)).toBe(false)
    expect(await found(`published_before=${shift(1)}`)).toBe(true)
    expect(await found(`published_before=${day}`)).toBe(false)
    expect(await found(`published_after=${shift(-1)}&published_before=${shift(1)}`)).toBe(true)
  })

  it('together make a range: a quarter', async () => {
    const items = await all('blog-posts')
    const { body } = await list('/api/blog-posts?limit=100&published_after=2025-12-31&published_before=2026-04-01')
    expect(slugs(body.data)).toEqual(
      slugs(items.filter((i) => i.published_at >= '2026-01-01' && i.published_at < '2026-04-01')),
    )
    expect(body.meta.total).toBeGreaterThan(0)
  })
})

describe('exclude', () => {
  it('leaves one item out and nothing else', async () => {
    const items = await all('blog-posts')
    const { body } = await list(`/api/blog-posts?limit=100&exclude=${items[0]!.slug}`)
    expect(slugs(body.data)).toEqual(slugs(items.slice(1)))
    expect((await list('/api/blog-posts?limit=100&exclude=no-such-item')).body.meta.total).toBe(items.length)
  })
})

describe('sort', () => {
  it.each(COLLECTION_NAMES)('%s: each key both ways, ties in the default order', async (collection) => {
    const items = await all(collection)
    for (const key of COLLECTIONS[collection]!.sortKeys) {
      const value = (i: Item) => String(i[key])
      const compare = (a: Item, b: Item) =>
        key === 'title'
          ? a.title.localeCompare(b.title, 'en', { sensitivity: 'base', numeric: true })
          : Date.parse(value(a)) - Date.parse(value(b))
      const ascending = [...items].sort(compare)
      const descending = [...items].sort((a, b) => compare(b, a))
      expect(slugs((await list(`/api/${collection}?limit=100&sort=${key}`)).body.data), key).toEqual(slugs(ascending))
      expect(slugs((await list(`/api/${collection}?limit=100&sort=-${key}`)).body.data), `-${key}`).toEqual(
        slugs(descending),
      )
    }
  })

  it('with several keys, the first decides where it can (ties: test/contract/list-query.test.ts); no sort is the default order', async () => {
    const items = await all('blog-posts')
    const sorted = await list('/api/blog-posts?limit=100&sort=published_at,title')
    expect(slugs(sorted.body.data)).toEqual(slugs([...items].reverse()))
    expect(slugs((await list('/api/blog-posts?limit=100&sort=-published_at')).body.data)).toEqual(slugs(items))
  })
})

describe('fields', () => {
  it.each(COLLECTION_NAMES)('%s: lists carry only the fields asked for, and id and type', async (collection) => {
    const { body } = await list(`/api/${collection}?limit=5&fields=image,title,slug`)
    expect(body.data.length).toBe(5)
    for (const item of body.data) expect(Object.keys(item)).toEqual(['id', 'type', 'slug', 'title', 'image'])
    const whole = (await list(`/api/${collection}?limit=5`)).body.data
    expect(body.data).toEqual(whole.map(({ id, type, slug, title, image }) => ({ id, type, slug, title, image })))
    expect(body.links.self).toBe(`/api/${collection}?limit=5&fields=image,title,slug`)
  })

  it.each(COLLECTION_NAMES)(
    '%s: an item carries only the fields asked for, the body among them',
    async (collection) => {
      const { slug } = (await all(collection))[0]!
      const full = (await (await get(`/api/${collection}/${slug}`)).json()) as Record<string, unknown>
      const response = await get(`/api/${collection}/${slug}?fields=body,word_count,title`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({
        id: full.id,
        type: full.type,
        title: full.title,
        word_count: full.word_count,
        body: full.body,
      })
      expect(response.headers.get('cache-control')).toBe(CACHE.content)
      const etag = response.headers.get('etag')!
      const again = await get(`/api/${collection}/${slug}?fields=body,word_count,title`, {
        headers: { 'if-none-match': etag },
      })
      expect(again.status).toBe(304)
      expect(recordFields(COLLECTIONS[collection]!, 'full')).toEqual(Object.keys(full))
    },
  )

  it('an unknown field is a 400 that lists the fields; an unknown item is still a 404', async () => {
    const response = await get('/api/events?fields=title,rank')
    expect(response.status).toBe(400)
    const problem = (await response.json()) as Problem
    expect(problem.type).toBe('/problems/invalid-parameter')
    expect(problem.errors).toEqual([{ parameter: 'fields', message: expect.stringContaining('"rank"') }])
    expect(problem.errors[0]!.message).toContain(recordFields(COLLECTIONS.events!, 'summary').join(', '))
    const item = await get('/api/events/no-such-event?fields=title')
    expect(item.status).toBe(404)
    const body = await get('/api/events?fields=body')
    expect(((await body.json()) as Problem).errors[0]!.parameter).toBe('fields')
  })

  it.each(COLLECTION_NAMES)(
    '%s: an unknown field on an item is a 400 naming fields and the item’s fields, never the item',
    async (collection) => {
      const { slug } = (await all(collection))[0]!
      const response = await get(`/api/${collection}/${slug}?fields=title,nope`)
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      const problem = (await response.json()) as Problem & { status: number; title: string }
      expect(problem).toMatchObject({ type: '/problems/invalid-parameter', status: 400 })
      expect(problem.detail).toContain('fields')
      expect(problem.errors).toEqual([{ parameter: 'fields', message: expect.stringContaining('"nope"') }])
      // The item's own fields (the body among them), not the list's.
      expect(problem.errors[0]!.message).toContain(recordFields(COLLECTIONS[collection]!, 'full').join(', '))
      expect(problem).not.toHaveProperty('slug')
    },
  )
})

describe('combinations, paging and links', () => {
  it('filters, order and fields together: totals, pages, Link and links that carry them all', async () => {
    const items = await all('blog-posts')
    const tags = [...new Set(items.flatMap((i) => i.tags))].slice(0, 3)
    const kept = items
      .filter((i) => i.tags.some((t) => tags.includes(t)) && i.published_at > '2025-06-01' && i.slug !== items[1]!.slug)
      .sort((a, b) => a.title.localeCompare(b.title, 'en', { sensitivity: 'base', numeric: true }))
    expect(kept.length).toBeGreaterThan(4)
    const query = `tag=${tags.join(',')}&published_after=2025-05-31&exclude=${items[1]!.slug}&sort=title&fields=title`
    const first = await list(`/api/blog-posts?limit=2&${query}`)
    expect(first.body.meta).toEqual({
      limit: 2,
      page: 1,
      count: 2,
      total: kept.length,
      pages: Math.ceil(kept.length / 2),
    })
    expect(first.response.headers.get('x-total-count')).toBe(String(kept.length))
    expect(first.body.links.self).toBe(`/api/blog-posts?limit=2&${query}`)
    expect(first.body.links.next).toBe(`/api/blog-posts?limit=2&page=2&${query}`)
    expect(first.response.headers.get('link')).toBe(`</api/blog-posts?limit=2&page=2&${query}>; rel="next"`)
    // Following next to the end gives each kept item once, in order.
    const seen: string[] = []
    let next: string | null = first.body.links.self
    while (next) {
      const page = await list(next)
      seen.push(...page.body.data.map((i) => String(i.title)))
      if (page.body.links.next) expect(page.response.headers.get('link')).toContain('rel="next"')
      if (page.body.links.prev)
        expect(page.response.headers.get('link')).toContain(`<${page.body.links.prev}>; rel="prev"`)
      next = page.body.links.next
    }
    expect(seen).toEqual(kept.map((i) => i.title))
    const past = await list(`/api/blog-posts?limit=2&page=99&${query}`)
    expect(past.body.data).toEqual([])
    expect(past.body.links.prev).toBe(`/api/blog-posts?limit=2&page=${Math.ceil(kept.length / 2)}&${query}`)
  })

  it('computed answers are cacheable: strong ETag, 304, the content Cache-Control, and the same bytes again', async () => {
    const path = '/api/webinars?author=jose-nunez&sort=starts_at&fields=title,starts_at'
    const first = await get(path)
    const etag = first.headers.get('etag')!
    expect(first.headers.get('cache-control')).toBe(CACHE.content)
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    const again = await get(path)
    expect(await again.text()).toBe(await first.text())
    expect((await get(path, { headers: { 'if-none-match': etag } })).status).toBe(304)
  })
})

describe('bad values', () => {
  it.each([
    ['blog-posts', 'tag=a,,b', 'tag'],
    ['blog-posts', `tag=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, 'tag'],
    ['blog-posts', 'published_after=last-week', 'published_after'],
    ['blog-posts', 'published_before=2026-02-30', 'published_before'],
    ['blog-posts', 'published_after=2026-03-01T10:00:00+01:00', 'published_after'],
    ['blog-posts', 'author=%20%20', 'author'],
    ['blog-posts', `author=${'x'.repeat(121)}`, 'author'],
    ['case-studies', 'author=jose-nunez', 'author'],
    ['blog-posts', 'when=upcoming', 'when'],
    ['events', 'when=tomorrow', 'when'],
    ['events', 'exclude=Not_A_Slug', 'exclude'],
    ['events', 'sort=rank', 'sort'],
    ['blog-posts', 'sort=starts_at', 'sort'],
    ['events', 'sort=title,-title', 'sort'],
    ['events', 'sort=', 'sort'],
    ['events', 'fields=', 'fields'],
    ['events', 'sort=title&sort=-title', 'sort'],
  ])('%s?%s is a 400 naming %s', async (collection, query, parameter) => {
    const response = await get(`/api/${collection}?${query}`)
    expect(response.status).toBe(400)
    const problem = (await response.json()) as Problem
    expect(problem.type).toBe('/problems/invalid-parameter')
    expect(problem.errors.map((e) => e.parameter)).toEqual([parameter])
    expect(problem.detail).toContain(parameter)
  })

  it('says what is valid: the sort keys, the two moments, the collections with people, the + that arrived as a space', async () => {
    const message = async (path: string) => ((await (await get(path)).json()) as Problem).errors[0]!.message
    expect(await message('/api/events?sort=rank')).toContain('starts_at, ends_at, published_at, updated_at, title')
    expect(await message('/api/events?when=soon')).toContain('upcoming or past')
    expect(await message('/api/case-studies?author=x')).toContain('blog-posts')
    expect(await message('/api/events?published_after=2026-03-01T10:00:00+01:00')).toContain('%2B')
  })

  it('reports every bad parameter at once', async () => {
    const response = await get('/api/events?sort=rank&fields=x&when=soon&tag=!')
    expect(((await response.json()) as Problem).errors.map((e) => e.parameter).sort()).toEqual([
      'fields',
      'sort',
      'tag',
      'when',
    ])
  })
})

describe('the examples of the reference (/docs/, llms-full.txt)', () => {
  const examples = [...queryGuide().matchAll(/\| `(\/api\/[^`]+)` \|/g)].map((m) => m[1]!)

  it.each(examples)('%s answers, and finds something', async (path) => {
    const response = await get(path)
    expect(response.status).toBe(200)
    const body = (await response.json()) as List | Record<string, unknown>
    // Which events and webinars are upcoming depends on the day the test runs; the rest always finds items.
    if ('data' in body && !path.includes('when=')) expect((body as List).data.length, path).toBeGreaterThan(0)
  })

  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(6)
  })
})
