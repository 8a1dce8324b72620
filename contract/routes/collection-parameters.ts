/**
 * A collection's own parameters, made from its definition (collections.ts,
 * records.ts) rather than written out: its path, its `sort` keys, its
 * `fields`, and the shared filters it refuses (`author` where it lists no
 * people, `when` where nothing starts at a time). Each is a declaration like
 * those of parameters.ts, made once per collection (or set of collections:
 * the MCP tools list several at once), so the gateway compiles its reader once.
 */
import { COLLECTION_NAMES, COLLECTIONS, isScheduled, type CollectionName } from '../collections.ts'
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

/** The collection of a per-collection route: the document writes one path per collection instead. */
export const COLLECTION_PATH: Parameter = {
  name: 'collection',
  in: 'path',
  required: true,
  schema: { enum: [...COLLECTION_NAMES] },
}

const made = new Map<string, QueryParameter>()
function once(key: string, make: () => QueryParameter): QueryParameter {
  let parameter = made.get(key)
  if (!parameter) made.set(key, (parameter = make()))
  return parameter
}

type Collections = CollectionName | readonly CollectionName[]
const listOf = (collections: Collections): readonly CollectionName[] =>
  typeof collections === 'string' ? [collections] : collections
const code = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ')
const unsigned = (key: string) => (key.startsWith('-') ? key.slice(1) : key)

/** Which of `collections` have `has`, in words: `webinars and events`. */
function which(collections: readonly CollectionName[], has: (c: CollectionName) => boolean): string {
  const names = collections.filter(has)
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('')
}

/**
 * `sort` of a collection: its sort keys, each once, `-` before it for
 * descending. Of several (a tool listing any of them): the keys of any, the
 * request's collection refusing those it does not have.
 */
export function sortOf(collections: Collections): QueryParameter {
  const all = listOf(collections)
  return once(`sort ${all.join(' ')}`, () => {
    const keys = [...new Set(all.flatMap((c) => COLLECTIONS[c].sortKeys))]
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
function sortKeysText(collections: readonly CollectionName[], keys: readonly string[]): string {
  const common = keys.filter((k) => collections.every((c) => COLLECTIONS[c].sortKeys.includes(k)))
  const others = keys
    .filter((k) => !common.includes(k))
    .map((k) => `\`${k}\` of ${which(collections, (c) => COLLECTIONS[c].sortKeys.includes(k))}`)
  return others.length ? `${code(common)} (and ${others.join(', ')})` : code(common)
}

function sortFieldsText(collections: readonly CollectionName[]): string {
  const fields = [...new Set(collections.map((c) => COLLECTIONS[c].sortField))]
  if (fields.length === 1) return `\`${fields[0]}\``
  return fields.map((f) => `\`${f}\` for ${which(collections, (c) => COLLECTIONS[c].sortField === f)}`).join(', ')
}

/**
 * `fields` of a collection's lists (`summary`) or items (`full`): its own
 * fields and a multilingual site's locale fields; of several collections, a
 * field of any. A name given twice counts once.
 */
export function fieldsOf(collections: Collections, form: 'summary' | 'full'): QueryParameter {
  const all = listOf(collections)
  return once(`fields ${form} ${all.join(' ')}`, () => {
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

/** The list filters of a collection: each shared one, refused (with why) where it does not apply. */
export function filtersOf(collection: CollectionName): readonly QueryParameter[] {
  const refused: Partial<Record<string, string>> = {}
  if (COLLECTIONS[collection].people.length === 0)
    refused[AUTHOR.name] =
      `does not apply to ${collection}: only blog-posts (authors), webinars and events (speakers) list people`
  if (!isScheduled(collection))
    refused[WHEN.name] = `does not apply to ${collection}: only events and webinars start at a time (starts_at)`
  return LIST_FILTERS.map((p) =>
    refused[p.name] ? once(`${p.name} ${collection}`, () => ({ ...p, refused: refused[p.name] })) : p,
  )
}
