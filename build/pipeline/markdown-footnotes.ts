/**
 * GFM footnotes as mdast-util-to-hast writes them (after the sanitiser's
 * `user-content-` prefix): references `<sup><a href="#user-content-fn-x"
 * id="user-content-fnref-x">1</a></sup>`, then a `<section data-footnotes>`
 * with back references. Numbers follow the first reference, ids the label.
 */
import type { Element, ElementContent } from 'hast'
import { normalizeUri } from 'micromark-util-sanitize-uri'
import { element, wrap } from './hast-nodes.ts'

const PREFIX = 'user-content-'
const LABEL_ID = `${PREFIX}footnote-label`

/** markdown-it-footnote's env.footnotes.list: one entry per referenced note, in order of first reference. */
export type FootnoteList = { label?: string; count: number }[]

/** The id mdast-util-to-hast derives from a label (normalised identifier, lower case, URL-safe). */
export function footnoteId(label: string): string {
  const identifier = label
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase()
    .toUpperCase()
  return normalizeUri(identifier.toLowerCase())
}

/** A reference; `seen` counts earlier references per note, for the `-2` suffix of repeated ones. */
export function footnoteReference(label: string, index: number, seen: Map<string, number>): Element {
  const id = footnoteId(label)
  const reuse = (seen.get(id) ?? 0) + 1
  seen.set(id, reuse)
  const link = element(
    'a',
    {
      href: `#${PREFIX}fn-${id}`,
      id: `${PREFIX}fnref-${id}${reuse > 1 ? `-${reuse}` : ''}`,
      dataFootnoteRef: '',
      ariaDescribedBy: [LABEL_ID],
    },
    [{ type: 'text', value: String(index + 1) }],
  )
  return element('sup', {}, [link])
}

export function footnoteSection(
  notes: { label: string; index: number; content: ElementContent[] }[],
  list: FootnoteList,
): Element {
  const items = notes.map(({ label, index, content }) => {
    const id = footnoteId(label)
    const backReferences: ElementContent[] = []
    for (let n = 1; n <= list[index]!.count; n++) {
      if (n > 1) backReferences.push({ type: 'text', value: ' ' })
      const children: ElementContent[] = [{ type: 'text', value: '↩' }]
      if (n > 1) children.push(element('sup', {}, [{ type: 'text', value: String(n) }]))
      backReferences.push(
        element(
          'a',
          {
            href: `#${PREFIX}fnref-${id}${n > 1 ? `-${n}` : ''}`,
            dataFootnoteBackref: '',
            ariaLabel: `Back to reference ${index + 1}${n > 1 ? `-${n}` : ''}`,
            className: ['data-footnote-backref'],
          },
          children,
        ),
      )
    }
    const tail = content.at(-1)
    if (tail?.type === 'element' && tail.tagName === 'p') {
      const last = tail.children.at(-1)
      if (last?.type === 'text') last.value += ' '
      else tail.children.push({ type: 'text', value: ' ' })
      tail.children.push(...backReferences)
    } else {
      content.push(...backReferences)
    }
    return element('li', { id: `${PREFIX}fn-${id}` }, wrap(content, true))
  })
  return element('section', { dataFootnotes: '', className: ['footnotes'] }, [
    element('h2', { className: ['sr-only'], id: LABEL_ID }, [{ type: 'text', value: 'Footnotes' }]),
    { type: 'text', value: '\n' },
    element('ol', {}, wrap(items, true)),
    { type: 'text', value: '\n' },
  ])
}
