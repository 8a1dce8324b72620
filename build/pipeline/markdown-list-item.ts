/**
 * A GFM list item as mdast-util-to-hast writes it: the task checkbox of
 * `- [x]` items, paragraphs unwrapped in tight lists, line endings between
 * children.
 */
import type { Element, ElementContent, Properties } from 'hast'
import { element, line } from './hast-nodes.ts'

/** A list item from its children's hast; `loose` is the list's looseness. */
export function listItem(results: ElementContent[], loose: boolean): Element {
  const properties: Properties = {}
  const head = results[0]
  const paragraph = head?.type === 'element' && head.tagName === 'p' ? head : undefined
  const checked = paragraph ? taskMarker(paragraph) : undefined
  if (checked !== undefined) {
    if (paragraph!.children.length) paragraph!.children.unshift({ type: 'text', value: ' ' })
    paragraph!.children.unshift(element('input', { type: 'checkbox', checked, disabled: true }, []))
    properties.className = ['task-list-item']
  }
  const children: ElementContent[] = []
  results.forEach((child, index) => {
    const isParagraph = child.type === 'element' && child.tagName === 'p'
    if (loose || index !== 0 || !isParagraph) children.push(line())
    if (isParagraph && !loose) children.push(...child.children)
    else children.push(child)
  })
  const tail = results.at(-1)
  if (tail && (loose || tail.type !== 'element' || tail.tagName !== 'p')) children.push(line())
  return element('li', properties, children)
}

/**
 * `[ ]`, `[x]` or `[X]`, one space, tab or line ending, then more content at
 * the start of the item's first paragraph (micromark-extension-gfm-task-list-item);
 * removes the marker and that one character, as mdast-util-gfm-task-list-item does.
 */
function taskMarker(paragraph: Element): boolean | undefined {
  const first = paragraph.children[0]
  if (first?.type !== 'text' || !TASK.test(first.value)) return undefined
  const checked = first.value[1] !== ' '
  first.value = first.value.slice(4)
  if (!first.value) paragraph.children.shift()
  return checked
}

const TASK = /^\[[ xX]\][ \t\n]/
