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
import { copyOfFixtureContent } from '../../helpers/project.ts'

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
  const ctx = useBuiltGateway(copyOfFixtureContent)

  it.each(EXPECTED)('"%s" → %s first', async (query, firstOneOf) => {
    const response = await fetch(`${ctx.gateway.url}/api/search?q=${encodeURIComponent(query)}&limit=5`)
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as { data: { collection: string; slug: string }[] }
    const ranked = data.map((h) => `${h.collection}/${h.slug}`)
    expect(firstOneOf, `ranked: ${ranked.join(', ')}`).toContain(ranked[0])
  })
})
