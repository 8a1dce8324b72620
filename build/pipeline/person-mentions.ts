/**
 * The people a file names (its collection's `person` fields: blog posts'
 * authors, webinars' and events' speakers), with where each is written: what the cross-file check of
 * people's slugs (build/compiler/person-slugs.ts) reads; where each is
 * written is worked out only when an error asks (load.ts, lazyPosition).
 */
import type { CollectionModel } from '../../contract/model/model.ts'
import { lazyPosition, type LoadedFile } from './load.ts'

export interface PersonMention {
  /** The entry as errors name it: `authors[0]`, `speakers[2]`. */
  field: string
  name: string
  /** The `slug:` written for the person in this file, if any. */
  slug: string | undefined
  /** Where the entry's `slug` is written, else its `name`. */
  line: number
  column: number
}

/** The people of a file whose frontmatter is valid (`data`: the validated frontmatter), in the order written. */
export function personMentions(file: LoadedFile, collection: CollectionModel, data: object): PersonMention[] {
  const mentions: PersonMention[] = []
  for (const field of collection.people) {
    const value = (data as Record<string, unknown>)[field]
    const one = collection.fields[field]?.type === 'person'
    const people = one ? (value ? [value] : []) : value
    if (!Array.isArray(people)) continue
    people.forEach((person: { name: string; slug?: string }, i) => {
      const slug = typeof person.slug === 'string' ? person.slug : undefined
      const path = one ? [field] : [field, i]
      const at = lazyPosition(file, [...path, slug === undefined ? 'name' : 'slug'])
      mentions.push(Object.assign(at, { field: one ? field : `${field}[${i}]`, name: person.name, slug }))
    })
  }
  return mentions
}
