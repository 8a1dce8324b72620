/**
 * Raw HTML on the fast path: the tree markdown-hast.ts built, with the body's
 * HTML as `raw` nodes where markdown-it found it, goes through the reference
 * renderer's last two steps: parse5 reads it all again (hast-util-raw, what
 * rehype-raw runs) and GitHub's allow-list sanitises the result
 * (hast-util-sanitize, what rehype-sanitize runs). So raw HTML is parsed and
 * sanitised exactly as before, without micromark and mdast, whose cold start
 * made the few bodies with HTML cost as much as all the others in a small build.
 */
import type { Element, Root } from 'hast'
import { raw } from 'hast-util-raw'
import { sanitize } from 'hast-util-sanitize'
import { dropDoubledIdPrefix } from './hast-clobber.ts'
import { BODY_SCHEMA } from './sanitize-schema.ts'

const PREFIX = 'user-content-'

/** Parse the raw nodes of `tree` in context and sanitise the whole tree, as the reference renderer does. */
export function parseAndSanitize(tree: Root): Root {
  const clean = sanitize(raw(tree), BODY_SCHEMA) as Root
  dropDoubledIdPrefix(clean)
  singleDescribedByPrefix(clean)
  return clean
}

/**
 * A footnote reference's `aria-describedby` names the footnotes' heading with
 * the prefix the sanitiser gives it; the tree built here has it already, so the
 * sanitiser's second one is dropped (remark-rehype's tree had none).
 */
function singleDescribedByPrefix(node: Root | Root['children'][number]): void {
  if (node.type === 'element' && node.properties.dataFootnoteRef !== undefined) fixDescribedBy(node)
  if ('children' in node) for (const child of node.children) singleDescribedByPrefix(child)
}

function fixDescribedBy(node: Element): void {
  const ids = node.properties.ariaDescribedBy
  if (!Array.isArray(ids)) return
  node.properties.ariaDescribedBy = ids.map((id) =>
    typeof id === 'string' && id.startsWith(PREFIX + PREFIX) ? id.slice(PREFIX.length) : id,
  )
}
