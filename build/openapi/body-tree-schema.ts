/**
 * `body.tree` in the OpenAPI document: one recursive `BodyNode` schema
 * (contract/body-tree.ts says which properties each `type` carries), so
 * generated clients get one node type to switch on.
 */
import type { SchemaObject } from 'ajv'
import { BODY_NODE_TYPES, BODY_TREE_VERSION } from '../../contract/body-tree.ts'
import { BODY_LIMITS } from '../../contract/records.ts'
import { arrayOf, int32, schemaRef, text } from '../../contract/routes/schema.ts'

const NODES = BODY_LIMITS.markdown / 2
const children = arrayOf(schemaRef('BodyNode'), NODES, { description: 'The nodes inside this one, in order.' })
const attributes = (description: string): SchemaObject => ({
  type: 'object',
  maxProperties: 100,
  additionalProperties: text(BODY_LIMITS.text),
  description,
})

export const BODY_NODE_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  description:
    'A node of `body.tree`: a block (`paragraph`, `heading`, `list`, …), an inline (`text`, `link`, …), a `component` with its validated attributes, or any other HTML `element`.',
  properties: {
    type: {
      type: 'string',
      enum: [...BODY_NODE_TYPES],
      description: 'What the node is; it says which other properties it has.',
    },
    children,
    value: text(BODY_LIMITS.text, { description: 'The text of `text`, `code` and `inline_code`.' }),
    depth: int32(1, 6, { description: 'A `heading`’s level.' }),
    id: text(BODY_LIMITS.text, { description: 'A `heading`’s id: its `toc` entry’s, and its `id` in `body.html`.' }),
    ordered: { type: 'boolean', description: 'Whether a `list` is numbered.' },
    start: int32(0, 999_999_999, { description: 'The first number of an ordered `list` that does not start at 1.' }),
    checked: { type: 'boolean', description: 'A task `list_item`’s box.' },
    lang: text(200, { description: 'A `code` block’s language, from its fence.' }),
    header: { type: 'boolean', description: 'Whether a `table_cell` is a header cell.' },
    align: { type: 'string', enum: ['left', 'center', 'right'], description: 'A `table_cell`’s alignment.' },
    href: text(BODY_LIMITS.text, { description: 'A `link`’s destination.' }),
    title: text(BODY_LIMITS.text, { description: 'A `link`’s or an `image`’s title.' }),
    src: text(BODY_LIMITS.text, { description: 'An `image`’s URL, as in `body.html`.' }),
    alt: text(BODY_LIMITS.text, { description: 'An `image`’s alternative text.' }),
    name: text(100, {
      description: 'A `component`’s name (`callout`, `video`, `cta`, `quote` or one of the site’s own).',
    }),
    tag: text(100, { description: 'An `element`’s HTML tag name.' }),
    attributes: attributes('A `component`’s attributes, validated, defaults applied; an `element`’s HTML attributes.'),
    embed: {
      type: 'object',
      additionalProperties: false,
      required: ['provider', 'url'],
      description: 'A `video`’s player: its provider and the privacy-friendly embed URL the HTML uses.',
      properties: {
        provider: { type: 'string', enum: ['youtube', 'vimeo', 'wistia'] },
        url: text(BODY_LIMITS.text),
      },
    },
  },
}

/** `body.tree`: its format version and its top-level nodes. */
export const BODY_TREE_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'children'],
  description:
    'The body as structured nodes, from the same render as `body.html`: map each node to your own component. See docs/api.md#body-tree.',
  properties: {
    version: int32(BODY_TREE_VERSION, BODY_TREE_VERSION, {
      const: BODY_TREE_VERSION,
      description: 'The tree’s format version.',
    }),
    children,
  },
}
