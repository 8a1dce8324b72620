/**
 * A collection's own parameters, made from its declaration in the content
 * model (model/model.ts, records.ts) rather than written out: its path, its
 * `sort` keys, its `fields`, the filters its `filter: true` fields make, and
 * the shared filters it refuses (`author` where it lists no people, `when`
 * where nothing starts at a time). Each is a declaration like those of
 * parameters.ts, made once per model and collection (or set of collections:
 * the MCP tools list several at once), so the gateway compiles its reader once.
 */
import { FILTER_TYPES, type Field } from '../model/fields.ts'
import { datedCollections, listed, type CollectionModel, type ContentModel } from '../model/model.ts'
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../patterns.ts'
import { selectableFields } from '../records.ts'
import { AUTHOR, LIST_FILTERS, WHEN } from './parameters.ts'
import { quote } from './query-messages.ts'
import type { Parameter, QueryParameter } from './route.ts'
import { arrayOf, text } from './schema.ts'

export const SLUG: Parameter = {
  component: 'slug',
  name: 'slug',
  in: 'path',
  required: true,
  description: 'The item slug, as in the list.',
  schema: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN }),
}

/** At most this many values in one field filter (`category=product,company`). */
export const MAX_FILTER_VALUES = 20
/** The longest value of a `string` field's filter without a `max` of its own. */
const MAX_FILTER_LENGTH = 200
/** The key of a field filter's values in a parsed list query (query.ts gathers them). */
export const FIELD_FILTER_KEY = 'field:'

const made = new WeakMap<ContentModel, Map<string, unknown>>()
/** What `make` makes of `model`, once per `key`: the model is read once per build, its parameters with it. */
export function once<T>(model: ContentModel, key: string, make: () => T): T {
  let byKey = made.get(model)
  if (!byKey) made.set(model, (byKey = new Map()))
  if (!byKey.has(key)) byKey.set(key, make())
  return byKey.get(key) as T
}

type Collections = CollectionModel | readonly CollectionModel[]
const listOf = (collections: Collections): readonly CollectionModel[] =>
  Array.isArray(collections) ? collections : [collections as CollectionModel]
const code = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ')
const unsigned = (key: string) => (key.startsWith('-') ? key.slice(1) : key)
const namesOf = (all: readonly CollectionModel[]) => all.map((c) => c.name).join(' ')

/** The collection of a per-collection route: the document writes one path per collection instead. */
export function collectionPath(model: ContentModel): Parameter {
  return once(model, 'collection path', () => ({
    name: 'collection',
    in: 'path',
    required: true,
    schema: { enum: [...model.names] },
  }))
}

/** Search's `collection`: one of the model's. */
export function collectionFilter(model: ContentModel): QueryParameter {
  return once(model, 'collection filter', () => ({
    component: 'collection',
    name: 'collection',
    in: 'query',
    required: false,
    description: 'Only search this collection.',
    schema: { enum: [...model.names] },
  }))
}

/** Which of `collections` have `has`, in words: `webinars and events`. */
function which(collections: readonly CollectionModel[], has: (c: CollectionModel) => boolean): string {
  return listed(collections.filter(has).map((c) => c.name))
}

/**
 * `sort` of a collection: its sort keys, each once, `-` before it for
 * descending. Of several (a tool listing any of them): the keys of any, the
 * request's collection refusing those it does not have.
 */
export function sortOf(model: ContentModel, collections: Collections): QueryParameter {
  const all = listOf(collections)
  return once(model, `sort ${namesOf(all)}`, () => {
    const keys = [...new Set(all.flatMap((c) => c.sortKeys))]
    return {
      name: 'sort',
      in: 'query',
      required: false,
      commaSeparated: true,
      description: `The order: one or more of ${sortKeysText(all, keys)}, separated by commas, each once, ascending or with \`-\` before it descending (\`sort=-updated_at,title\`). Ties keep the default order (newest first by ${sortFieldsText(all)}), which is also the order without \`sort\`.`,
      schema: arrayOf({ type: 'string', enum: keys.flatMap((k) => [k, `-${k}`]) }, keys.length, {
        minItems: 1,
        uniqueItems: true,
      }),
      rule: (given) => {
        const fields = given.map(unsigned)
        return fields.find((f, i) => fields.indexOf(f) !== i)
      },
      invalid: ({ keyword, item = '' }) =>
        `${keyword === 'enum' ? `has no key ${quote(unsigned(item))}` : `names ${unsigned(item)} twice`}: give one or more of ${keys.join(', ')}, separated by commas, each once, with - before it for descending (-published_at)`,
    }
  })
}

/** The keys of `collections`: those all have, then each other one with the collections that have it. */
function sortKeysText(collections: readonly CollectionModel[], keys: readonly string[]): string {
  const common = keys.filter((k) => collections.every((c) => c.sortKeys.includes(k)))
  const others = keys
    .filter((k) => !common.includes(k))
    .map((k) => `\`${k}\` of ${which(collections, (c) => c.sortKeys.includes(k))}`)
  return others.length ? `${code(common)} (and ${others.join(', ')})` : code(common)
}

function sortFieldsText(collections: readonly CollectionModel[]): string {
  const fields = [...new Set(collections.map((c) => c.sortField))]
  if (fields.length === 1) return `\`${fields[0]}\``
  return fields.map((f) => `\`${f}\` for ${which(collections, (c) => c.sortField === f)}`).join(', ')
}

