/**
 * Mistakes in the content model (content/site.yaml's `collections:`) are
 * errors for the person editing it: `npm run check` reports every one at
 * once, each at site.yaml:line:col with the setting it is about, in the
 * words frontmatter errors use.
 */
import { describe, expect, it } from 'vitest'
import { checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { parseSiteConfig } from '../../../build/core/site.ts'
import { createProject, validPost } from '../../helpers/project.ts'

const messages = (text: string): string[] => {
  try {
    parseSiteConfig(text)
  } catch (error) {
    if (error instanceof ContentErrors) return error.errors.map((e) => e.message)
    throw error
  }
  return []
}

/** Each line numbered as the test reads it: the model and what is wrong on each line. */
const BROKEN = [
  'url: https://www.example.com', // 1
  'collections:', // 2
  '  press-releases:', // 3
  '    label: press release', // 4
  '    fields:', // 5
  '      issued_on: dat', // 6: unknown type, shorthand
  '      headline: { type: strnig, max: 80 }', // 7: unknown type
  '      title: string', // 8: a common field
  '      category: { type: enum, filter: true }', // 9: an enum without values
  '      follows: { type: reference, collection: press-release }', // 10: an unknown collection
  '      tier: { type: string, values: [a, b] }', // 11: a setting of another type
  '      Quote: text', // 12: not snake_case
  '  search:', // 13: a route's name
  '    label: search result', // 14
  '  Case_Studies:', // 15: not a URL-safe name
  '    label: case study', // 16
  '    dated: true', // 17: no starts_at, no timezone
  '    colour: blue', // 18: unknown collection setting
].join('\n')

describe('errors in the content model', () => {
  it('are all reported at once, each at its line and column', () => {
    expect(messages(BROKEN)).toEqual([
      'content/site.yaml:6:18 collections.press-releases.fields.issued_on: "dat" is not a field type (did you mean date? types: string, text, markdown, date, datetime, timezone, url, email, integer, number, boolean, enum, list, object, image, reference, person)',
      'content/site.yaml:7:25 collections.press-releases.fields.headline.type: "strnig" is not a field type (did you mean string? types: string, text, markdown, date, datetime, timezone, url, email, integer, number, boolean, enum, list, object, image, reference, person)',
      "content/site.yaml:8:7 collections.press-releases.fields.title: is a field every collection has: name press-releases's own field otherwise",
      'content/site.yaml:9:17 collections.press-releases.fields.category.values: an enum lists its values: values: [a, b]',
      'content/site.yaml:10:47 collections.press-releases.fields.follows.collection: is not a collection (did you mean press-releases? collections: press-releases, search, Case_Studies)',
      'content/site.yaml:11:29 collections.press-releases.fields.tier.values: is not a setting of a string field (its own: min, max, pattern)',
      'content/site.yaml:12:7 collections.press-releases.fields.Quote: must be a field name in snake_case: lowercase letters and digits, words joined by _',
      'content/site.yaml:13:3 collections.search: is a path of the API already (/api/search): name the collection otherwise, like our-search',
      'content/site.yaml:15:3 collections.Case_Studies: must be a URL-safe name: lowercase letters, digits and single hyphens, like press-releases',
      'content/site.yaml:17:5 collections.Case_Studies.dated: needs its items to start at a time: declare starts_at: { type: datetime, required: true }',
      'content/site.yaml:17:5 collections.Case_Studies.dated: needs the zone its items are in: declare timezone: { type: timezone, required: true }',
      'content/site.yaml:18:5 collections.Case_Studies.colour: is not a collection setting (settings: path, title, label, scope, dated, order, fields)',
    ])
  })

  it('refuse a filter field named like a parameter every list has', () => {
    const site = [
      'url: https://www.example.com',
      'collections:',
      '  press-releases:',
      '    label: press release',
      '    fields:',
      '      sort: { type: enum, values: [a, b], filter: true }',
      '      tag: { type: string, filter: true }',
      '      region: { type: string, filter: true }',
    ].join('\n')
    expect(messages(site)).toEqual([
      'content/site.yaml:6:51 collections.press-releases.fields.sort.filter: would be the list parameter sort=, which lists have already: rename the field to filter by it, like item_sort',
      'content/site.yaml:7:36 collections.press-releases.fields.tag.filter: would be the list parameter tag=, which lists have already: rename the field to filter by it, like item_tag',
    ])
  })

  it('name the routes of the table, the feed of everything and the routes to come', () => {
    const named = (name: string) =>
      messages(`url: https://www.example.com\ncollections:\n  ${name}: { label: thing }\n`)
    for (const name of ['search', 'changes', 'health', 'all', 'tags', 'people', 'redirects', 'preview'])
      expect(named(name)).toEqual([
        `content/site.yaml:3:3 collections.${name}: is a path of the API already (/api/${name}): name the collection otherwise, like our-${name}`,
      ])
    expect(named('press-releases')).toEqual([])
  })

  it('stop `npm run check` with the site.yaml positions, before any content is read', async () => {
    const project = await createProject({ 'content/blog-posts/good.md': validPost() })
    try {
      await project.write('content/site.yaml', BROKEN)
      const error = (await checkContent(project.root).catch((e: unknown) => e)) as ContentErrors
      expect(error).toBeInstanceOf(ContentErrors)
      expect(error.errors).toHaveLength(12)
      expect(error.errors.every((e) => e.file === 'content/site.yaml' && e.code === 'SCHEMA')).toBe(true)
    } finally {
      await project.remove()
    }
  })

  it('say once what a comma or a colon in a { … } value did, and how to quote it', () => {
    const model = (field: string) =>
      `url: https://www.example.com\ncollections:\n  notes:\n    label: note\n    fields:\n      ${field}\n`
    expect(messages(model('kind: { type: string, description: Hello, world }'))).toEqual([
      "content/site.yaml:6:49 collections.notes.fields.kind.world: is not a field setting (settings: type, required, description, default, deprecated, filter, min, max, pattern, unique, values, of, fields, collection, required_when); a comma inside { … } ends a value there: quote text that has one, like description: 'Hello, world'",
    ])
    expect(messages(model('kind: { type: string, description: Note: read first }'))).toEqual([
      "content/site.yaml:6:42 kind: a colon followed by a space inside { … } starts another key: quote text that has one, like description: 'Note: read first'",
    ])
  })

  it('a collection setting misspelt: the closest one is named', () => {
    expect(messages('url: https://www.example.com\ncollections:\n  faqs:\n    label: faq\n    feilds: {}\n')).toEqual([
      'content/site.yaml:5:5 collections.faqs.feilds: is not a collection setting (did you mean fields? settings: path, title, label, scope, dated, order, fields)',
    ])
  })
})

describe('errors in the tags: setting', () => {
  it('are checked by the site schema, each at its line and column', () => {
    const site = [
      'url: https://www.example.com',
      'collections:',
      '  blog-posts: { label: blog post }',
      'tags:',
      '  lineage: Data lineage',
      '  Data Lineage: x',
      '  empty: "  "',
      '  contracts: { label: Contracts, colour: red }',
      '  nolabel: { description: x }',
      `  long: { label: ok, description: ${'a'.repeat(501)} }`,
      '  num: 3',
    ].join('\n')
    expect(messages(site)).toEqual([
      'content/site.yaml:6:3 tags.Data Lineage: is not a tag as items write them: lowercase letters, digits and single hyphens, at most 50 characters',
      'content/site.yaml:7:10 tags.empty: must be a label of 1 to 80 characters',
      'content/site.yaml:8:34 tags.contracts.colour: is not a tag setting (settings: label, description)',
      'content/site.yaml:9:12 tags.nolabel.label: is required: the label the tag shows, like label: Data lineage',
      'content/site.yaml:10:35 tags.long.description: must be a string of at most 500 characters',
      'content/site.yaml:11:8 tags.num: must be the label, or { label, description }',
    ])
    expect(messages('url: https://www.example.com\ntags: [a]\n')).toEqual([
      'content/site.yaml:2:7 tags: must map each tag to its label, or to { label, description }, like lineage: Data lineage',
    ])
  })

  it('give the labels trimmed, and an absent description as null', () => {
    const site = 'url: https://www.example.com\ntags:\n  a: " A "\n  b: { label: B, description: " d " }\n'
    expect(parseSiteConfig(site).tags).toEqual({
      a: { label: 'A', description: null },
      b: { label: 'B', description: 'd' },
    })
  })
})
