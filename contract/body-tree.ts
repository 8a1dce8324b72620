/**
 * `body.tree` of a full record: the body as structured nodes, for
 * front-ends that map each node to their own component (React, Vue,
 * Svelte) instead of injecting `body.html`. Versioned: a change that could
 * break a reader of version 1 gets version 2.
 *
 * Every node has a `type`. Blocks: `paragraph`, `heading` (`depth`, `id`),
 * `blockquote`, `list` (`ordered`, `start`), `list_item` (`checked` for a
 * task), `code` (`lang`, `value`), `thematic_break`, `table`, `table_row`,
 * `table_cell` (`header`, `align`). Inline: `text` (`value`), `emphasis`,
 * `strong`, `delete`, `inline_code` (`value`), `link` (`href`, `title`),
 * `image` (`src`, `alt`, `title`), `break`. A component is
 * `{type: "component", name, attributes, children}` with its validated
 * attributes (defaults applied); a video has `embed` (provider and the
 * privacy-friendly player URL). Any other element of the HTML (footnotes,
 * `<sup>`, a `<details>`) is `{type: "element", tag, attributes, children}`.
 */

export const BODY_TREE_VERSION = 1

export interface BodyTree {
  version: typeof BODY_TREE_VERSION
  children: BodyNode[]
}

/**
 * A `body.tree` held as its JSON text, as the build keeps it: made once where
 * the body is rendered (a render worker, the render cache), then written into
 * each record's JSON as it is (renderItem, contract/render.ts) instead of
 * serialising its nodes again. Any other JSON.stringify of a record that holds
 * one gives the same bytes (toJSON), only slower.
 */
export class BodyTreeJson {
  constructor(readonly json: string) {}

  toJSON(): BodyTree {
    return JSON.parse(this.json) as BodyTree
  }
}

export interface BodyNode {
  type: BodyNodeType
  children?: BodyNode[]
  value?: string
  depth?: number
  id?: string
  ordered?: boolean
  start?: number
  checked?: boolean
  lang?: string
  header?: boolean
  align?: string
  href?: string
  title?: string
  src?: string
  alt?: string
  name?: string
  tag?: string
  attributes?: Record<string, string>
  embed?: { provider: string; url: string }
}

export const BODY_NODE_TYPES = [
  'paragraph',
  'heading',
  'blockquote',
  'list',
  'list_item',
  'code',
  'thematic_break',
  'table',
  'table_row',
  'table_cell',
  'text',
  'emphasis',
  'strong',
  'delete',
  'inline_code',
  'link',
  'image',
  'break',
  'component',
  'element',
] as const

export type BodyNodeType = (typeof BODY_NODE_TYPES)[number]

/** Every node of `nodes`, depth first (to find components, images, headings). */
export function* bodyNodes(nodes: readonly BodyNode[]): Generator<BodyNode> {
  for (const node of nodes) {
    yield node
    if (node.children) yield* bodyNodes(node.children)
  }
}
