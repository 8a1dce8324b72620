/**
 * Exports larger than the memory the import may use, written here to
 * temporary files larger than FILE_MB and imported with the V8 heap capped
 * below that (HEAP_MB): WordPress's of a site with years of comments (most
 * of a real export), and Ghost's with each post's editor document beside its html. A
 * reader that held the file, or every item, would run out of memory; the
 * streaming ones read each item and let it go.
 */
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCommand } from '../helpers/commands.ts'
import { createProject, type TempProject } from '../helpers/project.ts'

const POSTS = 150
/** Comments per post, each of COMMENT characters. */
const COMMENTS = 500
const COMMENT = 1000
const HEAP_MB = 64
/** What each export is larger than: more than the heap holds, with room to spare. */
const FILE_MB = 75

async function writeExport(file: string): Promise<void> {
  const out = createWriteStream(file)
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  await write(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/">
<channel><title>Big</title><link>https://big.example</link>
<wp:author><wp:author_login>ann</wp:author_login><wp:author_display_name><![CDATA[Ann Lee]]></wp:author_display_name></wp:author>
`)
  const comment = `<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_content><![CDATA[${'A reader wrote this. '.repeat(COMMENT / 21)}]]></wp:comment_content></wp:comment>\n`
  for (let i = 1; i <= POSTS; i++) {
    await write(`<item><title>Post ${i}</title><link>https://big.example/${i}/</link><dc:creator>ann</dc:creator>
<content:encoded><![CDATA[<!-- wp:paragraph --><p>Post number ${i}.</p><!-- /wp:paragraph -->]]></content:encoded>
<excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>${i}</wp:post_id><wp:post_date_gmt>2020-01-01 00:00:00</wp:post_date_gmt>
<wp:post_name>post-${i}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><wp:post_password></wp:post_password>
`)
    for (let c = 0; c < COMMENTS; c++) await write(comment)
    await write('</item>\n')
  }
  await write('</channel></rss>\n')
  out.end()
  await once(out, 'finish')
}

/** Ghost's JSON, each post with a large Mobiledoc document (the html is what is imported). */
async function writeGhostExport(file: string): Promise<void> {
  const out = createWriteStream(file)
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  const doc = JSON.stringify(
    JSON.stringify({ version: '0.3.1', sections: [[1, 'p', [[0, [], 0, 'x'.repeat(COMMENTS * COMMENT * 1.1)]]]] }),
  )
  await write('{"db":[{"meta":{"version":"5.80.0"},"data":{"posts":[')
  for (let i = 1; i <= POSTS; i++)
    await write(
      `${i > 1 ? ',' : ''}{"id":"${i}","title":"Post ${i}","slug":"post-${i}","type":"post","status":"published","visibility":"public","published_at":"2024-01-01T00:00:00.000Z","html":"<p>Post ${i}.</p>","mobiledoc":${doc}}`,
    )
  await write('],"users":[{"id":"1","name":"Ann Lee"}],"posts_authors":[')
  for (let i = 1; i <= POSTS; i++) await write(`${i > 1 ? ',' : ''}{"post_id":"${i}","author_id":"1","sort_order":0}`)
  await write(']}}]}\n')
  out.end()
  await once(out, 'finish')
}

describe('exports larger than the memory the import may use', () => {
  let project: TempProject
  let file: string
  let ghost: string
  beforeAll(async () => {
    project = await createProject()
    file = join(project.root, 'export.xml')
    ghost = join(project.root, 'export.json')
    await writeExport(file)
    await writeGhostExport(ghost)
    // The commands' bundle made first (bundling is not what is measured).
    await runCommand('import', ['--help'])
  }, 120_000)
  afterAll(() => project?.remove())

  it(`imports WordPress's with the heap capped at ${HEAP_MB} MB`, async () => {
    expect((await stat(file)).size).toBeGreaterThan(FILE_MB * 1024 * 1024)
    const run = await runCommand('import', ['wordpress', file, '--root', project.root, '--dry-run'], {
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`post: ${POSTS} would be created`)
  }, 300_000)

  it(`imports Ghost's with the heap capped at ${HEAP_MB} MB`, async () => {
    expect((await stat(ghost)).size).toBeGreaterThan(FILE_MB * 1024 * 1024)
    const run = await runCommand('import', ['ghost', ghost, '--root', project.root, '--dry-run'], {
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`post: ${POSTS} would be created`)
  }, 300_000)
})
