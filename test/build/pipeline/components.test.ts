/**
 * Components in bodies (issue 50), through real builds: each shipped
 * component's documented HTML and readable text, a site's own component,
 * heading ids equal to the record's toc, and every author error at line:col.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { type BodyTree, bodyNodes } from '../../../contract/body-tree.ts'
import { type RenderedBody, renderBody } from '../../../build/pipeline/markdown.ts'
import { countWords } from '../../../build/pipeline/word-count.ts'
import { parseSiteConfig } from '../../../build/core/site.ts'
import { GFM_SAMPLES, RAW_HTML_SAMPLES } from './markdown-samples.ts'
import { createProject, SITE_YAML, type TempProject } from '../../helpers/project.ts'

const FRONT = '---\ntitle: Launch week\npublished_at: 2026-01-05\nauthors:\n  - name: Ann Lee\n---\n'

const SITE_WITH_COMPONENT = `${SITE_YAML}components:
  pricing-table:
    kind: leaf
    attributes:
      plan: { type: string, enum: [starter, team] }
    required: [plan]
`

const POST = `${FRONT}Launch week starts at 10:30, note:this stays text.

:::callout{tone=warning title="Mind the gap"}
Back up **first**.
:::

::video{src="https://www.youtube.com/watch?v=dQw4w9WgXcQ" title="Launch webinar"}

::cta{label="Book a demo" href="https://www.fixture.example/demo"}

:::quote{attribution="Ann Lee" role="CTO, Acme"}
It just works.
:::

::pricing-table{plan=team}

## Launch week

## What's new? {#new}

<iframe src="https://evil.example/x" title="x"></iframe>
`

interface Record {
  body: { html: string; text: string; markdown: string; tree: BodyTree }
  word_count: number
  toc: { depth: number; text: string; id: string }[]
}

describe('components in bodies', () => {
  let project: TempProject
  let record: Record
  beforeAll(async () => {
    project = await createProject({ 'content/site.yaml': SITE_WITH_COMPONENT, 'content/blog-posts/launch.md': POST })
    await buildSite({ root: project.root })
    record = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/launch.json'), 'utf8')) as Record
  })
  afterAll(() => project.remove())

  it('renders each shipped component to its documented HTML', () => {
    const { html } = record.body
    expect(html).toContain(
      '<aside class="component component-callout" data-component="callout" data-tone="warning" data-title="Mind the gap"><p class="component-callout-title"><strong>Mind the gap</strong></p><p>Back up <strong>first</strong>.</p></aside>',
    )
    expect(html).toContain(
      '<figure class="component component-video" data-component="video" data-provider="youtube" data-src="https://www.youtube.com/watch?v=dQw4w9WgXcQ" data-title="Launch webinar"><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="Launch webinar" loading="lazy" sandbox="allow-scripts allow-same-origin allow-presentation allow-popups" allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen" allowfullscreen referrerpolicy="strict-origin-when-cross-origin"></iframe><figcaption><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ">Launch webinar</a></figcaption></figure>',
    )
    expect(html).toContain(
      '<p class="component component-cta" data-component="cta" data-label="Book a demo" data-href="https://www.fixture.example/demo" data-style="primary"><a href="https://www.fixture.example/demo" class="component-cta-link">Book a demo</a></p>',
    )
    expect(html).toContain(
      '<figure class="component component-quote" data-component="quote" data-attribution="Ann Lee" data-role="CTO, Acme"><blockquote>\n<p>It just works.</p>\n</blockquote><figcaption>— Ann Lee, CTO, Acme</figcaption></figure>',
    )
  })

  it('gives body.tree one node per component, with its validated attributes', () => {
    const { tree } = record.body
    expect(tree.version).toBe(1)
    const components = [...bodyNodes(tree.children)].filter((node) => node.type === 'component')
    expect(components).toEqual([
      {
        type: 'component',
        name: 'callout',
        attributes: { tone: 'warning', title: 'Mind the gap' },
        children: [
          {
            type: 'paragraph',
            children: [
              { type: 'text', value: 'Back up ' },
              { type: 'strong', children: [{ type: 'text', value: 'first' }] },
              { type: 'text', value: '.' },
            ],
          },
        ],
      },
      {
        type: 'component',
        name: 'video',
        attributes: { src: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Launch webinar' },
        embed: { provider: 'youtube', url: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' },
        children: [],
      },
      {
        type: 'component',
        name: 'cta',
        attributes: { label: 'Book a demo', href: 'https://www.fixture.example/demo', style: 'primary' },
        children: [],
      },
      {
        type: 'component',
        name: 'quote',
        attributes: { attribution: 'Ann Lee', role: 'CTO, Acme' },
        children: [{ type: 'paragraph', children: [{ type: 'text', value: 'It just works.' }] }],
      },
      { type: 'component', name: 'pricing-table', attributes: { plan: 'team' }, children: [] },
    ])
    // Components stand where the author wrote them, among the body's other blocks.
    expect(tree.children.map((node) => node.name ?? node.type)).toEqual([
      'paragraph',
      'callout',
      'video',
      'cta',
      'quote',
      'pricing-table',
      'heading',
      'heading',
    ])
    const headings = tree.children.filter((node) => node.type === 'heading')
    expect(headings.map(({ depth, id }) => ({ depth, id }))).toEqual(record.toc.map(({ depth, id }) => ({ depth, id })))
  })

  it("renders a site's own component as a div with its class and data attributes", () => {
    expect(record.body.html).toContain(
      '<div class="component component-pricing-table" data-component="pricing-table" data-plan="team"></div>',
    )
  })

  it('strips an iframe outside the allow-list, keeping only the embed', () => {
    expect(record.body.html).not.toContain('evil.example')
    expect(record.body.html.match(/<iframe/g)).toHaveLength(1)
  })

  it('reads as text, a video as "Video: title (url)", with no directive left', () => {
    const { text } = record.body
    expect(text).toBe(
      [
        'Launch week starts at 10:30, note:this stays text.',
        'Mind the gap',
        'Back up first.',
        'Video: Launch webinar (https://www.youtube.com/watch?v=dQw4w9WgXcQ)',
        'Book a demo (https://www.fixture.example/demo)',
        'It just works.',
        '— Ann Lee, CTO, Acme\nLaunch week\nWhat’s new?'.replace('’', "'"),
      ].join('\n\n'),
    )
    expect(text).not.toContain(':::')
    expect(record.word_count).toBe(countWords(text))
  })

  it('gives headings unique GitHub-style ids, an explicit {#id} winning, and toc ids equal to them', () => {
    expect(record.toc).toEqual([
      { depth: 2, text: 'Launch week', id: 'launch-week' },
      { depth: 2, text: "What's new?", id: 'new' },
    ])
    const ids = [...record.body.html.matchAll(/<h[1-6] id="([^"]+)">/g)].map((m) => m[1])
    expect(ids).toEqual(record.toc.map((entry) => entry.id))
  })

  it('gives llms-full.txt the body as readable Markdown, no directive left', async () => {
    const full = await readFile(join(project.dist, 'llms-full.txt'), 'utf8')
    const item = full.slice(full.indexOf('### Launch week'))
    expect(item).toContain('> **Warning: Mind the gap**\n>\n> Back up **first**.')
    expect(item).toContain('Video: Launch webinar (https://www.youtube.com/watch?v=dQw4w9WgXcQ)')
    expect(item).toContain('[Book a demo](https://www.fixture.example/demo)')
    expect(item).toContain('> It just works.\n>\n> — Ann Lee, CTO, Acme')
    expect(item).not.toMatch(/^\s*::/m)
  })

  it('gives a body without components heading ids and a toc too (the fast path)', async () => {
    const plain = await createProject({
      'content/blog-posts/plain.md': `${FRONT}Intro.\n\n## Setup\n\n### Setup\n\n## Ünïcode & *more*\n`,
    })
    try {
      await buildSite({ root: plain.root })
      const got = JSON.parse(await readFile(join(plain.dist, 'api/blog-posts/plain.json'), 'utf8')) as Record
      expect(got.toc).toEqual([
        { depth: 2, text: 'Setup', id: 'setup' },
        { depth: 3, text: 'Setup', id: 'setup-1' },
        { depth: 2, text: 'Ünïcode & more', id: 'ünïcode--more' },
      ])
      const ids = [...got.body.html.matchAll(/<h[1-6] id="([^"]+)">/g)].map((m) => m[1])
      expect(ids).toEqual(got.toc.map((entry) => entry.id))
    } finally {
      await plain.remove()
    }
  })
})

describe('component author errors', () => {
  it('reports each at file:line:col with did-you-mean', async () => {
    const broken = await createProject({
      'content/site.yaml': SITE_WITH_COMPONENT,
      'content/blog-posts/broken.md': `${FRONT}Intro.

:::calout{tone=warning}
Careful.
:::

:::callout{tone=warnig}
Careful.
:::

::video{src="https://evil.example/watch/1" title="Demo"}

::video{src="https://youtu.be/dQw4w9WgXcQ"}

::cta{label="Go" href="https://x.example" colour=red}

## One {#same}

## Two {#same}

:::quote{attribution="Ann"}
Never closed.
`,
    })
    try {
      const error = await checkContent(broken.root).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ContentErrors)
      const f = 'content/blog-posts/broken.md'
      expect((error as ContentErrors).errors.map((e) => e.message)).toEqual([
        `${f}:9:1 body: unknown component :::calout (did you mean :::callout?); components: callout, video, cta, quote, pricing-table`,
        `${f}:13:1 body: callout tone must be one of note, tip, warning, not "warnig" (did you mean warning?)`,
        `${f}:17:1 body: video src must be a video page on youtube.com, youtu.be, vimeo.com, wistia.com, wistia.net, not "https://evil.example/watch/1"`,
        `${f}:19:1 body: video needs title="…" (src title)`,
        `${f}:21:1 body: cta has no attribute "colour" (attributes: label, href, style)`,
        `${f}:25:8 body: two headings have the id "same" (the first on body line 17): give this one another {#id}, so each link to a section finds one`,
        `${f}:27:1 body: :::quote is never closed: end it with a line of ::: (as many colons as it opened with)`,
      ])
      expect(new Set((error as ContentErrors).errors.map((e) => e.code))).toEqual(new Set(['COMPONENT', 'HEADING_ID']))
    } finally {
      await broken.remove()
    }
  })
})

describe('one behaviour whichever engine renders', () => {
  const CTA = '::cta{label="Go" href="https://x.example"}'
  const CTA_HTML =
    '<p class="component component-cta" data-component="cta" data-label="Go" data-href="https://x.example" data-style="primary"><a href="https://x.example" class="component-cta-link">Go</a></p>'
  it('renders the rest of a body the same when a component sends it to the directive engine', () => {
    let compared = 0
    for (const sample of [...GFM_SAMPLES, ...RAW_HTML_SAMPLES]) {
      const plain = renderBody(sample).rendered
      // Footnotes and raw HTML (a removed comment leaves its line ending) are compared by the differential tests.
      if (!plain || plain.html.includes('data-footnotes') || sample.includes('<')) continue
      const withCta = renderBody(`${CTA}\n\n${sample}`).rendered!
      expect(withCta.html, sample).toBe(`${CTA_HTML}\n${plain.html}`)
      expect(withCta.toc, sample).toEqual(plain.toc)
      expect(treeOf(withCta).children.slice(1), sample).toEqual(treeOf(plain).children)
      compared++
    }
    expect(compared).toBeGreaterThan(20)
  })
})

describe('components: in content/site.yaml', () => {
  it('reports a bad declaration at its place, with did-you-mean', () => {
    const text = `${SITE_YAML}components:\n  callout: { kind: leaf }\n  banner:\n    kind: block\n    atributes: {}\n`
    const error = (() => {
      try {
        parseSiteConfig(text)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ContentErrors)
    // SITE_YAML's lines come first: `components:` is the line after them.
    const line = SITE_YAML.split('\n').length - 1
    expect((error as ContentErrors).errors.map((e) => e.message)).toEqual([
      `content/site.yaml:${line + 2}:12 components.callout: callout is a built-in component and cannot be declared again`,
      `content/site.yaml:${line + 4}:11 components.banner.kind: must be one of text, leaf, container`,
      `content/site.yaml:${line + 5}:16 components.banner.atributes: is not part of a component declaration (did you mean attributes?)`,
    ])
  })
})

describe("component attributes in the content model's field vocabulary", () => {
  const OWN = `${SITE_YAML}components:
  plan-badge:
    kind: leaf
    attributes:
      plan: { type: enum, values: [starter, team], required: true }
      link: url
      note: { type: string, min: 2, max: 5 }
`
  it('checks an attribute as its field says: enum values, url, min and max, required', () => {
    const components = parseSiteConfig(OWN).components!
    const ok = renderBody('::plan-badge{plan=team link="https://x.example" note="hi"}', components)
    expect(ok.errors).toEqual([])
    expect(treeOf(ok.rendered!).children[0]).toEqual({
      type: 'component',
      name: 'plan-badge',
      attributes: { plan: 'team', link: 'https://x.example', note: 'hi' },
      children: [],
    })
    const bad = renderBody(
      'Intro.\n\n::plan-badge{plan=tem link="nope" note="toolong"}\n\n::plan-badge{note="x"}',
      components,
    )
    expect(bad.errors.map((e) => `${e.line}:${e.column} ${e.detail}`)).toEqual([
      '3:1 plan-badge plan must be one of starter, team, not "tem" (did you mean team?)',
      '3:1 plan-badge link must be an absolute http(s) URL or a path starting with /, not "nope"',
      '3:1 plan-badge note must be at most 5 characters',
      '5:1 plan-badge note must be at least 2 characters',
      '5:1 plan-badge needs plan="…" (plan link? note?)',
    ])
  })

  it('reports a wrong setting at its place, with did-you-mean', () => {
    const text = `${SITE_YAML}components:\n  badge:\n    kind: leaf\n    attributes:\n      plan: { type: enum }\n      size: { type: string, maks: 3 }\n      on: boolean\n`
    const error = (() => {
      try {
        parseSiteConfig(text)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ContentErrors)
    const line = SITE_YAML.split('\n').length - 1
    expect((error as ContentErrors).errors.map((e) => e.message)).toEqual([
      `content/site.yaml:${line + 5}:13 components.badge.attributes.plan.values: an enum needs its values, a list of strings`,
      `content/site.yaml:${line + 6}:35 components.badge.attributes.size.maks: is not a setting of an attribute (did you mean max?)`,
      `content/site.yaml:${line + 7}:11 components.badge.attributes.on.type: must be a field of type string, text, url, enum (an attribute's value is text), like { type: enum, values: [a, b] }`,
    ])
  })
})

function treeOf(rendered: RenderedBody): BodyTree {
  return JSON.parse(rendered.tree_json) as BodyTree
}
