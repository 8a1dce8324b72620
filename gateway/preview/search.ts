/**
 * Search over the preview's items (`/api/preview/search`, the MCP search
 * tools with `include_drafts`): the public search's terms (the same
 * tokenizer and stemmer, the last word a prefix) and field weights, counted
 * over every item of the preview. A reviewer's preview holds what is being
 * worked on, not the whole archive's index: each item's text is scanned.
 */
import { peopleFields, type ContentModel } from '../../contract/model/model.ts'
import { recordMatcher } from '../../contract/list-query.ts'
import type { PreviewEntry } from '../../contract/preview.ts'
import { MAX_QUERY_LENGTH, SEARCH_BOOST } from '../../contract/search.ts'
import type { SearchQuery } from '../../contract/search-query.ts'
import { termsOf } from '../../contract/search-terms.ts'
import { stemmerOf } from '../../contract/stemming.ts'
import { sectionAt, type HitSection } from '../search/hit-section.ts'
import { snippetOf } from '../search/snippet.ts'
import type { Preview } from './artifact.ts'

export interface PreviewHit {
  entry: PreviewEntry
  score: number
  snippet: string
  /** The section of the body the snippet's match is in, as the public search's hits name it. */
  section: HitSection | null
  matched_terms: string[]
}

export function searchPreview(
  preview: Preview,
  model: ContentModel,
  query: SearchQuery,
  now: number,
  multilingual: boolean,
): { total: number; hits: PreviewHit[] } {
  const locale = query.locale ?? preview.language
  const stem = multilingual ? stemmerOf(locale) : undefined
  const wanted = [...new Set(termsOf(query.query.slice(0, MAX_QUERY_LENGTH), stem))]
  const last = wanted.at(-1)
  const kept = recordMatcher(query, now, peopleFields(model))
  const scored: PreviewHit[] = []
  for (const entry of preview.items) {
    if (entry.locale !== locale || (query.collection !== undefined && entry.collection !== query.collection)) continue
    if (kept && !kept(entry.record)) continue
    const { record } = entry
    const fields = {
      title: record.title,
      summary: typeof record.summary === 'string' ? record.summary : '',
      tags: record.tags.join(' '),
      details: '',
      text: record.body.text,
    }
    let score = 0
    const matched = new Set<string>()
    const covered = new Set<string>()
    for (const [field, text] of Object.entries(fields) as [keyof typeof SEARCH_BOOST, string][]) {
      for (const term of termsOf(text, stem)) {
        const hit = wanted.find((w) => w === term || (w === last && term.startsWith(w)))
        if (hit === undefined) continue
        score += SEARCH_BOOST[field]
        matched.add(term)
        covered.add(hit)
      }
    }
    if (!matched.size) continue
    // An item with more of the words first, as BM25 ranks them; then by the weight of where they are.
    score = Math.round((covered.size * 1000 + score) * 100) / 100
    const { snippet, at } = snippetOf(record.body.text, query.query, [...matched])
    scored.push({
      entry,
      score,
      snippet,
      section: sectionAt(record.body.text, record.toc ?? [], at, String(record.url)),
      matched_terms: [...matched],
    })
  }
  scored.sort((a, b) => b.score - a.score || (a.entry.slug < b.entry.slug ? -1 : 1))
  const start = (query.page - 1) * query.limit
  return { total: scored.length, hits: scored.slice(start, start + query.limit) }
}
