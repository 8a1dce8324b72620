/**
 * describe_content_model: the content model of the build served, as an
 * agent needs it to ask good questions without guessing (the role of
 * Contentful's and Sanity's `get_initial_context`): each collection with its
 * label, its REST paths, how its list is ordered, the fields every item has
 * and its own (type, description, allowed values, what it names), and the
 * filters its list takes. The same, as JSON, is the resource
 * `model://content-model`. Read from the build's manifest: the model is
 * content/site.yaml's, never the gateway's own.
 */
import { z } from 'zod'
import type { Field } from '../../../contract/model/fields.ts'
import type { CollectionModel, ContentModel } from '../../../contract/model/model.ts'
import { API_PREFIX, calendarPath } from '../../../contract/public-paths.ts'
import { filtersOf } from '../../../contract/routes/collection-parameters.ts'
import type { McpContext } from '../context.ts'
import { jsonResult, perModel, READ_ONLY } from '../schemas.ts'

export const CONTENT_MODEL_URI = 'model://content-model'

/** The fields every item of every collection has, as the records carry them. */
const COMMON_FIELDS: { name: string; type: string; description: string }[] = [
  {
    name: 'id',
    type: 'string',
    description: 'Stable identifier: the same collection and slug always give the same id.',
  },
  { name: 'type', type: 'string', description: "The record type: the collection's label in snake_case." },
  { name: 'slug', type: 'string', description: 'URL segment of the item, unique in its collection.' },
  { name: 'title', type: 'string', description: 'Headline.' },
  { name: 'summary', type: 'text', description: 'One or two sentences for lists and previews.' },
  { name: 'url', type: 'url', description: 'Canonical page on the marketing site.' },
  { name: 'tags', type: 'list', description: 'Lowercase tags; `tag=` filters by them.' },
  { name: 'published_at', type: 'datetime', description: 'When the item was published (UTC).' },
  { name: 'updated_at', type: 'datetime', description: 'Last substantive update (UTC).' },
  { name: 'expires_at', type: 'datetime', description: 'When the item comes down, or null.' },
  { name: 'image', type: 'image', description: 'Lead image, or null.' },
  { name: 'related', type: 'list', description: 'Items this one points readers to (full records only).' },
  { name: 'body', type: 'markdown', description: 'The body as HTML, Markdown and text (full records only).' },
]

/** A field as the tool describes it: its declaration, its inner fields described the same way. */
export interface DescribedField {
  name: string
  type: string
  required: boolean
  description?: string
  values?: string[]
  default?: string | number | boolean
  /** A reference's collection. */
  collection?: string
  min?: number
  max?: number
  /** A list's item. */
  of?: Omit<DescribedField, 'name' | 'required'>
  /** An object's (or a person's own) fields. */
  fields?: DescribedField[]
  deprecated?: { since: string; sunset?: string; replacement?: string }
  /** A query parameter of its collection's list, by the field's name. */
  filter?: boolean
}

function described(name: string, field: Field): DescribedField {
  const { of, fields, required_when: _when, ...rest } = field
  return {
    name,
    ...rest,
    type: field.type,
    required: field.required === true,
    ...(of && { of: withoutName(described('', of)) }),
    ...(fields && { fields: Object.entries(fields).map(([inner, f]) => described(inner, f)) }),
  }
}

function withoutName({ name: _name, required: _required, ...rest }: DescribedField) {
  return rest
}

/** What an agent is told of one collection. */
function collectionOf(model: ContentModel, collection: CollectionModel) {
  const { name } = collection
  return {
    name,
    label: collection.label,
    title: collection.title,
    list: `${API_PREFIX}/${name}`,
    item: `${API_PREFIX}/${name}/{slug}`,
    resource: `content://${name}/{slug}`,
    ...(collection.dated && { calendar: calendarPath(name) }),
    dated: collection.dated,
    order: `newest first by ${collection.sortField}`,
    sort_keys: [...collection.sortKeys],
    people: [...collection.people],
    scope: collection.scope,
    fields: Object.entries(collection.fields).map(([field, spec]) => described(field, spec)),
    // The list route's own declarations: what REST and list_content take.
    filters: filtersOf(model, collection).flatMap((p) => (p.refused ? [] : [p.name])),
  }
}

/** The model as the tool and the resource give it. */
export function describeModel(model: ContentModel) {
  return {
    collections: model.names.map((name) => collectionOf(model, model.collections[name]!)),
    common_fields: COMMON_FIELDS,
  }
}

const fieldShape: z.ZodType<DescribedField> = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    type: z.string(),
    required: z.boolean(),
    description: z.string().optional(),
    values: z.array(z.string()).optional(),
    collection: z.string().optional(),
    of: z.looseObject({ type: z.string() }).optional(),
    fields: z.array(fieldShape).optional(),
    filter: z.boolean().optional(),
  }),
)

const describeTool = perModel((model: ContentModel) => ({
  title: 'Describe the content model',
  description:
    `The collections of this site (${model.names.join(', ')}) and their fields: for each, its label, its REST list ` +
    'and item paths, how its list is ordered and what it may be sorted by, the fields it adds to the ones every item has ' +
    '(each with its type, description, allowed values, what it references) and the filters its list takes. Call it first to learn what there is and what to ask list_content, search_content and get_content for.',
  inputSchema: z.object({}),
  outputSchema: z.object({
    collections: z.array(
      z.looseObject({
        name: z.string(),
        label: z.string(),
        list: z.string(),
        item: z.string(),
        dated: z.boolean(),
        order: z.string(),
        sort_keys: z.array(z.string()),
        fields: z.array(fieldShape),
        filters: z.array(z.string()),
      }),
    ),
    common_fields: z.array(z.object({ name: z.string(), type: z.string(), description: z.string() })),
  }),
  annotations: { title: 'Describe the content model', ...READ_ONLY },
}))

export function registerDescribeModel({ server, snapshot }: McpContext): void {
  const { model } = snapshot
  server.registerTool('describe_content_model', describeTool(model), () => jsonResult(describeModel(model)))
  server.registerResource(
    'content-model',
    CONTENT_MODEL_URI,
    {
      title: 'The content model',
      description: 'The collections of this site and their fields, as describe_content_model gives them (JSON).',
      mimeType: 'application/json',
    },
    (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'application/json', text: `${JSON.stringify(describeModel(model), null, 2)}\n` },
      ],
    }),
  )
}
