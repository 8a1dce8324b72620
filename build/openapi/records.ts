/**
 * Record schemas of the API, derived from the frontmatter schemas: what
 * build/pipeline/derive.ts makes of a validated file. Every key is always
 * present (absent optional fields are null, absent lists are []), and no other
 * key appears, so the contract tests catch any drift between the two.
 */
import type { SchemaObject } from 'ajv'
import { fieldSchema, namesPeople, type Field } from '../../contract/model/fields.ts'
import { frontmatterSchema, type CollectionModel, type ContentModel } from '../../contract/model/model.ts'
import { BODY_LIMITS, MAX_READING_TIME_MINUTES, ownFields } from '../../contract/records.ts'
import { MAX_LIMIT } from '../../contract/routes/parameters.ts'
import { LOCALE_QUERY_PATTERN } from '../../contract/locales.ts'
import { recordSchemaName } from '../../contract/routes/content.ts'
import { arrayOf, instant as dateTime, int32, schemaRef, text, uri } from '../../contract/routes/schema.ts'
import { BODY_TREE_SCHEMA } from './body-tree-schema.ts'
import { imageRef, publishedPerson, socialImageRef } from './media.ts'
import { collectionNames } from './search-changes-schemas.ts'
import { nullable, propertyOf, stripAjvKeywords } from './schema-tools.ts'

function commonFields(collection: CollectionModel, model: ContentModel): Record<string, SchemaObject> {
  const { type, label } = collection
  const schema = frontmatterSchema(collection, model)
  const instant = (name: string): SchemaObject =>
    dateTime({
      description: `${propertyOf(schema, name).description ?? ''} Normalised to UTC, e.g. 2026-03-14T00:00:00Z.`.trim(),
    })
  // The derived summary may be empty when the body has no paragraph, so no minLength.
  const { minLength: _min, ...summary } = propertyOf(schema, 'summary')
  return {
    id: text(20, {
      pattern: '^[0-9a-f]{20}$',
      description: 'Stable identifier: the same collection and slug always give the same id.',
    }),
    type: { type: 'string', const: type, description: `Always \`${type}\`.` },
    slug: propertyOf(schema, 'slug'),
    title: propertyOf(schema, 'title'),
    summary,
    url: uri({ description: `Canonical page of the ${label} on the marketing site.` }),
    tags: propertyOf(schema, 'tags'),
    published_at: instant('published_at'),
    updated_at: instant('updated_at'),
    expires_at: nullable(instant('expires_at')),
    image: { anyOf: [imageRef, { type: 'null' }], description: 'Lead image, or null.' },
    social_image: {
      anyOf: [socialImageRef, { type: 'null' }],
      description: 'The image to show when the item is shared; null when it has none and social cards are off.',
    },
  }
}

/** The collection's own fields as its records carry them: every one present, null (or []) where the file has none. */
function specificFields(collection: CollectionModel, model: ContentModel): Record<string, SchemaObject> {
  const schema = frontmatterSchema(collection, model)
  const required = new Set((schema.required as string[] | undefined) ?? [])
  const out: Record<string, SchemaObject> = {}
  for (const [field, fallback] of ownFields(collection)) {
    const property = recordProperty(collection.fields[field]!, model)
    out[field] = fallback === null && !required.has(field) ? nullable(property) : property
  }
  return out
}

/** What a record holds of a field the file wrote (build/pipeline/derive.ts): its frontmatter schema, but where the build makes more of it. */
function recordProperty(field: Field, model: ContentModel): SchemaObject {
  const described = (schema: SchemaObject) =>
    field.description ? { ...schema, description: field.description } : schema
  if (namesPeople(field))
    return field.type === 'list'
      ? withSlug(stripAjvKeywords(fieldSchema(field)))
      : (withSlug(arrayOf(stripAjvKeywords(fieldSchema(field)), 1)).items as SchemaObject)
  switch (field.type) {
    case 'markdown':
      return described(
        objectOf(
          {
            html: text(BODY_LIMITS.html, {
              description: 'Sanitised HTML rendered from the Markdown (GFM), as the body is.',
            }),
            markdown: text(field.max ?? 50_000, { description: 'The Markdown as written.' }),
            text: text(BODY_LIMITS.text, { description: 'Plain text.' }),
          },
          {},
        ),
      )
    case 'image':
      return described(imageRef)
    case 'reference':
      return described(relatedItem(model, `An item of ${field.collection}, resolved: enough to link to it.`))
    case 'list':
      if (field.of && ['image', 'reference', 'markdown'].includes(field.of.type)) {
        const list = stripAjvKeywords(fieldSchema(field))
        return { ...list, items: recordProperty(field.of, model) }
      }
      return stripAjvKeywords(fieldSchema(field))
    default:
      return stripAjvKeywords(fieldSchema(field))
  }
}

/** A reference resolved: the item's collection, slug, title and page. */
function relatedItem(model: ContentModel, description: string): SchemaObject {
  const slug = propertyOf(frontmatterSchema(model.collections[model.names[0]!]!, model), 'slug')
  const title = propertyOf(frontmatterSchema(model.collections[model.names[0]!]!, model), 'title')
  return objectOf(
    {
      collection: collectionNames(model),
      slug,
      title,
      url: uri({ description: 'Canonical page of the item on the marketing site.' }),
    },
    { description },
  )
}

/**
 * A list of people as records carry it: every person with a slug (the
 * file's, or one made from the name), and their portrait as published.
 */
