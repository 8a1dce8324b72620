import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { itemFile } from '../../../contract/paths.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { createProject, type TempProject } from '../../helpers/project.ts'

const HOSTILE = `---
title: Hostile
published_at: 2026-02-01
authors:
  - name: Mallory
---
A table and code must survive.

| Plan | Seats |
|------|------:|
| Team | 25 |

\`\`\`sql
select count(*) from orders where status = 'late';
\`\`\`

<script>alert('x')</script>

[click me](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=)

<img src="https://cdn.example/a.png" alt="a" onerror="alert(1)">

<a href="https://ok.example" onclick="steal()" style="color:red">ok link</a>

<iframe src="https://evil.example"></iframe>

<details><summary>More</summary>Hidden text</details>
`

describe('markdown rendering', () => {
  let project: TempProject
  let html: string
  let text: string
  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/hostile.md': HOSTILE })
    await buildSite({ root: project.root })
    const record = JSON.parse(await readFile(join(project.dist, itemFile('blog-posts', 'hostile')), 'utf8'))
    html = record.body.html
    text = record.body.text
    expect(record.body.markdown).toContain('<script>alert')
  })
  afterAll(() => project.remove())

  it('keeps GFM tables and fenced code with its language', () => {
    expect(html).toContain('<table>')
    expect(html).toMatch(/<td[^>]*>25<\/td>/)
    expect(html).toContain('<pre><code class="language-sql">')
    expect(html).toContain("select count(*) from orders where status = 'late';")
    expect(html).toContain('<details><summary>More</summary>')
  })

  it('never lets scripts, javascript: URLs or event handlers into html', () => {
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/javascript:/i)
    expect(html).not.toMatch(/data:text\/html/i)
    expect(html).not.toMatch(/\son[a-z]+=/i)
    expect(html).not.toMatch(/<iframe/i)
    expect(html).not.toMatch(/style=/i)
    expect(html).toContain('href="https://ok.example"')
  })

  it('derives plain text without markup', () => {
    expect(text).toContain('A table and code must survive.')
    expect(text).not.toMatch(/<[a-z]/i)
    expect(text).not.toContain("alert('x')")
  })
})
