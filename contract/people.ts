/**
 * People of the records (blog posts' authors, webinars' and events'
 * speakers) and their slugs: the build gives every person one (`slug` in the
 * frontmatter, else made from the name), and `author=` finds a person by
 * that slug or by the name written any way that makes the same slug.
 *
 * @example personSlug('José Núñez') // 'jose-nunez'
 */
import { createHash } from 'node:crypto'
import { MAX_SLUG_LENGTH } from './patterns.ts'

/** Letters NFKD does not take apart into a base letter and a mark. */
const SPELLED_OUT: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŀ: 'l',
}
const SPELLED_OUT_RE = new RegExp(`[${Object.keys(SPELLED_OUT).join('')}]`, 'g')

/**
 * The slug of a person's name: Latin letters without their accents, digits,
 * single hyphens. A name with none of those (written in another script)
 * gets `person-` and a hash of the name, so it still has a stable one.
 */
export function personSlug(name: string): string {
  let slug = made.get(name)
  if (slug === undefined) {
    slug = slugOf(name)
    // Bounded: the gateway makes one of each `author=` a query gives.
    if (made.size >= MAX_MADE) made.clear()
    made.set(name, slug)
  }
  return slug
}

/** The slugs made so far, by name: a site names the same few people in many files, each looked up several times. */
const made = new Map<string, string>()
const MAX_MADE = 10_000

function slugOf(name: string): string {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(SPELLED_OUT_RE, (c) => SPELLED_OUT[c]!)
  const slug = plain
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '')
  if (slug) return slug
  return `person-${createHash('sha256').update(name.trim().normalize('NFC')).digest('hex').slice(0, 12)}`
}

/** A person as the records carry one: a name, a slug, and whatever else the collection says of them. */
export interface Person {
  name: string
  slug: string
}

/** Whether `person` is the one `wanted` (a personSlug of what the query gave) names: by slug, or by name. */
export function isPerson(person: Person, wanted: string): boolean {
  return person.slug === wanted || personSlug(person.name) === wanted
}
