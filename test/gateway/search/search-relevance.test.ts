/**
 * Relevance of the search over the repository's content: for queries a
 * person would type, the item they would expect comes first (or, where two
 * answer it equally, one of them). Covers the title and summary weights,
 * customers' names, accents folded (São Paulo, Saúde), the last word as a
 * prefix, and a misspelt word. Asked through GET /api/search, whose ranking
 * is the MCP search tools' (test/gateway/search/search.test.ts checks that).
 */
import { describe, expect, it } from 'vitest'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture, copyOfLocaleFixture } from '../../helpers/project.ts'

const EXPECTED: [query: string, firstOneOf: string[]][] = [
  ['ledger reconciliation', ['case-studies/meridian-mutual-ledger-reconciliation']],
  ['meridian mutual', ['case-studies/meridian-mutual-ledger-reconciliation']],
  ['ledger reconcilation', ['case-studies/meridian-mutual-ledger-reconciliation']],
  ['kafka schema drift', ['blog-posts/kafka-schema-drift-detection']],
  ['column level lineage from sql', ['blog-posts/column-level-lineage-from-sql']],
  ['snowflake spend', ['blog-posts/snowflake-warehouse-spend-attribution', 'case-studies/cobalt-and-pine-finops']],
  ['incident reviews', ['blog-posts/what-we-learned-from-200-incident-reviews']],
  ['freshness sla', ['blog-posts/why-freshness-slas-fail']],
  ['harborfr', ['case-studies/harborfreight-logistics-incident-time']],
  ['sao paulo summit', ['events/tidewater-summit-sao-paulo-2027']],
  ['vitalis saude', ['case-studies/vitalis-saude-data-contracts']],
  ['data residency eu', ['blog-posts/tidewater-cloud-eu-region']],
  ['black friday anomalies', ['blog-posts/anomaly-detection-seasonality']],
  ['data contracts 101', ['webinars/data-contracts-101']],
]

describe('search relevance on the repository content', () => {
  const ctx = useBuiltGateway(copyOfBuiltFixture)

  it.each(EXPECTED)('"%s" → %s first', async (query, firstOneOf) => {
    const response = await fetch(`${ctx.gateway.url}/api/search?q=${encodeURIComponent(query)}&limit=5`)
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as { data: { collection: string; slug: string }[] }
    const ranked = data.map((h) => `${h.collection}/${h.slug}`)
    expect(firstOneOf, `ranked: ${ranked.join(', ')}`).toContain(ranked[0])
  })
})

/**
 * The same in the reader's language (the locale fixture: German and French
 * translations): each locale's index is stemmed in its language, so a word
 * finds its other forms (Gewohnheit → Gewohnheiten, donnée → données), and
 * accents are folded (Datenqualitat → Datenqualität).
 */
const IN_LOCALE: [locale: string, query: string, firstOneOf: string[]][] = [
  ['de', 'Datenvertrag', ['blog-posts/datenvertraege-in-der-ci']],
  ['de', 'Gewohnheit Datenqualitat', ['blog-posts/datenqualitaet-im-mittelstand']],
  ['de', 'Netzdaten Regulierungsbehörden', ['case-studies/nordlicht-energie-lineage']],
  ['fr', 'contrat de donnée', ['blog-posts/contrats-de-donnees-en-ci']],
  ['fr', 'atelier pratique Zurich', ['events/roadshow-tidewater-zurich-2027']],
]

describe('search relevance in the reader language', () => {
  const ctx = useBuiltGateway(copyOfLocaleFixture)

  it.each(IN_LOCALE)('%s: "%s" → %s first', async (locale, query, firstOneOf) => {
    const url = `${ctx.gateway.url}/api/search?q=${encodeURIComponent(query)}&limit=5&locale=${locale}`
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-language')).toBe(locale)
    const { data } = (await response.json()) as { data: { collection: string; slug: string; href: string }[] }
    const ranked = data.map((h) => `${h.collection}/${h.slug}`)
    expect(firstOneOf, `ranked: ${ranked.join(', ')}`).toContain(ranked[0])
    expect(data[0]!.href).toBe(`/api/${ranked[0]}?locale=${locale}`)
  })

  it('Accept-Language chooses the index, and the answer varies by it', async () => {
    const response = await fetch(`${ctx.gateway.url}/api/search?q=Datenvertrag`, {
      headers: { 'accept-language': 'de' },
    })
    expect(response.headers.get('content-language')).toBe('de')
    expect(response.headers.get('vary')).toBe('Accept-Language')
    const { data } = (await response.json()) as { data: { slug: string }[] }
    expect(data[0]!.slug).toBe('datenvertraege-in-der-ci')
    // The English index has no German words stemmed for it: the German post is not an English item.
    const english = await fetch(`${ctx.gateway.url}/api/search?q=Datenvertrag&locale=en`)
    expect(((await english.json()) as { data: unknown[] }).data).toEqual([])
  })
})
