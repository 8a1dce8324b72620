/**
 * Schemas of the people (contract/people-index.ts renders them): a person,
 * every person, and a person's items. The route table
 * (contract/routes/people.ts) refers to them; each carries an example.
 */
import type { ContentModel } from '../../contract/model/model.ts'
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../../contract/patterns.ts'
import { MAX_LIMIT } from '../../contract/routes/parameters.ts'
import { arrayOf, count, schemaRef, text, uriReference } from '../../contract/routes/schema.ts'
import type { SchemaObject } from '../../contract/routes/schema.ts'
import { imageRef } from './media.ts'
import { anySummary, collectionCounts, countedList, exampleCounts } from './taxonomy-schemas.ts'

/** More people than any site names: every author and speaker of every item. */
const MAX_PEOPLE = 100_000
/** As long as a person's fields in the items' frontmatter (contract/schemas/common.ts). */
const PERSON_TEXT = 120
/** A profile's biography. */
const MAX_BIO = 5000

const personExample = (model: ContentModel) => ({
  slug: 'jose-nunez',
  name: 'José Núñez',
  title: 'Group Product Manager, Contracts',
  company: 'Tidewater Labs',
  avatar: null,
  bio: null,
  count: 3,
  counts: exampleCounts(model, 3),
  href: '/api/people/jose-nunez',
})

const nullableText = (maxLength: number, description: string) =>
  text(maxLength, { type: ['string', 'null'], description })

export function peopleSchemas(model: ContentModel): Record<string, SchemaObject> {
  return {
    Person: {
      type: 'object',
      additionalProperties: false,
      required: ['slug', 'name', 'title', 'company', 'avatar', 'bio', 'count', 'counts', 'href'],
      description:
        'An author or speaker: their details from the newest item that gives each, and how many items name them.',
      properties: {
        slug: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN, description: '`author=` finds their items by it.' }),
        name: text(PERSON_TEXT),
        title: nullableText(PERSON_TEXT, 'Their job title, or null.'),
        company: nullableText(PERSON_TEXT, 'Their company, or null.'),
        avatar: {
          anyOf: [imageRef, { type: 'null' }],
          description: "Their portrait (processed like the items' images), or null.",
        },
        bio: nullableText(MAX_BIO, 'From their profile, or null.'),
        count: count({ description: 'Items naming them, in the collections counted.' }),
        counts: collectionCounts(
          model,
          'Items naming them per collection counted (every one, or the one `collection` names).',
        ),
        href: uriReference({ description: 'Their profile and items: `/api/people/{slug}`.' }),
      },
      examples: [personExample(model)],
    },
    PersonList: countedList(
      'Person',
      MAX_PEOPLE,
      'Every author and speaker, by name.',
      [{ data: [personExample(model)], meta: { count: 1 } }],
      'People listed.',
    ),
    PersonItems: {
      type: 'object',
      additionalProperties: false,
      required: ['person', 'data', 'meta', 'links'],
      description:
        'A person, and a page of the items naming them (summaries, each with its `type`), newest first by `published_at`.',
      properties: {
        person: schemaRef('Person'),
        data: arrayOf(anySummary(model), MAX_LIMIT),
        meta: schemaRef('ListMeta'),
        links: schemaRef('ListLinks'),
      },
      // A page past the last: the envelope without items (a page's summaries are the lists' own examples).
      examples: [
        {
          person: personExample(model),
          data: [],
          meta: { limit: 10, page: 2, count: 0, total: 3, pages: 1 },
          links: { self: '/api/people/jose-nunez?page=2', next: null, prev: '/api/people/jose-nunez' },
        },
      ],
    },
  }
}