/**
 * `fields` of a collection's lists (`summary`) or items (`full`): its own
 * fields and a multilingual site's locale fields; of several collections, a
 * field of any. A name given twice counts once.
 */
export function fieldsOf(model: ContentModel, collections: Collections, form: 'summary' | 'full'): QueryParameter {
  const all = listOf(collections)
  return once(model, `fields ${form} ${namesOf(all)}`, () => {
    const fields = [...new Set(all.flatMap((c) => selectableFields(c, form)))]
    return {
      name: 'fields',
      in: 'query',
      required: false,
      commaSeparated: true,
      description: `Only these fields of ${form === 'summary' ? 'each item' : 'the item'}, separated by commas (\`fields=title,slug,image\`); \`id\` and \`type\` always come. \`locale\` and \`translations\` are a multilingual site's (for hreflang links: \`fields=url,translations\`).`,
      http: 'An unknown name is a 400 that lists the fields.',
      schema: arrayOf({ type: 'string', enum: fields }, fields.length, { minItems: 1 }),
      readItems: (names) => [...new Set(names)],
      invalid: ({ keyword, item = '' }) =>
        `${keyword === 'maxItems' ? 'names too many fields' : `has no field ${quote(item)}`}: give one or more of ${fields.join(', ')}, separated by commas (id and type always come)`,
    }
  })
}

/** `author`: who it finds, by the fields of `model` that list people. */
export function authorOf(model: ContentModel): QueryParameter {
  return once(model, 'author', () => {
    const byFields = new Map<string, string[]>()
    for (const name of model.names) {
      const key = model.collections[name]!.people.join(', ')
      if (key) byFields.set(key, [...(byFields.get(key) ?? []), name.replaceAll('-', ' ')])
    }
    const among = [...byFields].map(([fields, names]) => `${fields} (${names.join(', ')})`).join(' or ')
    return {
      ...AUTHOR,
      description: `Only items with this person among their ${among || 'people'}: the person's \`slug\` (\`jose-nunez\`), or their name written any way that makes the same slug (\`José Núñez\`, \`jose nunez\`).`,
    }
  })
}

/** `only blog-posts (authors), webinars and events (speakers) list people`. */
function whoListsPeople(model: ContentModel): string {
  const byFields = new Map<string, string[]>()
  for (const name of model.names) {
    const key = model.collections[name]!.people.join(', ')
    if (key) byFields.set(key, [...(byFields.get(key) ?? []), name])
  }
  if (!byFields.size) return 'no collection lists people'
  return `only ${listed([...byFields].map(([fields, names]) => `${listed(names)} (${fields})`))} list people`
}

/** The shared filters of `model`: `author` naming its people fields. */
export function sharedFilters(model: ContentModel): readonly QueryParameter[] {
  return once(model, 'filters', () => LIST_FILTERS.map((p) => (p.name === AUTHOR.name ? authorOf(model) : p)))
}

/** The list filters of a collection: each shared one (refused, with why, where it does not apply), then its fields'. */
export function filtersOf(model: ContentModel, collection: CollectionModel): readonly QueryParameter[] {
  return once(model, `filters ${collection.name}`, () => {
    const { name } = collection
    const refused: Partial<Record<string, string>> = {}
    if (collection.people.length === 0) refused[AUTHOR.name] = `does not apply to ${name}: ${whoListsPeople(model)}`
    if (!collection.dated) {
      const dated = datedCollections(model)
      refused[WHEN.name] = dated.length
        ? `does not apply to ${name}: only ${listed(dated)} start at a time (starts_at)`
        : `does not apply to ${name}: no collection starts at a time (starts_at)`
    }
    const shared = sharedFilters(model).map((p) => (refused[p.name] ? { ...p, refused: refused[p.name] } : p))
    return [...shared, ...fieldFilters(collection)]
  })
}

/** The fields of a collection that are filters (`filter: true` on an enum, string or boolean). */
export function filterFields(collection: CollectionModel): [string, Field][] {
  return Object.entries(collection.fields).filter(([, f]) => f.filter && FILTER_TYPES.includes(f.type))
}

/** The query parameter of each filter field: exact match, several values separated by commas. */
function fieldFilters(collection: CollectionModel): QueryParameter[] {
  return filterFields(collection).map(([name, field]) => {
    const item =
      field.type === 'enum'
        ? { type: 'string', enum: [...(field.values ?? [])] }
        : field.type === 'boolean'
          ? { type: 'string', enum: ['true', 'false'] }
          : text(field.max ?? MAX_FILTER_LENGTH, { minLength: 1, ...(field.pattern ? { pattern: field.pattern } : {}) })
    const allowed = field.type === 'enum' ? field.values!.join(', ') : field.type === 'boolean' ? 'true, false' : ''
    const what = allowed ? `one or more of ${allowed}` : `1 to ${MAX_FILTER_VALUES} values`
    return {
      name,
      in: 'query',
      required: false,
      commaSeparated: true,
      key: `${FIELD_FILTER_KEY}${name}`,
      description: `Only items whose \`${name}\` is any of these, separated by commas${allowed ? ` (${allowed})` : ''}: an exact match.${field.description ? ` ${name}: ${field.description}` : ''}`,
      http: 'Anything else is a 400.',
      schema: arrayOf(item, MAX_FILTER_VALUES, { minItems: 1 }),
      readItems: (values) =>
        field.type === 'boolean' ? [...new Set(values.map((v) => v === 'true'))] : [...new Set(values)],
      invalid: ({ raw }) => `must be ${what}, separated by commas, got ${quote(raw)}`,
    }
  })
}
