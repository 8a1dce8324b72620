/**
 * The sanitiser prefixes every `id` with `user-content-`, and footnote ids
 * already carry that prefix (remark-rehype's, or markdown-hast's copy of it),
 * so `#user-content-fn-1` would point at `user-content-user-content-fn-1`.
 * Both renderers drop the doubled prefix after sanitising, so the links work.
 */
import type { Root } from 'hast'

const PREFIX = 'user-content-'
const DOUBLE_PREFIX = PREFIX + PREFIX

/** Drop a doubled `user-content-` prefix from every id of `tree`, in place. */
export function dropDoubledIdPrefix(tree: Root | Root['children'][number]): void {
  if (tree.type === 'element') {
    const id = tree.properties.id
    if (typeof id === 'string' && id.startsWith(DOUBLE_PREFIX)) tree.properties.id = id.slice(PREFIX.length)
  }
  if ('children' in tree) for (const child of tree.children) dropDoubledIdPrefix(child)
}

/** The same as a unified plugin (the reference renderer's pipeline). */
export function singleClobberPrefix() {
  return (tree: Root) => dropDoubledIdPrefix(tree)
}
