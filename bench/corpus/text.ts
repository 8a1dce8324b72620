/**
 * Marketing prose with a realistic vocabulary: ~400-word GFM bodies with
 * headings, a table, a fenced code block, an image with alt text, a list, a
 * quote and links. Sentences are mostly words drawn with their real
 * frequencies (vocabulary.ts), with the product's own words now and then, so
 * common words are in most items and ordinary ones in few, as in real content.
 */
import type { Random } from './random.ts'
import { commonWord } from './vocabulary.ts'

export const TOPICS = [
  'data contracts',
  'column lineage',
  'freshness checks',
  'schema drift',
  'warehouse spend',
  'incident response',
  'dbt tests',
  'streaming pipelines',
  'anomaly detection',
  'data quality',
  'on-call rotations',
  'metadata search',
  'access policies',
  'cost attribution',
  'semantic layers',
  'agent-ready data',
  'backfills',
  'reverse ETL',
] as const

export const TAGS = [
  'data-contracts',
  'lineage',
  'observability',
  'dbt',
  'snowflake',
  'bigquery',
  'databricks',
  'kafka',
  'finops',
  'best-practices',
  'ci-cd',
  'ai',
  'governance',
  'reliability',
  'incident-management',
  'streaming',
  'data-quality',
  'product-news',
  'engineering',
  'customer-story',
  'events-emea',
  'events-americas',
  'events-apac',
  'security',
  'compliance',
  'analytics-engineering',
  'platform-teams',
  'open-source',
  'partners',
  'release-notes',
] as const

const NOUNS = [
  'pipeline',
  'warehouse',
  'dashboard',
  'model',
  'team',
  'contract',
  'table',
  'stream',
  'alert',
  'check',
  'owner',
  'consumer',
  'producer',
  'query',
  'job',
  'incident',
  'budget',
  'schema',
  'column',
  'release',
  'runbook',
  'metric',
] as const
const VERBS = [
  'breaks',
  'validates',
  'delays',
  'reduces',
  'surfaces',
  'tracks',
  'routes',
  'flags',
  'explains',
  'protects',
  'measures',
  'publishes',
  'catches',
  'documents',
  'simplifies',
  'replaces',
] as const
const ADJECTIVES = [
  'stale',
  'critical',
  'downstream',
  'upstream',
  'noisy',
  'reliable',
  'expensive',
  'shared',
  'public',
  'internal',
  'late',
  'silent',
  'regional',
  'nightly',
  'real-time',
  'governed',
] as const
const CONNECTORS = ['because', 'while', 'so that', 'even when', 'before', 'after', 'unless', 'which means'] as const
const LANGS = ['sql', 'yaml', 'python', 'bash', 'json'] as const

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** Share of a sentence's words that are the product's own (nouns, verbs, adjectives above). */
const DOMAIN_SHARE = 0.06

function word(r: Random): string {
  if (!r.chance(DOMAIN_SHARE)) return commonWord(r)
  const kind = r.int(0, 2)
  return kind === 0 ? r.pick(NOUNS) : kind === 1 ? r.pick(VERBS) : r.pick(ADJECTIVES)
}

export function sentence(r: Random): string {
  const clause = () => Array.from({ length: r.int(4, 9) }, () => word(r)).join(' ')
  return `${capitalise(clause())} ${r.pick(CONNECTORS)} ${clause()}.`
}

/** Roughly `words` words of prose. */
export function paragraph(r: Random, words: number): string {
  const out: string[] = []
  let count = 0
  while (count < words) {
    const s = sentence(r)
    out.push(s)
    count += s.split(' ').length
  }
  return out.join(' ')
}

export function title(r: Random): string {
  const topic = r.pick(TOPICS)
  const forms = [
    () => `How ${r.pick(NOUNS)} teams tame ${topic}`,
    () => `${capitalise(topic)}: what we learned from ${r.int(20, 400)} ${r.pick(NOUNS)}s`,
    () => `A practical guide to ${topic} for ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}s`,
    () => `Why ${topic} fail, and how to fix them`,
    () => `${capitalise(topic)} in ${r.int(2024, 2028)}`,
  ]
  return r.pick(forms)()
}

export function body(r: Random, slug: string, imageBase: string): string {
  const lang = r.pick(LANGS)
  const rows = Array.from(
    { length: 4 },
    () => `| ${capitalise(r.pick(NOUNS))} | ${r.pick(ADJECTIVES)} | ${r.int(1, 99)}% |`,
  )
  const code = Array.from(
    { length: 6 },
    (_, i) => `${lang === 'sql' ? '--' : '#'} step ${i + 1}: ${r.pick(VERBS)} ${r.pick(NOUNS)}_${r.int(1, 9)}`,
  )
  const bullets = Array.from({ length: 4 }, () => `- **${capitalise(r.pick(NOUNS))}.** ${paragraph(r, 10)}`)
  return `${[
    paragraph(r, 60),
    `## ${capitalise(r.pick(TOPICS))} in practice`,
    `${paragraph(r, 45)} Run \`tidewater ${r.pick(NOUNS)} check\` and read the [guide](https://www.tidewater.example/docs/${slug}).`,
    `| Area | State | Share |\n|---|---|---|\n${rows.join('\n')}`,
    paragraph(r, 50),
    `\`\`\`${lang}\n${code.join('\n')}\n\`\`\``,
    `![A ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} chart for ${slug}](${imageBase}/${slug}/chart-${r.int(1, 9)}.png)`,
    `## What to do next`,
    bullets.join('\n'),
    `> ${paragraph(r, 25)}\n> — a ${r.pick(NOUNS)} owner at a ${r.pick(ADJECTIVES)} company`,
    paragraph(r, 60),
  ].join('\n\n')}\n`
}
