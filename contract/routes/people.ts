/**
 * The people of the content: everyone an item names as an author or a
 * speaker, and one person's profile and items. Computed by the gateway from
 * the build's lists (contract/people-index.ts), cached per build.
 */
import type { ContentModel } from '../model/model.ts'
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../patterns.ts'
import { PEOPLE_PATH } from '../public-paths.ts'
import {
  ACCEPT_LANGUAGE,
  DEFAULT_LIMIT,
  IF_NONE_MATCH,
  LIMIT,
  LOCALE,
  PAGE,
  PUBLISHED_AFTER,
  PUBLISHED_BEFORE,
  UPDATED_SINCE,
} from './parameters.ts'
import { CONTENT_HEADERS, LOCALE_HEADERS, NOT_MODIFIED, PAGE_HEADERS, problems, publicRead } from './responses.ts'
import { READ, route, type Parameter, type QueryParameter } from './route.ts'
import { schemaRef, text } from './schema.ts'
import { once } from './collection-parameters.ts'

export const PEOPLE_TAG = 'People'

const peopleCollection = (model: ContentModel): QueryParameter =>
  once(model, 'people collection', () => ({
    component: 'peopleCollection',
    name: 'collection',
    in: 'query',
    required: false,
    description: "Only this collection's items are counted (and only the people it names are listed).",
    http: 'Another value is a 400.',
    schema: { enum: [...model.names] },
  }))

const PERSON_SLUG: Parameter = {
  name: 'slug',
  in: 'path',
  required: true,
  description: "The person's slug, as `/api/people` lists it (the `slug` their items give them).",
  schema: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN, examples: ['jose-nunez'] }),
}

/** The filters of a person's items: the lists' date filters, which apply to every collection. */
export const PERSON_FILTERS: readonly QueryParameter[] = [UPDATED_SINCE, PUBLISHED_AFTER, PUBLISHED_BEFORE]

export const people = route({
  path: PEOPLE_PATH,
  methods: READ,
  served: 'gateway',
  parameters: (model) => once(model, 'people', () => [peopleCollection(model), LOCALE, IF_NONE_MATCH, ACCEPT_LANGUAGE]),
  budgets: ['computed'],
  operations: {
    get: {
      operationId: 'listPeople',
      tags: [PEOPLE_TAG],
      summary: 'List every author and speaker',
      description:
        "Everyone a published item names in a field of type `person` (the content model's: authors, speakers and the like), by name: `slug`, `name`, `title`, `company`, " +
        "the portrait (`avatar`, processed like the items' images), `bio` where the profile has one, and how many items name them per collection and in total. " +
        "A person's details are those of the newest item that gives each. `collection` counts one collection's items only; on a multilingual site, the people of the locale read.",
      security: publicRead(),
      responses: {
        '200': {
          description: 'The people.',
          headers: { ...CONTENT_HEADERS, ...LOCALE_HEADERS },
          content: { 'application/json': { schema: schemaRef('PersonList') } },
        },
        '304': NOT_MODIFIED,
        ...problems(400, 406, 500, 503),
      },
    },
  },
})

export const person = route({
  path: `${PEOPLE_PATH}/{slug}`,
  methods: READ,
  served: 'gateway',
  parameters: [PERSON_SLUG, LIMIT, PAGE, ...PERSON_FILTERS, LOCALE, IF_NONE_MATCH, ACCEPT_LANGUAGE],
  budgets: ['computed'],
  operations: {
    get: {
      operationId: 'getPerson',
      tags: [PEOPLE_TAG],
      summary: "A person's profile and items",
      description:
        'The person (as `/api/people` lists them), then the items naming them in any field of type `person` (the posts they wrote, the events they spoke at) as a list envelope: summaries with their `type`, newest first by `published_at`, ' +
        `${DEFAULT_LIMIT} a page unless \`limit\` says otherwise; \`updated_since\`, \`published_after\` and \`published_before\` narrow them. ` +
        "For one collection's items, list it with `author=`. A slug no published item names (in the locale read) is a 404.",
      security: publicRead(),
      responses: {
        '200': {
          description: 'The person and a page of their items.',
          headers: { ...PAGE_HEADERS, ...LOCALE_HEADERS },
          content: { 'application/json': { schema: schemaRef('PersonItems') } },
        },
        '304': NOT_MODIFIED,
        ...problems(400, 404, 406, 500, 503),
      },
    },
  },
})
