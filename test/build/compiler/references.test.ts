/**
 * References between items (`related: [collection/slug, …]`): each must name
 * a published item, reported at the entry's file:line:col; full records carry
 * the resolved items; an edit to a referenced item reaches the items that
 * point to it, in a build and in the watch mode's compiler alike.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { Compiler } from '../../../build/compiler/compiler.ts'
import { itemPath } from '../../../build/core/sources.ts'
import { REFERENCE_PATTERN } from '../../../contract/patterns.ts'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'

const post = (title: string, related: string[] = [], extra = '') =>
  validPost(title, `${related.length ? `related:\n${related.map((r) => `  - ${r}`).join('\n')}\n` : ''}${extra}`)

let project: TempProject | undefined
afterEach(() => project?.remove())

async function errorsOf(root: string): Promise<string[]> {
  const error = await checkContent(root).catch((e: unknown) => e)
  if (!(error instanceof ContentErrors)) throw new Error(`expected content errors, got ${String(error)}`)
  return error.errors.map((e) => e.message)
}

describe('related items', () => {
  it('resolve into full records (collection, slug, title, url), and stay out of lists', async () => {
    project = await createProject({
      'content/blog-posts/a.md': post('Post A', ['blog-posts/b', 'case-studies/c']),
      'content/blog-posts/b.md': post('Post B'),
      'content/case-studies/c.md': `---\ntitle: Case C\npublished_at: 2026-01-01\ncustomer: { name: Acme, industry: Retail }\nresults: [{ label: Time saved, value: 30% }]\n---\nBody.\n`,
    })
    await buildSite({ root: project.root })
    const a = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/a.json'), 'utf8')) as { related: unknown }
    expect(a.related).toEqual([
      { collection: 'blog-posts', slug: 'b', title: 'Post B', url: 'https://www.fixture.example/blog/b' },
      { collection: 'case-studies', slug: 'c', title: 'Case C', url: 'https://www.fixture.example/customers/c' },
    ])
    const b = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/b.json'), 'utf8')) as { related: unknown }
    expect(b.related).toEqual([])
    const list = await readFile(join(project.dist, 'api/blog-posts/_list/limit-10.json'), 'utf8')
    expect(list).not.toContain('"related"')
  })

  it('must name a published item: missing (with a near miss), a draft, or malformed, each at file:line:col related[i]', async () => {
    project = await createProject({
      'content/blog-posts/a.md': post('Post A', [
        'blog-posts/bb',
        'blog-posts/draft-post',
        'webinars/nothing-like-it',
        'Blog/B',
      ]),
      'content/blog-posts/b.md': post('Post B'),
      'content/blog-posts/draft-post.md': post('A draft', ['blog-posts/other-draft'], 'draft: true\n'),
      'content/blog-posts/other-draft.md': post('Another draft', [], 'draft: true\n'),
    })
    // All in one run: the malformed entry (a schema error) does not hide the others.
    expect(await errorsOf(project.root)).toEqual([
      'content/blog-posts/a.md:8:5 related[0]: "blog-posts/bb" is not an item (did you mean blog-posts/b?)',
      'content/blog-posts/a.md:9:5 related[1]: "blog-posts/draft-post" is a draft: a published item may only point to published items',
      'content/blog-posts/a.md:10:5 related[2]: "webinars/nothing-like-it" is not an item',
      'content/blog-posts/a.md:11:5 related[3]: must name an item as collection/slug, like blog-posts/my-first-post',
    ])
    await project.write(
      'content/blog-posts/a.md',
      post('Post A', ['blog-posts/bb', 'blog-posts/draft-post', 'webinars/nothing-like-it']),
    )
    expect(await errorsOf(project.root)).toEqual([
      'content/blog-posts/a.md:8:5 related[0]: "blog-posts/bb" is not an item (did you mean blog-posts/b?)',
      'content/blog-posts/a.md:9:5 related[1]: "blog-posts/draft-post" is a draft: a published item may only point to published items',
      'content/blog-posts/a.md:10:5 related[2]: "webinars/nothing-like-it" is not an item',
    ])
  })

  it('follow an edit to the item they point to, without recompiling the item that points', async () => {
    project = await createProject({
      'content/blog-posts/a.md': post('Post A', ['case-studies/c']),
      'content/case-studies/c.md': `---\ntitle: Case C\npublished_at: 2026-01-01\ncustomer: { name: Acme, industry: Retail }\nresults: [{ label: Time saved, value: 30% }]\n---\nBody.\n`,
    })
    const compiler = await Compiler.open({ root: project.root, cache: false })
    const first = (await compiler.emit('full'))!
    const before = first.files.get('api/blog-posts/a.json')!
    await project.write(
      'content/case-studies/c.md',
      `---\ntitle: Case C, renamed\npublished_at: 2026-01-01\ncustomer: { name: Acme, industry: Retail }\nresults: [{ label: Time saved, value: 30% }]\n---\nBody.\n`,
    )
    const update = await compiler.update([itemPath('case-studies', 'c.md')])
    expect(update?.files).toEqual(['content/case-studies/c.md'])
    const after = (await compiler.emit('edit'))!.files.get('api/blog-posts/a.json')!
    expect(after.etag).not.toBe(before.etag)
    expect(JSON.parse(after.body.toString()).related[0].title).toBe('Case C, renamed')
    // Unpublishing it is an error at the reference.
    await project.write(
      'content/case-studies/c.md',
      `---\ntitle: Case C\npublished_at: 2026-01-01\ndraft: true\ncustomer: { name: Acme, industry: Retail }\nresults: [{ label: Time saved, value: 30% }]\n---\nBody.\n`,
    )
    const unpublished = await compiler.update([itemPath('case-studies', 'c.md')])
    const state = unpublished!.state
    if (state.ok) throw new Error('expected the reference to be an error')
    expect(state.errors.errors.map((e) => e.message)).toEqual([
      'content/blog-posts/a.md:8:5 related[0]: "case-studies/c" is a draft: a published item may only point to published items',
    ])
  })

  it('internal links in a body must reach a published item, reported at the link', async () => {
    const body = [
      'Read [the other post](https://www.fixture.example/blog/b) and [its sign-up page](/blog/b/register).',
      '',
      'Also [a typo](/blog/bb), [a draft](https://www.fixture.example/blog/draft-post) and [by reference][ref].',
      '',
      'Pages that are not items are not checked: [pricing](/pricing), [the blog](/blog), [elsewhere](https://other.example/blog/x).',
      '',
      '[ref]: /customers/nobody',
      '',
    ].join('\n')
    project = await createProject({
      'content/blog-posts/a.md': `---\ntitle: Post A\npublished_at: 2026-01-05\nauthors:\n  - name: A\n---\n${body}`,
      'content/blog-posts/b.md': post('Post B'),
      'content/blog-posts/draft-post.md': post('A draft', [], 'draft: true\n'),
    })
    expect(await errorsOf(project.root)).toEqual([
      'content/blog-posts/a.md:9:15 body: link /blog/bb points to "blog-posts/bb", which is not an item (did you mean blog-posts/b?)',
      'content/blog-posts/a.md:9:36 body: link https://www.fixture.example/blog/draft-post points to "blog-posts/draft-post", which is a draft: a published item may only point to published items',
      'content/blog-posts/a.md:13:8 body: link /customers/nobody points to "case-studies/nobody", which is not an item',
    ])
  })

  it('the reference syntax names exactly the collections', () => {
    expect(REFERENCE_PATTERN).toBe(`^(?:${COLLECTION_NAMES.join('|')})/[a-z0-9]+(?:-[a-z0-9]+)*$`)
  })
})
