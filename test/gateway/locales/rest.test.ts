/**
 * The REST API of a multilingual build, over HTTP: lists and items per
 * locale (pre-rendered files, and the long tail), `?locale=`, Accept-Language
 * negotiation with Content-Language and Vary, fallbacks, and each record's
 * translations for hreflang. The default locale's answers stay what they were.
 */
import { describe, expect, it } from 'vitest'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfLocaleFixture } from '../../helpers/project.ts'

const ctx = useBuiltGateway(copyOfLocaleFixture)
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${ctx.gateway.url}${path}`, { headers })
const json = async (path: string, headers: Record<string, string> = {}) => {
  const res = await get(path, headers)
  expect(res.status, path).toBe(200)
  return (await res.json()) as { data: Record<string, unknown>[]; links: Record<string, string | null> } & Record<
    string,
    unknown
  >
}

describe('lists per locale', () => {
  it('the default locale lists only its own items, each naming its locale and translations', async () => {
    const res = await get('/api/blog-posts?limit=100')
    expect(res.headers.get('content-language')).toBe('en')
    expect(res.headers.get('vary')).toBe('Accept-Language')
    const body = (await res.json()) as { data: { slug: string; locale: string; translations: unknown[] }[] }
    expect(body.data.every((r) => r.locale === 'en')).toBe(true)
    expect(body.data.map((r) => r.slug)).not.toContain('datenqualitaet-im-mittelstand')
    const post = body.data.find((r) => r.slug === 'data-contracts-in-ci')!
    expect(post.translations).toEqual([
      {
        locale: 'de',
        slug: 'datenvertraege-in-der-ci',
        url: 'https://www.tidewater.example/de/blog/datenvertraege-in-der-ci',
      },
      {
        locale: 'fr',
        slug: 'contrats-de-donnees-en-ci',
        url: 'https://www.tidewater.example/fr/blog/contrats-de-donnees-en-ci',
      },
    ])
  })

  it('German falls back: its translations, its own items, and the English items it lacks', async () => {
    const res = await get('/api/blog-posts?locale=de&limit=100')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-language')).toBe('de')
    expect(res.headers.get('vary')).toBeNull()
    const body = (await res.json()) as { data: { slug: string; locale: string }[]; links: { self: string } }
    const en = await json('/api/blog-posts?limit=100')
    const slugs = body.data.map((r) => r.slug)
    expect(slugs).toContain('datenvertraege-in-der-ci')
    expect(slugs).toContain('datenqualitaet-im-mittelstand')
    expect(slugs).not.toContain('data-contracts-in-ci')
    expect(slugs).toContain('dbt-tests-are-not-enough')
    // Every English item once, in German where it is translated, plus the German-only one.
    expect(body.data.length).toBe(en.data.length + 1)
    expect(body.data.find((r) => r.slug === 'dbt-tests-are-not-enough')!.locale).toBe('en')
    expect(body.links.self).toBe('/api/blog-posts?limit=100&locale=de')
  })

  it('French does not fall back: only what was translated', async () => {
    const body = await json('/api/blog-posts?locale=fr')
    expect(body.data.map((r) => r.slug)).toEqual(['contrats-de-donnees-en-ci'])
    const events = await json('/api/events?locale=FR')
    expect(events.data.map((r) => [r.slug, r.locale])).toEqual([['roadshow-tidewater-zurich-2027', 'fr']])
  })

  it('the long tail keeps the locale in its links and answers the same records', async () => {
    const page1 = await json('/api/blog-posts?locale=de&limit=3')
    const page2 = await json('/api/blog-posts?locale=de&limit=3&page=2')
    expect(page1.links.next).toBe('/api/blog-posts?limit=3&page=2&locale=de')
    expect(page2.links.prev).toBe('/api/blog-posts?limit=3&locale=de')
    const all = await json('/api/blog-posts?locale=de&limit=6')
    expect([...page1.data, ...page2.data]).toEqual(all.data)
    const tagged = await json('/api/blog-posts?locale=de&tag=data-quality')
    expect(tagged.data.map((r) => r.slug)).toContain('datenqualitaet-im-mittelstand')
  })

  it('an unknown or repeated locale is a 400 naming the parameter', async () => {
    for (const query of ['locale=it', 'locale=de&locale=fr', 'locale=%20']) {
      const res = await get(`/api/blog-posts?${query}`)
      expect(res.status, query).toBe(400)
      const problem = (await res.json()) as { errors: { parameter: string; message: string }[] }
      expect(problem.errors[0]!.parameter).toBe('locale')
    }
    const res = await get('/api/blog-posts?locale=it')
    expect(((await res.json()) as { detail: string }).detail).toMatch(/en, de, fr/)
  })
})

describe('Accept-Language', () => {
  it('chooses the best of the site locales, with Content-Language and Vary', async () => {
    const cases: [string, string][] = [
      ['de-CH, en;q=0.5', 'de'],
      ['it, fr;q=0.8, de;q=0.7', 'fr'],
      ['it', 'en'],
      ['*', 'en'],
      ['fr;q=0, de;q=0.1', 'de'],
    ]
    for (const [header, locale] of cases) {
      const res = await get('/api/blog-posts?limit=5', { 'accept-language': header })
      expect(res.headers.get('content-language'), header).toBe(locale)
      expect(res.headers.get('vary'), header).toBe('Accept-Language')
      const body = (await res.json()) as { links: { self: string } }
      // The negotiated answer is the explicit locale's, byte for byte.
      const explicit = await get(`/api/blog-posts?limit=5&locale=${locale}`)
      expect(res.headers.get('etag'), header).toBe(explicit.headers.get('etag'))
      expect(body.links.self).toBe(
        locale === 'en' ? '/api/blog-posts?limit=5' : `/api/blog-posts?limit=5&locale=${locale}`,
      )
    }
  })

  it('a locale parameter wins over Accept-Language and does not vary', async () => {
    const res = await get('/api/blog-posts?locale=fr', { 'accept-language': 'de' })
    expect(res.headers.get('content-language')).toBe('fr')
    expect(res.headers.get('vary')).toBeNull()
  })

  it('an item found by its English slug answers in the reader language, or in English when untranslated', async () => {
    const de = await get('/api/blog-posts/data-contracts-in-ci', { 'accept-language': 'de-DE' })
    expect(de.headers.get('content-language')).toBe('de')
    expect(de.headers.get('vary')).toBe('Accept-Language')
    expect(((await de.json()) as { slug: string }).slug).toBe('datenvertraege-in-der-ci')
    const fr = await get('/api/blog-posts/dbt-tests-are-not-enough', { 'accept-language': 'fr' })
    expect(fr.status).toBe(200)
    expect(fr.headers.get('content-language')).toBe('en')
  })
})

describe('items per locale', () => {
  it('a translation by its own slug, with its related items in its locale and its translations', async () => {
    const res = await get('/api/blog-posts/datenvertraege-in-der-ci?locale=de')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-language')).toBe('de')
    const item = (await res.json()) as Record<string, unknown>
    expect(item).toMatchObject({
      slug: 'datenvertraege-in-der-ci',
      locale: 'de',
      url: 'https://www.tidewater.example/de/blog/datenvertraege-in-der-ci',
      title: 'Datenverträge in der CI mit GitHub Actions durchsetzen',
      translations: [
        { locale: 'en', slug: 'data-contracts-in-ci', url: 'https://www.tidewater.example/blog/data-contracts-in-ci' },
        {
          locale: 'fr',
          slug: 'contrats-de-donnees-en-ci',
          url: 'https://www.tidewater.example/fr/blog/contrats-de-donnees-en-ci',
        },
      ],
    })
    // Related: a German item, and (German falls back) an English one without a translation.
    expect((item.related as { slug: string }[]).map((r) => r.slug)).toEqual([
      'tidewater-cloud-eu-region-frankfurt',
      'dbt-tests-are-not-enough',
    ])
    const en = (await json('/api/blog-posts/data-contracts-in-ci')) as Record<string, unknown>
    expect(en.id).not.toBe(item.id)
  })

  it('an item in its folder (index.de.md) is a translation like any other', async () => {
    const item = await json('/api/case-studies/nordlicht-energie-lineage?locale=de')
    expect(item).toMatchObject({ locale: 'de', title: expect.stringMatching(/^Nordlicht Energie kartiert/) })
  })

  it('another locale slug of the item answers the version asked for', async () => {
    const item = await json('/api/blog-posts/data-contracts-in-ci?locale=fr')
    expect(item.slug).toBe('contrats-de-donnees-en-ci')
  })

  it('fallbacks: German answers the English item it lacks, French is a 404', async () => {
    const de = await get('/api/blog-posts/dbt-tests-are-not-enough?locale=de')
    expect(de.status).toBe(200)
    expect(de.headers.get('content-language')).toBe('en')
    expect(de.headers.get('etag')).toBe((await get('/api/blog-posts/dbt-tests-are-not-enough')).headers.get('etag'))
    const fr = await get('/api/blog-posts/dbt-tests-are-not-enough?locale=fr')
    expect(fr.status).toBe(404)
    expect(((await fr.json()) as { detail: string }).detail).toMatch(/does not fall back/)
  })

  it('a German-only item: in German when asked for, never as English, and negotiated to the one it has', async () => {
    expect((await get('/api/blog-posts/datenqualitaet-im-mittelstand?locale=de')).status).toBe(200)
    const en = await get('/api/blog-posts/datenqualitaet-im-mittelstand?locale=en')
    expect(en.status).toBe(404)
    // The default locale is what others fall back to: nothing to say of its own fallback.
    expect(((await en.json()) as { detail: string }).detail).toBe(
      'No published blog-posts item has the slug "datenqualitaet-im-mittelstand" in en. List /api/blog-posts?locale=en to find slugs.',
    )
    // Accept-Language is a preference: the item is answered in the one locale it has, and says so.
    const res = await get('/api/blog-posts/datenqualitaet-im-mittelstand', { 'accept-language': 'en' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-language')).toBe('de')
    expect(res.headers.get('vary')).toBe('Accept-Language')
  })
})

describe('feeds per locale', () => {
  it('/feeds/de/ has the German lists in German, with their own self links', async () => {
    const res = await get('/feeds/de/blog-posts.json')
    expect(res.status).toBe(200)
    const feed = (await res.json()) as { language: string; feed_url: string; items: { title: string; url: string }[] }
    expect(feed.language).toBe('de')
    expect(feed.feed_url).toBe('https://api.tidewater.example/feeds/de/blog-posts.json')
    const titles = feed.items.map((i) => i.title)
    expect(titles).toContain('Datenverträge in der CI mit GitHub Actions durchsetzen')
    expect(titles).not.toContain('Enforcing data contracts in CI with GitHub Actions')
    const rss = await (await get('/feeds/fr/all.xml')).text()
    expect(rss).toContain('<language>fr</language>')
    expect(rss).toContain('Faire respecter les contrats de données')
    // The default feeds are the default locale's alone.
    const en = await (await get('/feeds/blog-posts.json')).json()
    expect((en as { language: string }).language).toBe('en')
  })
})

describe('llms-full.txt per locale', () => {
  it('llms.txt names each locale reference; llms-full.de.txt holds the German content', async () => {
    expect(await (await get('/llms.txt')).text()).toContain('(/llms-full.de.txt)')
    const res = await get('/llms-full.de.txt')
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('# Published content (de)')
    expect(text).toContain('### Datenverträge in der CI mit GitHub Actions durchsetzen')
    expect(text).toContain('API: /api/blog-posts/datenvertraege-in-der-ci?locale=de')
    // German falls back: the English items it lacks are there, read without a locale.
    expect(text).toContain('API: /api/blog-posts/dbt-tests-are-not-enough\n')
    const fr = await (await get('/llms-full.fr.txt')).text()
    expect(fr).not.toContain('API: /api/blog-posts/dbt-tests-are-not-enough\n')
  })
})

describe('calendars per locale', () => {
  it('/calendar/fr/ has the French events only; German falls back to the English ones', async () => {
    const fr = await get('/calendar/fr/events.ics')
    expect(fr.status).toBe(200)
    const text = await fr.text()
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1)
    expect(text).toContain('Suisse')
    expect((await get('/calendar/fr/events/roadshow-tidewater-zurich-2027.ics')).status).toBe(200)
    const de = await (await get('/calendar/de/events.ics')).text()
    const en = await (await get('/calendar/events.ics')).text()
    expect(de.match(/BEGIN:VEVENT/g)?.length).toBe(en.match(/BEGIN:VEVENT/g)?.length)
  })
})
