/**
 * The documentation holds together: the README stays short and links every
 * page of docs/ by reader, BENCHMARKS.md and RELIABILITY.md stay within their
 * length, and every relative link of those pages names a file that exists
 * and, with a `#fragment`, a heading of that file (GitHub's anchors).
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/project.ts'

/** The pages of docs/ the README must link, one per reader and the API's two. */
const DOC_PAGES = [
  'docs/operating.md',
  'docs/deploying.md',
  'docs/api.md',
  'docs/agents.md',
  'docs/authoring.md',
  'docs/content-model.md',
  'docs/architecture.md',
  'docs/api-client.md',
  'docs/api-lifecycle.md',
]

/** The pages whose links are checked: the README, every page of docs/, the figures and bench/'s README. */
async function checkedPages(): Promise<string[]> {
  const docs = (await readdir(join(REPO_ROOT, 'docs'))).filter((name) => name.endsWith('.md'))
  return ['README.md', 'BENCHMARKS.md', 'RELIABILITY.md', 'bench/README.md', ...docs.map((name) => `docs/${name}`)]
}

/** Markdown without its fenced blocks and comments, where a `#` starts no heading. */
function withoutBlocks(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/<!--[\s\S]*?-->/g, '')
}

/** Markdown without its fenced blocks, comments and inline code, where brackets are no links. */
function prose(markdown: string): string {
  return withoutBlocks(markdown).replace(/(`+)[^`\n]*?\1/g, '')
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** Every anchor of a Markdown page, repeated headings numbered as GitHub does (`-1`, `-2`). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const [, text] of withoutBlocks(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchor(text!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    out.add(count === 0 ? base : `${base}-${count}`)
  }
  return out
}

/** The relative link targets of a page: inline links and images, and reference definitions. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown)
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!)
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!)
  return [...inline, ...references].filter((target) => !/^([a-z][a-z0-9+.-]*:|\/)/i.test(target))
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

/** The links of `page` (a path from the repository root) that name no file, or no heading of it. */
async function brokenLinks(page: string, markdown: string): Promise<string[]> {
  const broken: string[] = []
  for (const target of linkTargets(markdown)) {
    const [path, fragment] = target.split('#') as [string, string | undefined]
    const file = path ? resolve(REPO_ROOT, dirname(page), decodeURIComponent(path)) : join(REPO_ROOT, page)
    if (!(await exists(file))) {
      broken.push(`${page}: ${target} (no ${relative(REPO_ROOT, file)})`)
      continue
    }
    if (fragment === undefined || !file.endsWith('.md')) continue
    const anchors = anchorsOf(path ? await readFile(file, 'utf8') : markdown)
    if (!anchors.has(decodeURIComponent(fragment)))
      broken.push(`${page}: ${target} (no heading #${fragment} in ${relative(REPO_ROOT, file)})`)
  }
  return broken
}

const read = (path: string) => readFile(join(REPO_ROOT, path), 'utf8')
const lines = (text: string) => text.replace(/\n$/, '').split('\n').length

describe('the documentation', () => {
  it('finds links and anchors the way GitHub does (the checks below are not vacuous)', async () => {
    const page = [
      '# The API',
      '## `content/site.yaml` and locales',
      '## Notes',
      '## Notes',
      'See [a](docs/api.md#lists-and-items), ![b](docs/images/editor-form.png "t"), [c](#notes-1),',
      '[d](https://example.com), [e](/docs/), `[f](not-a-link.md)` and [g](missing.md#x).',
      '```sh',
      'echo "[h](in-a-fence.md)"',
      '```',
      '[i]: docs/missing-page.md',
    ].join('\n')
    expect([...anchorsOf(page)]).toEqual(['the-api', 'contentsiteyaml-and-locales', 'notes', 'notes-1'])
    expect(linkTargets(page)).toEqual([
      'docs/api.md#lists-and-items',
      'docs/images/editor-form.png',
      '#notes-1',
      'missing.md#x',
      'docs/missing-page.md',
    ])
    expect(await brokenLinks('README.md', page)).toEqual([
      'README.md: missing.md#x (no missing.md)',
      'README.md: docs/missing-page.md (no docs/missing-page.md)',
    ])
    expect(await brokenLinks('README.md', '[x](docs/api.md#no-such-heading)')).toEqual([
      'README.md: docs/api.md#no-such-heading (no heading #no-such-heading in docs/api.md)',
    ])
  })

  it('has a README of at most 150 lines that links every page of docs/ and the figures', async () => {
    const readme = await read('README.md')
    expect(lines(readme)).toBeLessThanOrEqual(150)
    const linked = new Set(linkTargets(readme).map((target) => target.split('#')[0]))
    for (const page of [...DOC_PAGES, 'BENCHMARKS.md', 'RELIABILITY.md']) expect(linked, page).toContain(page)
  })

  it("says in the README's set-up the Node versions package.json allows, and that npm start keeps the terminal", async () => {
    const readme = await read('README.md')
    const setUp = readme.slice(readme.indexOf('## Set-up'), readme.indexOf('\n## ', readme.indexOf('## Set-up') + 1))
    const { engines } = JSON.parse(await read('package.json')) as { engines: { node: string } }
    const minimum = /^>=(\d+\.\d+)/.exec(engines.node)![1]!
    expect(setUp).toContain(`Node ${minimum} and later`)
    // Every other "Node <n>" the set-up names is the pinned one or at least the minimum.
    for (const [, version] of setUp.matchAll(/Node (\d+(?:\.\d+)?)/g))
      expect(Number(version), `Node ${version}`).toBeGreaterThanOrEqual(Number(minimum.split('.')[0]))
    expect(setUp).toMatch(/npm start[^\n]*keeps the terminal/)
  })

  it('keeps BENCHMARKS.md and RELIABILITY.md to at most 400 lines each', async () => {
    for (const page of ['BENCHMARKS.md', 'RELIABILITY.md'])
      expect(lines(await read(page)), page).toBeLessThanOrEqual(400)
  })

  it('has no relative link that names a missing file or heading', async () => {
    const broken: string[] = []
    for (const page of await checkedPages()) broken.push(...(await brokenLinks(page, await read(page))))
    expect(broken).toEqual([])
  })
})
