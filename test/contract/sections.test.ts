/**
 * contract/sections.ts on bodies the MCP test's fixture lacks: a `#` line in
 * a code fence is no heading, setext headings count, a heading's `{#id}` and
 * markup do not keep it from being found, and a heading inside a component
 * or a quote bounds a section like any other.
 */
import { describe, expect, it } from 'vitest'
import { renderBody } from '../../build/pipeline/markdown.ts'
import { readableMarkdown } from '../../contract/readable-markdown.ts'
import { sectionOf, unknownSectionMessage } from '../../contract/sections.ts'

function sections(markdown: string): Record<string, string> {
  const { toc } = renderBody(markdown).rendered!
  return Object.fromEntries(toc.map((entry) => [entry.id, sectionOf(markdown, toc, entry.id)!.markdown]))
}

describe('sectionOf', () => {
  it('skips code fences, reads setext headings, explicit ids and markup', () => {
    const body = [
      'Intro.',
      '',
      'Setup *first*',
      '=============',
      '',
      '```sh',
      '# not a heading',
      '```',
      '',
      '## The **plan** {#plan}',
      '',
      'Steps.',
      '',
      'Later',
      '-----',
      '',
      'Done.',
    ].join('\n')
    expect(sections(body)).toEqual({
      'setup-first': body.split('\n').slice(2).join('\n'),
      plan: '## The **plan** {#plan}\n\nSteps.',
      later: 'Later\n-----\n\nDone.',
    })
  })

  it('bounds a section by headings inside components and quotes too', () => {
    const body = '## One\n\nA.\n\n:::callout\n## Two\n\nB.\n:::\n\n> ## Three\n>\n> C.\n'
    expect(sections(body)).toEqual({
      one: '## One\n\nA.',
      two: '## Two\n\nB.\n:::',
      three: '> ## Three\n>\n> C.',
    })
    // As agents read them: no directive line is left of a component a section cuts through.
    expect(readableMarkdown(sections(body).one!)).toBe('## One\n\nA.')
    expect(readableMarkdown(sections(body).two!)).toBe('## Two\n\nB.')
  })

  it('says which ids there are when one is unknown', () => {
    const toc = [
      { depth: 2, text: 'Pricing', id: 'pricing' },
      { depth: 2, text: 'FAQ', id: 'faq' },
    ]
    expect(unknownSectionMessage('pricng', toc)).toBe(
      'No section "pricng" in this item (did you mean "pricing"?). Its sections: pricing, faq.',
    )
    expect(unknownSectionMessage('x', [])).toBe(
      'This item has no sections (no headings), so there is no section "x"; leave section out.',
    )
  })
})
