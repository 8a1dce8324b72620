/**
 * The YAML mistakes authors make, reported on the line they made them, in
 * their words, with a fix that works: each file below, changed as its error
 * says, passes `npm run check`. And a file without its `---` fences gets one
 * error saying so, not one "is required" per field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ContentErrors } from '../../../build/core/errors.ts'
import { checkContent } from '../../../build/compiler/build.ts'
import { createProject, type TempProject } from '../../helpers/project.ts'

const post = (...lines: string[]) => `---\n${lines.join('\n')}\n---\nThe body.\n`

/** Each file as written, what `check` says of it, and the file as the message says to write it. */
const CASES: { file: string; written: string; errors: string[]; fixed: string }[] = [
  {
    // The issue's own case: one space too many before `authors:` on line 5.
    file: 'extra-space.md',
    written: post('title: Launch', 'tags: [launch]', 'published_at: 2026-12-01', ' authors:', '  - name: Ann Lee'),
    errors: ['5:2 authors: this key is indented more than the key above it; keys of the frontmatter start at column 1'],
    fixed: post('title: Launch', 'tags: [launch]', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
  {
    file: 'nested-extra-space.md',
    written: post('title: Nested', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee', '     title: CTO'),
    errors: ['6:6 title: this key is indented more than the key above it; the keys of authors[0] start at column 5'],
    fixed: post('title: Nested', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee', '    title: CTO'),
  },
  {
    file: 'between.md',
    written: post('title: Between', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee', ' draft: true'),
    errors: [
      '6:2 draft: this key is in column 2, in line with no key above it: start it at column 5 for a field of authors[0], or at column 1 for a field of the frontmatter',
    ],
    fixed: post('title: Between', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee', 'draft: true'),
  },
  {
    file: 'no-space.md',
    written: post('title:No space', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
    errors: [
      '2:1 title: a colon needs a space after it, else YAML reads "title:No space" as one word: write title: No space',
    ],
    fixed: post('title: No space', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
  {
    file: 'unclosed-quote.md',
    written: post('title: "Unclosed', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
    errors: ['2:8 title: the value opened with " is never closed: end it with " on its line, like title: "Unclosed"'],
    fixed: post('title: "Unclosed"', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
  {
    file: 'colon.md',
    written: post('title: Launch: the new thing', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
    errors: [
      '2:8 title: the value has a colon followed by a space, which YAML reads as the start of another field: put the value in quotes, like title: "Launch: the new thing"',
    ],
    fixed: post('title: "Launch: the new thing"', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
  {
    file: 'tab.md',
    written: post('title: Tab', 'published_at: 2026-12-01', 'authors:', '\t- name: Ann Lee'),
    errors: ['5:1 frontmatter: a tab indents this line: YAML indents with spaces only'],
    fixed: post('title: Tab', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
  {
    // Two mistakes in one file: both named in one run, the second where it is once the first is fixed.
    file: 'two.md',
    written: post('title: Two: of them', 'published_at: 2026-12-01', '  authors:', '  - name: Ann Lee'),
    errors: [
      '2:8 title: the value has a colon followed by a space, which YAML reads as the start of another field: put the value in quotes, like title: "Two: of them"',
      '4:3 authors: this key is indented more than the key above it; keys of the frontmatter start at column 1',
    ],
    fixed: post('title: "Two: of them"', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
  {
    file: 'no-fences.md',
    written: 'title: No fences\npublished_at: 2026-12-01\nauthors:\n  - name: Ann Lee\n\nThe body.\n',
    errors: ['1:1 frontmatter: this file has no frontmatter (it must start with a line `---`)'],
    fixed: post('title: No fences', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
  {
    file: 'blank-first.md',
    written: `\n${post('title: Blank first', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee')}`,
    errors: [
      '1:1 frontmatter: this file has no frontmatter (it must start with a line `---`); its first `---` is on line 2, which must be the first line',
    ],
    fixed: post('title: Blank first', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
  {
    file: 'never-closed.md',
    written:
      '---\ntitle: Never closed\npublished_at: 2026-12-01\nauthors:\n  - name: Ann Lee\n\nThe body: it goes on.\n',
    errors: ['1:1 frontmatter: the frontmatter is never closed: end it with a line `---` before the body'],
    fixed: post('title: Never closed', 'published_at: 2026-12-01', 'authors:', '  - name: Ann Lee'),
  },
]

describe('YAML mistakes in a frontmatter', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await createProject(
      Object.fromEntries(CASES.map(({ file, written }) => [`content/blog-posts/${file}`, written])),
    )
  })
  afterAll(() => project.remove())

  it('are reported on the line to change, in the words of the fix, all in one run', async () => {
    const error = await checkContent(project.root).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentErrors)
    const all = (error as ContentErrors).errors
    const of = (file: string) => all.filter((e) => e.file === `content/blog-posts/${file}`)
    for (const { file, errors } of CASES)
      expect(
        of(file).map((e) => `${e.line}:${e.column} ${e.field}: ${e.detail}`),
        file,
      ).toEqual(errors)
    expect(of('no-fences.md').map((e) => e.code)).toEqual(['NO_FRONTMATTER'])
  })

  it('each as its message says to write it passes the check', async () => {
    for (const { file, fixed } of CASES) await project.write(`content/blog-posts/${file}`, fixed)
    await expect(checkContent(project.root)).resolves.toMatchObject({ files: CASES.length })
  })
})
