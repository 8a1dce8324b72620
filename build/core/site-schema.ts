/**
 * The JSON Schema of content/site.yaml: the site's settings and its content
 * model (`collections:`, each with its fields in the vocabulary of
 * contract/model/fields.ts). ajv checks the file against it like any
 * frontmatter (site-validator.ts), every mistake at once at its line and
 * column; what a schema cannot say (a reference to a collection declared
 * elsewhere, a name a route already takes) model-check.ts adds.
 */
import type { SchemaObject } from 'ajv'
import { FIELD_TYPES } from '../../contract/model/fields.ts'
import { MAX_SLUG_LENGTH, MAX_TAG_LENGTH, TAG_PATTERN } from '../../contract/patterns.ts'
import { CONTENT_SCOPE_PATTERN } from '../../contract/scopes.ts'

/**
 * Longest value of each text setting: they reach records (canonical URLs), feeds and the
 * API catalog, whose string lengths the OpenAPI document bounds (a record's URL is the
 * site URL, a collection path and a slug: at most 1000 + 200 + 1 + 120 characters).
 */
export const SITE_LIMITS = {
  name: 200,
  description: 1000,
  url: 1000,
  api_url: 1000,
  websub_hub: 1000,
  language: 35,
  repository: 200,
  repository_branch: 200,
  path: 200,
  title: 200,
  label: 80,
} as const

export const SITE_SETTINGS = [
  'name',
  'description',
  'url',
  'api_url',
  'websub_hub',
  'language',
  'locales',
  'locale_fallback',
  'collections',
  'repository',
  'repository_branch',
  'theme',
  'social_cards',
  'tags',
  'components',
] as const

export const COLLECTION_SETTINGS = ['path', 'title', 'label', 'scope', 'dated', 'order', 'fields'] as const

export const FIELD_SETTINGS = [
  'type',
  'required',
  'description',
  'default',
  'deprecated',
  'filter',
  'min',
  'max',
  'pattern',
  'unique',
  'values',
  'of',
  'fields',
  'collection',
  'required_when',
] as const

export const THEME_COLOURS = ['background', 'foreground', 'accent'] as const

/** What a tag of `tags:` may say beyond its label (site-tags.ts). */
export const TAG_SETTINGS = ['label', 'description'] as const

/** The longest tag label and description: they reach every tag's answers. */
export const TAG_LIMITS = { label: 80, description: 500 } as const

/** A field's name: snake_case, as the records write it. */
export const FIELD_NAME_PATTERN = '^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$'

const text = (max: number, message = `must be a string of at most ${max} characters`): SchemaObject => ({
  type: 'string',
  maxLength: max,
  errorMessage: message,
})

const date: SchemaObject = { type: 'string', format: 'date', errorMessage: 'must be a date like 2027-01-04' }

const field: SchemaObject = {
  if: { type: 'string' },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
  then: { enum: [...FIELD_TYPES] },
  else: { $ref: '#/$defs/fieldSettings' },
}

/** What each type needs said, and the message when it is not. */
const NEEDS: [type: string, setting: string, message: string][] = [
  ['enum', 'values', 'an enum lists its values: values: [a, b]'],
  ['list', 'of', 'a list says what its items are: of: string, or of: { type: object, fields: … }'],
  ['object', 'fields', 'an object lists its fields: fields: { name: string }'],
  ['reference', 'collection', 'a reference names the collection of its items: collection: case-studies'],
]

const fieldSettings: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { enum: [...FIELD_TYPES] },
    required: { type: 'boolean' },
    description: text(1000),
    default: { type: ['string', 'number', 'boolean'] },
    deprecated: {
      type: 'object',
      additionalProperties: false,
      required: ['since'],
      properties: { since: date, sunset: date, replacement: text(200) },
    },
    filter: { type: 'boolean' },
    min: { type: 'number' },
    max: { type: 'number' },
    pattern: { type: 'string', format: 'regex', maxLength: 500, errorMessage: 'must be a regular expression' },
    unique: { type: 'boolean' },
    values: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      uniqueItems: true,
      items: text(100),
      errorMessage: { minItems: 'must list at least one value' },
    },
    of: { $ref: '#/$defs/field' },
    fields: { $ref: '#/$defs/fields' },
    collection: text(MAX_SLUG_LENGTH),
    required_when: {
      type: 'object',
      maxProperties: 1,
      additionalProperties: { type: 'array', minItems: 1, items: text(100) },
      errorMessage: 'must name one field and its values, like { attendance_mode: [in_person, hybrid] }',
    },
  },
  allOf: NEEDS.map(([type, setting, message]) => ({
    if: { properties: { type: { const: type } }, required: ['type'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
    then: { required: [setting], errorMessage: { required: { [setting]: message } } },
  })),
}

const collection: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['label'],
  properties: {
    path: {
      ...text(
        SITE_LIMITS.path,
        `must be a path on the site starting with /, like /blog, at most ${SITE_LIMITS.path} characters`,
      ),
      pattern: '^/[A-Za-z0-9._~\\-/]*$',
    },
    title: text(SITE_LIMITS.title),
    label: {
      type: 'string',
      minLength: 1,
      maxLength: SITE_LIMITS.label,
      pattern: '^[A-Za-z][A-Za-z0-9 ]*$',
      errorMessage: 'must be what one item is called, in letters, digits and spaces, like blog post',
    },
    scope: {
      type: 'string',
      pattern: CONTENT_SCOPE_PATTERN,
      maxLength: 200,
      errorMessage: 'must be a scope like content.blog.read',
    },
    dated: { type: 'boolean' },
    order: { type: 'string', maxLength: 100 },
    fields: { $ref: '#/$defs/fields' },
  },
  errorMessage: { required: { label: 'is required: what one item is called, like label: blog post' } },
}

