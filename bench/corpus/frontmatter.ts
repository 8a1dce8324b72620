/**
 * Frontmatter per collection, valid against contract/schemas/*.ts, written as YAML
 * with every string double-quoted so dates stay strings in every peer's parser.
 */
import type { CollectionName } from './collections.ts'
import type { Random } from './random.ts'
import { paragraph, TAGS, title } from './text.ts'

type Value = string | number | boolean | Value[] | { [key: string]: Value }

const FIRST = [
  'Ana',
  'Björn',
  'Chidi',
  'Dana',
  'Émile',
  'Farah',
  'Gustavo',
  'Hana',
  'Ivo',
  'Jun',
  'Kaia',
  'Luca',
  'Mei',
  'Nils',
  'Olu',
  'Priya',
  'Zoë',
] as const
const LAST = [
  'Okafor',
  'Lindqvist',
  'Núñez',
  'Tanaka',
  'Moreau',
  'Haddad',
  'Silva',
  'Novak',
  'Kim',
  'Rossi',
  'Patel',
  'Schmidt',
] as const
const ROLES = [
  'Staff Data Engineer',
  'Head of Data Platform',
  'Analytics Engineer',
  'Product Manager',
  'VP Engineering',
  'Developer Advocate',
] as const
const COMPANIES = [
  'Cobalt & Pine',
  'Harborline',
  'Meridian Mutual',
  'Nordlicht Energie',
  'Quillpoint',
  'Sakura Mobility',
  'Vitalis Saúde',
  'Brightwater Bank',
] as const
const INDUSTRIES = [
  'Financial services',
  'Logistics',
  'Energy',
  'Healthcare',
  'Retail',
  'Insurance',
  'Mobility',
  'Media',
] as const
const SIZES = ['200-1,000 employees', '1,000-5,000 employees', '5,000+ employees'] as const
const REGIONS = ['EMEA', 'North America', 'LATAM', 'APAC'] as const
const CITIES: [city: string, country: string, zone: string, offset: string][] = [
  ['London', 'United Kingdom', 'Europe/London', '+01:00'],
  ['Berlin', 'Germany', 'Europe/Berlin', '+02:00'],
  ['Austin', 'United States', 'America/Chicago', '-05:00'],
  ['São Paulo', 'Brazil', 'America/Sao_Paulo', '-03:00'],
  ['Tokyo', 'Japan', 'Asia/Tokyo', '+09:00'],
  ['Kraków', 'Poland', 'Europe/Warsaw', '+02:00'],
]
const PRODUCTS = ['Tidewater Monitor', 'Tidewater Lineage', 'Tidewater Contracts', 'Tidewater Cloud'] as const

const pad = (n: number) => String(n).padStart(2, '0')
const person = (r: Random) => `${r.pick(FIRST)} ${r.pick(LAST)}`

/** A date between 2022 and 2027 as `YYYY-MM-DD`, from the item index so order is spread evenly. */
function date(r: Random): { day: string; y: number; m: number; d: number } {
  const y = r.int(2022, 2027)
  const m = r.int(1, 12)
  const d = r.int(1, 28)
  return { day: `${y}-${pad(m)}-${pad(d)}`, y, m, d }
}

function common(r: Random, slug: string): Record<string, Value> {
  const published = date(r)
  const fm: Record<string, Value> = {
    title: title(r),
    summary: paragraph(r, 22).slice(0, 380),
    tags: r.sample(TAGS, r.int(2, 5)),
    published_at: published.day,
  }
  if (r.chance(0.5))
    fm.updated_at = `${published.y}-${pad(published.m)}-${pad(Math.min(28, published.d + 1))}T10:30:00+01:00`
  fm.image = {
    url: `https://cdn.tidewater.example/images/${slug}.png`,
    alt: `Illustration for ${slug.replace(/-/g, ' ')}`,
  }
  if (r.chance(0.02)) fm.draft = true
  return fm
}

export function frontmatter(collection: CollectionName, r: Random, slug: string): Record<string, Value> {
  const fm = common(r, slug)
  const url = (what: string) => `https://www.tidewater.example/${collection}/${slug}/${what}`
  if (collection === 'blog-posts') {
    fm.authors = Array.from({ length: r.int(1, 2) }, () => ({
      name: person(r),
      title: r.pick(ROLES),
      avatar_url: 'https://cdn.tidewater.example/images/people/avatar.png',
    }))
  } else if (collection === 'case-studies') {
    const customer = r.pick(COMPANIES)
    fm.customer = {
      name: customer,
      industry: r.pick(INDUSTRIES),
      size: r.pick(SIZES),
      region: r.pick(REGIONS),
      website: 'https://customer.example',
    }
    fm.results = [
      { label: 'Incident time', value: `-${r.int(10, 80)}%` },
      { label: 'Warehouse spend', value: `-${r.int(5, 40)}%` },
    ]
    fm.quote = { text: paragraph(r, 20), author: person(r), role: r.pick(ROLES) }
    fm.products = r.sample(PRODUCTS, r.int(1, 3))
  } else {
    const [city, country, zone, offset] = r.pick(CITIES)
    const start = date(r)
    const hour = r.int(8, 17)
    fm.starts_at = `${start.day}T${pad(hour)}:00:00${offset}`
    fm.timezone = zone
    if (collection === 'webinars') {
      fm.duration_minutes = r.pick([30, 45, 60, 90])
      fm.speakers = Array.from({ length: r.int(1, 3) }, () => ({
        name: person(r),
        title: r.pick(ROLES),
        company: r.pick(COMPANIES),
      }))
      fm.registration_url = url('register')
      if (r.chance(0.5)) fm.recording_url = url('recording')
    } else {
      fm.ends_at = `${start.day}T${pad(hour + r.int(1, 6))}:00:00${offset}`
      const mode = r.pick(['in_person', 'online', 'hybrid'] as const)
      fm.attendance_mode = mode
      if (mode !== 'online')
        fm.location = { venue: `${city} Convention Centre`, city, country, region: r.pick(REGIONS) }
      if (mode !== 'in_person') fm.online_url = url('live')
      fm.registration_url = url('register')
      fm.event_status = r.pick(['scheduled', 'scheduled', 'scheduled', 'postponed', 'cancelled'] as const)
    }
  }
  return fm
}

/** YAML with quoted strings: flow lists for scalars, block form for objects. */
export function toYaml(value: Record<string, Value>, indent = ''): string {
  let out = ''
  for (const [key, v] of Object.entries(value)) out += `${indent}${key}:${yamlValue(v, indent)}`
  return out
}

function yamlValue(v: Value, indent: string): string {
  if (typeof v !== 'object') return ` ${JSON.stringify(v)}\n`
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x !== 'object')) return ` [${v.map((x) => JSON.stringify(x)).join(', ')}]\n`
    return `\n${v.map((x) => `${indent}  -${toYaml(x as Record<string, Value>, `${indent}    `).slice(indent.length + 3)}`).join('')}`
  }
  return `\n${toYaml(v, `${indent}  `)}`
}
