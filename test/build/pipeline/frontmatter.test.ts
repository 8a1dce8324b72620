import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import matter from 'gray-matter'
import { describe, expect, it } from 'vitest'
import { checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { splitFrontmatter } from '../../../build/pipeline/frontmatter.ts'
import { createProject, FIXTURE_CONTENT, REPO_ROOT, validPost } from '../../helpers/project.ts'

/** Every Markdown file of the tests' fixtures (the repository's content/ is the authors': tests never read it). */
async function markdownFiles(): Promise<string[]> {
  const texts: string[] = []
  for (const root of [FIXTURE_CONTENT, join(REPO_ROOT, 'test/fixtures/locales')])
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true }))
      if (entry.isFile() && entry.name.endsWith('.md'))
        texts.push((await readFile(join(entry.parentPath, entry.name), 'utf8')).replace(/\r\n?/g, '\n'))
  return texts
}

/** The splits gray-matter got wrong or right alike, by hand: what authors write, and its corners. */
const CORNERS = [
  '',
  'No frontmatter at all.\n',
  '---\ntitle: A\n---\nBody.\n',
  '---\ntitle: A\n---\n\n\nBody after blank lines.\n',
  '---\ntitle: A\n---',
  '---\ntitle: A\n---\n',
  '---\ntitle: A\nno closing line\n',
  '----\ntitle: A\n----\nA thematic break first.\n',
  '---\n---\nEmpty frontmatter.\n',
  '---\n# only a comment\n  # and another\n---\nBody.\n',
  '---\n\n\n---\nBlank frontmatter.\n',
  '---yaml\ntitle: A\n---\nBody.\n',
  '--- yml \ntitle: A\n---\nBody.\n',
  '---   \ntitle: A\n---\nBody.\n',
  '---\ntitle: A\n---more on the closing line\nBody.\n',
  '---\ntitle: A\n---\n---\nA second marker in the body.\n',
  '---\ntitle: "a --- b"\n---\nBody with --- inside.\n',
  ' ---\ntitle: A\n---\nIndented opening.\n',
  '---\ntitle: A\n---\r\nBody.\n',
]

describe('splitFrontmatter', () => {
  it('splits every file as gray-matter did: the same body, and the same frontmatter text where it has any', async () => {
    const texts = [...(await markdownFiles()), ...CORNERS]
    expect(texts.length).toBeGreaterThan(40)
    for (const text of texts) {
      let engineInput: string | undefined
      const yaml = (input: string) => {
        engineInput = input
        return {}
      }
      const theirs = matter(text, { engines: { yaml } })
      const ours = splitFrontmatter(text)
      expect({ text, content: ours.content, matter: ours.matter }).toEqual({
        text,
        content: theirs.content,
        matter: engineInput,
      })
      if (ours.matter !== undefined) expect(text.slice(ours.start, ours.start + ours.matter.length)).toBe(ours.matter)
      // gray-matter names the language 'yaml' when the opening line names none (and none for '').
      if (text) expect(ours.language || 'yaml').toBe(theirs.language)
    }
  })

  it('never runs a frontmatter written in another language: `---js` is an author error at the opening line', async () => {
    const ran = '__frontmatterRan'
    const project = await createProject({
      'content/blog-posts/good.md': validPost(),
      'content/blog-posts/script.md': `---js\n(globalThis.${ran} = true, { title: "Ran" })\n---\nBody.\n`,
      'content/blog-posts/json.md': '---json\n{ "title": "Jason" }\n---\nBody.\n',
      'content/blog-posts/named.md': validPost('Named').replace(/^---/, '---yaml'),
    })
    try {
      const error = await checkContent(project.root).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ContentErrors)
      expect((error as ContentErrors).errors.map((e) => e.message)).toEqual([
        'content/blog-posts/json.md:1:4 frontmatter: "---json" opens frontmatter in another language; frontmatter is YAML: open it with a line of just "---"',
        'content/blog-posts/script.md:1:4 frontmatter: "---js" opens frontmatter in another language; frontmatter is YAML: open it with a line of just "---"',
      ])
      expect(ran in globalThis).toBe(false)
    } finally {
      await project.remove()
    }
  })
})
