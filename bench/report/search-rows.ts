/**
 * Rows of search end to end (issue 51): MCP search_content, plain and with
 * a tag filter, and GET /api/search, each as a median and a p95 of
 * sequential calls; on the bench's corpus and on the scale curve's prose.
 */
import { median } from '../lib/stats.ts'
import type { McpSamples } from '../suites/mcp.ts'
import { pending, ratioOf, type Row } from './rows.ts'

const n = (count: number) => count.toLocaleString('en')

/** Issue 51: an agent calls search several times per answer; MCP and REST alike within 3 ms median, 6 ms p95. */
const SEARCH_MEDIAN_MS = 3
const SEARCH_P95_MS = 6

/** Search end to end at `count` items: MCP search_content (plain, with a tag filter) and GET /api/search. */
export function mcpRows(mcp: McpSamples | string, count: number, prefix = 'gateway', corpus = ''): Row[] {
  const section: Row['section'] = prefix === 'gateway' ? 'gateway' : 'scale'
  const of = `${n(count)} items${corpus}`
  const median_ = `median ≤ ${SEARCH_MEDIAN_MS} ms`
  const p95_ = `p95 ≤ ${SEARCH_P95_MS} ms`
  const kinds = [
    {
      id: 'mcp',
      label: 'MCP tools/call search_content, end to end',
      pick: (m: McpSamples) => [m.gateway, m.gatewayP95],
    },
    {
      id: 'mcp-filtered',
      label: 'MCP tools/call search_content with a tag filter, end to end',
      pick: (m: McpSamples) => [m.filtered, m.filteredP95],
    },
    {
      id: 'search-rest',
      label: 'GET /api/search, a new query each call',
      pick: (m: McpSamples) => [m.rest, m.restP95],
    },
  ]
  const rows: Row[] = []
  for (const kind of kinds) {
    const id = `${prefix}.${kind.id}`
    if (typeof mcp === 'string') {
      rows.push(pending(id, section, `${kind.label} (median), ${of}`, 'ms', mcp, median_))
      rows.push(pending(`${id}-p95`, section, `${kind.label} (p95), ${of}`, 'ms', mcp, p95_))
      continue
    }
    const [medians, p95s] = kind.pick(mcp) as [number[], number[]]
    const value = median(medians)
    const p95 = median(p95s)
    const ceiling = kind.id === 'mcp' ? median(mcp.ceiling) : null
    rows.push({
      id,
      section,
      label: `${kind.label} (median), ${of}`,
      value,
      unit: 'ms',
      runs: medians,
      ...(ceiling === null ? {} : { baseline: { label: 'node:http', value: ceiling }, ratio: ratioOf(value, ceiling) }),
      target: { text: median_, pass: value <= SEARCH_MEDIAN_MS },
    })
    rows.push({
      id: `${id}-p95`,
      section,
      label: `${kind.label} (p95), ${of}`,
      value: p95,
      unit: 'ms',
      runs: p95s,
      baseline: { label: 'median', value },
      ratio: ratioOf(p95, value),
      target: { text: p95_, pass: p95 <= SEARCH_P95_MS },
    })
  }
  return rows
}