const tagLabel: SchemaObject = {
  type: 'string',
  minLength: 1,
  maxLength: TAG_LIMITS.label,
  pattern: '\\S',
  errorMessage: `must be a label of 1 to ${TAG_LIMITS.label} characters`,
}

/** A declared tag: its label, or `{ label, description }`. */
const tag: SchemaObject = {
  if: { type: 'string' },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
  then: tagLabel,
  else: {
    type: 'object',
    additionalProperties: false,
    required: ['label'],
    properties: { label: tagLabel, description: text(TAG_LIMITS.description) },
    errorMessage: {
      type: 'must be the label, or { label, description }',
      required: { label: 'is required: the label the tag shows, like label: Data lineage' },
    },
  },
}

const tags: SchemaObject = {
  type: 'object',
  propertyNames: { pattern: TAG_PATTERN, maxLength: MAX_TAG_LENGTH },
  additionalProperties: { $ref: '#/$defs/tag' },
  errorMessage: {
    type: 'must map each tag to its label, or to { label, description }, like lineage: Data lineage',
    propertyNames: `is not a tag as items write them: lowercase letters, digits and single hyphens, at most ${MAX_TAG_LENGTH} characters`,
  },
}

export const SITE_SCHEMA: SchemaObject = {
  $id: 'site.yaml',
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    name: text(SITE_LIMITS.name),
    description: text(SITE_LIMITS.description),
    url: {
      type: 'string',
      pattern: '^https?://[^/\\s]+(/\\S*)?$',
      maxLength: SITE_LIMITS.url,
      errorMessage: `must be the marketing site's absolute http(s) URL, like https://www.example.com, at most ${SITE_LIMITS.url} characters`,
    },
    api_url: {
      type: 'string',
      pattern: '^https?://[^/\\s?#]+(/[^\\s?#]*)?$',
      maxLength: SITE_LIMITS.api_url,
      errorMessage: `must be the absolute http(s) URL this API is served at, like https://api.example.com, at most ${SITE_LIMITS.api_url} characters`,
    },
    websub_hub: {
      type: 'string',
      pattern: '^https?://[^/\\s?#]+(/\\S*)?$',
      maxLength: SITE_LIMITS.websub_hub,
      errorMessage: `must be the URL of a WebSub hub, like https://pubsubhubbub.appspot.com/ (http only on this machine, for development), at most ${SITE_LIMITS.websub_hub} characters`,
    },
    language: text(SITE_LIMITS.language),
    // Tags are equal without regard to case and fallbacks are some of the locales: site.ts checks them together.
    locales: {},
    locale_fallback: {},
    collections: {
      type: 'object',
      additionalProperties: { $ref: '#/$defs/collection' },
      errorMessage: { type: 'must map collection names to { label, path, title, fields }' },
    },
    repository: {
      type: 'string',
      pattern: '^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$',
      maxLength: SITE_LIMITS.repository,
      errorMessage: 'must name a GitHub repository as owner/name, like acme/marketing-content',
    },
    repository_branch: {
      type: 'string',
      pattern: '^[A-Za-z0-9._/-]+$',
      not: { pattern: '\\.\\.' },
      maxLength: SITE_LIMITS.repository_branch,
      errorMessage: 'must be a git branch name, like main',
    },
    theme: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        THEME_COLOURS.map((name) => [
          name,
          {
            type: 'string',
            pattern: '^#[0-9a-fA-F]{6}$',
            errorMessage: "must be a colour written like '#0b2942' (quoted: YAML reads # as a comment)",
          },
        ]),
      ),
      errorMessage: { type: `must map ${THEME_COLOURS.join(', ')} to colours like '#0b2942'` },
    },
    social_cards: { type: 'boolean', errorMessage: 'must be true or false' },
    tags,
    // A team's own components: site-components.ts reads them with their positions.
    components: {},
  },
  $defs: {
    tag,
    collection,
    fields: { type: 'object', additionalProperties: { $ref: '#/$defs/field' } },
    field,
    fieldSettings,
  },
  errorMessage: {
    required: { url: "is required: the marketing site's absolute http(s) URL, like https://www.example.com" },
  },
}