function withSlug(people: SchemaObject): SchemaObject {
  const person = people.items as SchemaObject
  const properties = person.properties as Record<string, SchemaObject>
  const slug = {
    ...properties.slug,
    description: 'Stable identifier of the person across items: `author=<slug>` lists theirs.',
  }
  return {
    ...people,
    items: publishedPerson({ ...person, required: ['name', 'slug'], properties: { ...properties, slug } }),
  }
}

function objectOf(properties: Record<string, SchemaObject>, extra: Partial<SchemaObject>): SchemaObject {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties, ...extra }
}

/**
 * What a multilingual site's records add (site.yaml's `locales`): present on every
 * record of such a site, absent on a single-language one's, whose answers stay as they were.
 */
function localeFields(collection: CollectionModel, model: ContentModel): Record<string, SchemaObject> {
  const { label } = collection
  const locale = text(35, {
    pattern: LOCALE_QUERY_PATTERN,
    description: 'A BCP 47 language tag, one of the site locales.',
  })
  return {
    locale: { ...locale, description: `The locale the ${label} is written in (a multilingual site only).` },
    translations: {
      type: 'array',
      maxItems: 50,
      description:
        "The item in the other locales of the site (a multilingual site only), for `hreflang` alternates: each one's locale, slug (`GET /api/{collection}/{slug}?locale=…`) and page on the marketing site. Empty when there is none.",
      items: objectOf(
        {
          locale,
          slug: propertyOf(frontmatterSchema(collection, model), 'slug'),
          url: uri({ description: `The ${label}'s page in that locale on the marketing site.` }),
        },
        { description: 'One translation of the item.' },
      ),
    },
  }
}

/** `schema` with the locale fields as optional properties after the common ones. */
function withLocaleFields(collection: CollectionModel, model: ContentModel, schema: SchemaObject): SchemaObject {
  const properties: Record<string, SchemaObject> = {}
  for (const [name, property] of Object.entries(schema.properties as Record<string, SchemaObject>)) {
    properties[name] = property
    if (name === 'social_image') Object.assign(properties, localeFields(collection, model))
  }
  return { ...schema, properties }
}

/** The list form: every field but the body and its metrics. */
export function summarySchema(collection: CollectionModel, model: ContentModel): SchemaObject {
  const { label } = collection
  return withLocaleFields(
    collection,
    model,
    objectOf(
      { ...commonFields(collection, model), ...specificFields(collection, model) },
      { title: `${recordSchemaName(collection)}Summary`, description: `A ${label} as it appears in lists (no body).` },
    ),
  )
}

/** The full record returned by GET /api/{collection}/{slug}. */
export function fullSchema(collection: CollectionModel, model: ContentModel): SchemaObject {
  const { label } = collection
  const schema = frontmatterSchema(collection, model)
  return withLocaleFields(
    collection,
    model,
    objectOf(
      {
        ...commonFields(collection, model),
        ...specificFields(collection, model),
        related: {
          type: 'array',
          maxItems: 20,
          description: 'The published items this one points readers to (its `related` frontmatter), resolved.',
          items: objectOf(
            {
              collection: collectionNames(model),
              slug: propertyOf(schema, 'slug'),
              title: propertyOf(schema, 'title'),
              url: uri({ description: 'Canonical page of the item on the marketing site.' }),
            },
            { description: 'A related item: enough to link to it; GET /api/{collection}/{slug} has the rest.' },
          ),
        },
        reading_time_minutes: int32(1, MAX_READING_TIME_MINUTES, {
          description: 'Estimated reading time at 230 words a minute.',
        }),
        word_count: int32(0, BODY_LIMITS.words),
        body: objectOf(
          {
            html: text(BODY_LIMITS.html, { description: 'Sanitised HTML rendered from the Markdown (GFM).' }),
            markdown: text(BODY_LIMITS.markdown, { description: 'The Markdown source of the body.' }),
            text: text(BODY_LIMITS.text, { description: 'Plain text, for search and previews.' }),
            tree: BODY_TREE_SCHEMA,
          },
          { description: 'The body in four formats.' },
        ),
        toc: {
          type: 'array',
          maxItems: BODY_LIMITS.markdown / 2,
          description:
            "The body's headings in order; each `id` is the heading's `id` attribute in `body.html`, so `url#id` links to its section.",
          items: objectOf(
            {
              depth: int32(1, 6, { description: 'The heading level (1 for `#`, 6 for `######`).' }),
              text: text(BODY_LIMITS.text, { description: 'The heading as plain text.' }),
              id: text(BODY_LIMITS.text, {
                description: 'GitHub-style slug of the text (or the `{#id}` written after it), unique in the body.',
              }),
            },
            { description: 'A heading of the body.' },
          ),
        },
      },
      { title: recordSchemaName(collection), description: `A published ${label} with its body.` },
    ),
  )
}

/**
 * A record with only the fields `fields=` asked for: the same fields,
 * only `id` and `type` certain to be there.
 */
export function sparseSchema(record: SchemaObject): SchemaObject {
  return {
    ...record,
    title: `${String(record.title)}Sparse`,
    required: ['id', 'type'],
    description: `${String(record.description)} With \`fields\`: only the fields asked for, and \`id\` and \`type\`.`,
  }
}

/** The list envelope schema of a collection. */
export function listSchema(collection: CollectionModel): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'meta', 'links'],
    description: `A page of ${collection.label}s with pagination.`,
    properties: {
      data: arrayOf(
        {
          anyOf: [
            schemaRef(`${recordSchemaName(collection)}Summary`),
            schemaRef(`${recordSchemaName(collection)}SummarySparse`),
          ],
        },
        MAX_LIMIT,
      ),
      meta: schemaRef('ListMeta'),
      links: schemaRef('ListLinks'),
    },
  }
}
