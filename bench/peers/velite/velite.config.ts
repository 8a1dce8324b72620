/**
 * Velite peer for the benchmarks: the same generated content/ (BENCH_CONTENT),
 * the same fields validated with Velite's zod schemas, the body rendered to
 * HTML (GFM), plain-text excerpt, word count and reading time.
 */
import { defineCollection, defineConfig, s } from 'velite'

const root = process.env.BENCH_CONTENT
const out = process.env.BENCH_VELITE_OUT
if (!root || !out) throw new Error('set BENCH_CONTENT and BENCH_VELITE_OUT')

const text = (max: number) => s.string().min(1).max(max)
const url = s.string().url().max(2000)
const tag = s
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
  .max(50)
const person = { name: text(120), title: text(120).optional() }

const common = {
  title: text(200),
  summary: text(400).optional(),
  tags: s.array(tag).max(20).default([]),
  published_at: s.isodate(),
  updated_at: s.isodate().optional(),
  image: s.object({ url, alt: text(300) }).optional(),
  draft: s.boolean().default(false),
  slug: s.path(),
  html: s.markdown(),
  text: s.excerpt({ length: 100_000 }),
  metadata: s.metadata(),
}

const blogPosts = defineCollection({
  name: 'BlogPost',
  pattern: 'blog-posts/*.md',
  schema: s.object({
    ...common,
    authors: s
      .array(s.object({ ...person, avatar_url: url.optional() }))
      .min(1)
      .max(10),
  }),
})

const caseStudies = defineCollection({
  name: 'CaseStudy',
  pattern: 'case-studies/*.md',
  schema: s.object({
    ...common,
    customer: s.object({
      name: text(120),
      industry: text(80),
      size: text(40).optional(),
      region: text(80).optional(),
      logo_url: url.optional(),
      website: url.optional(),
    }),
    results: s
      .array(s.object({ label: text(80), value: text(40) }))
      .min(1)
      .max(12),
    quote: s.object({ text: text(600), author: text(120), role: text(120) }).optional(),
    products: s.array(text(80)).max(20).default([]),
  }),
})

const webinars = defineCollection({
  name: 'Webinar',
  pattern: 'webinars/*.md',
  schema: s.object({
    ...common,
    starts_at: s.isodate(),
    duration_minutes: s.number().int().min(5).max(1440),
    timezone: text(80),
    speakers: s
      .array(s.object({ ...person, company: text(120).optional() }))
      .min(1)
      .max(12),
    registration_url: url.optional(),
    recording_url: url.optional(),
  }),
})

const events = defineCollection({
  name: 'Event',
  pattern: 'events/*.md',
  schema: s.object({
    ...common,
    starts_at: s.isodate(),
    ends_at: s.isodate(),
    timezone: text(80),
    attendance_mode: s.enum(['in_person', 'online', 'hybrid']),
    location: s.object({ venue: text(160), city: text(80), country: text(80), region: text(80).optional() }).optional(),
    online_url: url.optional(),
    registration_url: url.optional(),
    event_status: s.enum(['scheduled', 'cancelled', 'postponed', 'rescheduled']).default('scheduled'),
  }),
})

export default defineConfig({
  root,
  strict: true,
  output: {
    data: out,
    assets: `${out}/static`,
    base: '/static/',
    name: '[name]-[hash:8].[ext]',
    clean: true,
    format: 'esm',
  },
  collections: { blogPosts, caseStudies, webinars, events },
  // Like our build and Hugo: drafts are validated but not published.
  prepare: (data) => {
    for (const key of Object.keys(data) as (keyof typeof data)[]) {
      const items = data[key] as { draft: boolean }[]
      ;(data as Record<string, unknown>)[key] = items.filter((item) => !item.draft)
    }
  },
})
