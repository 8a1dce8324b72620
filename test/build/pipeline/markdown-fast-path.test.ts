/**
 * The reference renderer (markdown-reference.ts) skips rehype-raw and the first-paragraph second pass when a
 * body does not need them. Its output must equal the full pipeline's (every
 * body through rehype-raw, the first paragraph rendered alone) byte for byte.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Root as HastRoot } from 'hast'
import { toText } from 'hast-util-to-text'
import type { Root as MdastRoot } from 'mdast'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { finishTree, readableText } from '../../../build/pipeline/body-finish.ts'
import { singleClobberPrefix } from '../../../build/pipeline/hast-clobber.ts'
import { parseMarkdown, renderMarkdown } from '../../../build/pipeline/markdown-reference.ts'
import { countWords } from '../../../build/pipeline/word-count.ts'
import { BODY_SCHEMA } from '../../../build/pipeline/sanitize-schema.ts'
import { FIXTURE_CONTENT } from '../../helpers/project.ts'
import { splitFrontmatter } from '../../../build/pipeline/frontmatter.ts'

const full = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, BODY_SCHEMA)
  .use(singleClobberPrefix)
  .use(rehypeStringify)

/** The reference rendering: the whole pipeline, always. */
function reference(markdown: string) {
  const tree = full.parse(markdown) as MdastRoot
  const firstParagraph = tree.children.find((n) => n.type === 'paragraph')
  const hast = full.runSync(structuredClone(tree)) as HastRoot
  const { toc, treeJson } = finishTree(hast, markdown)
  const text = readableText(hast)
  const first = firstParagraph
    ? toText(full.runSync({ type: 'root', children: [firstParagraph] }) as HastRoot)
        .replace(/\s+/g, ' ')
        .trim()
    : ''
  return {
    html: full.stringify(hast).trim(),
    text,
    word_count: countWords(text),
    first_paragraph: first,
    toc,
    tree_json: treeJson,
  }
}

const SAMPLES = [
  'Plain first paragraph with *em*, **strong**, `code`, ~~strike~~ and https://auto.example.\n\n## Next\n\nMore.',
  '## Heading first\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\nThe paragraph after, with a [link](https://a.example "t") &amp; &copy;.\n',
  'See [the docs][d] first.\n\n[d]: https://d.example\n',
  'Text with a note[^1].\n\n[^1]: The note.\n',
  'Has <b>raw</b> HTML <script>alert(1)</script> and <a href="javascript:x">bad</a>.\n\n<div onclick="x()">hi</div>\n',
  '- [ ] task\n- [x] done\n\n> quote\n\n---\n\n```js\nconst a = "<b>"\n```\n\n![alt text](https://i.example/a.png)\n',
  '![only an image](https://i.example/b.png)\n\nthen text',
  '',
]

/** The rendering less the images' positions, which the reference above does not compute. */
function withoutImages(tree: MdastRoot) {
  const { images: _images, errors: _errors, ...rendered } = renderMarkdown(tree)
  return rendered
}

describe('renderMarkdown fast paths', () => {
  it('equal the full pipeline on GFM samples', () => {
    for (const sample of SAMPLES) expect(withoutImages(parseMarkdown(sample)), sample).toEqual(reference(sample))
  })

  it('equal the full pipeline on the fixture content', async () => {
    for (const collection of COLLECTION_NAMES) {
      const dir = join(FIXTURE_CONTENT, collection)
      for (const name of (await readdir(dir)).filter((n) => n.endsWith('.md'))) {
        const body = splitFrontmatter(await readFile(join(dir, name), 'utf8')).content
        expect(withoutImages(parseMarkdown(body)), name).toEqual(reference(body))
      }
    }
  })
})
