import { describe, expect, it } from 'vitest'
import { readableMarkdown } from '../../contract/readable-markdown.ts'

describe('readableMarkdown', () => {
  it('writes components as plain Markdown and leaves prose and code alone', () => {
    const body = [
      'See :abbr[API]{title="Application programming interface"}, mail mailto:x@y.com.',
      '',
      ':::callout{tone=tip}',
      'Use **staging** first.',
      ':::',
      '',
      '::video{src="https://vimeo.com/76979871" title="Tour"}',
      '',
      '```md',
      '::video{src="https://vimeo.com/1" title="In code"}',
      '```',
    ].join('\n')
    expect(readableMarkdown(body)).toBe(
      [
        'See API, mail mailto:x@y.com.',
        '',
        '> **Tip**',
        '>',
        '> Use **staging** first.',
        '',
        'Video: Tour (https://vimeo.com/76979871)',
        '',
        '```md',
        '::video{src="https://vimeo.com/1" title="In code"}',
        '```',
      ].join('\n'),
    )
  })

  it('returns a body without directives unchanged', () => {
    const body = '# Title\n\nA [link](https://x.example) at 10:30.\n'
    expect(readableMarkdown(body)).toBe(body)
  })
})
