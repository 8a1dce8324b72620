/** Small builders for the hast trees markdown-hast.ts makes. */
import type { Element, ElementContent, Properties } from 'hast'

export function element(tagName: string, properties: Properties, children: ElementContent[]): Element {
  return { type: 'element', tagName, properties, children }
}

export function line(): ElementContent {
  return { type: 'text', value: '\n' }
}

/** Children separated by line endings, and surrounded by them when `loose` (mdast-util-to-hast's wrap). */
export function wrap(nodes: ElementContent[], loose: boolean): ElementContent[] {
  const out: ElementContent[] = loose ? [line()] : []
  for (const [i, node] of nodes.entries()) {
    if (i) out.push(line())
    out.push(node)
  }
  if (loose && nodes.length) out.push(line())
  return out
}
