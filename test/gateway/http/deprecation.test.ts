/**
 * Deprecations from their one declaration to the answer. Nothing of the API
 * is deprecated today, so this file marks a route (the change feed), a file
 * route (llms.txt), a parameter (`tag`) and a field (a blog post's
 * `authors`) where they are declared — the route table, and the content
 * model in the project's site.yaml — before the real build and the real
 * gateway (createGateway) start: the same code path a mark in the source
 * (or in site.yaml) takes.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEPRECATIONS_NOTICE } from '../../../contract/lifecycle.ts'
import { ROUTES } from '../../../contract/routes/index.ts'
import { TAG } from '../../../contract/routes/parameters.ts'
import type { Deprecation, Route } from '../../../contract/routes/route.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent } from '../../helpers/project.ts'

const CHANGES: Deprecation = { since: '2026-12-01', sunset: '2027-06-01', replacement: 'the webhooks' }
const TAG_MARK: Deprecation = { since: '2026-10-01', sunset: '2027-04-30', replacement: '`tags`' }
const AUTHORS: Deprecation = { since: '2026-11-02', sunset: '2027-05-03', replacement: '`bylines`' }

;(ROUTES.changes as Route).deprecated = CHANGES
;(ROUTES.llms as Route).deprecated = CHANGES
TAG.deprecated = TAG_MARK
/** The fixture content with blog posts' `authors` deprecated in its site.yaml. */
async function withAuthorsDeprecated() {
  const project = await copyOfFixtureContent()
  const site = await readFile(join(project.root, 'content/site.yaml'), 'utf8')
  const authors = 'authors: { type: list, required: true, min: 1, max: 10, of: person }'
  const { since, sunset, replacement } = AUTHORS
  const marked = `authors: { type: list, required: true, min: 1, max: 10, of: person, deprecated: { since: '${since}', sunset: '${sunset}', replacement: '${replacement}' } }`
  if (!site.includes(authors)) throw new Error('the fixture model declares authors otherwise')
  await project.write('content/site.yaml', site.replace(authors, marked))
  return project
}

const epoch = (date: string) => `@${Date.parse(date) / 1000}`
const httpDate = (date: string) => new Date(date).toUTCString()
const NOTICE = `<${DEPRECATIONS_NOTICE}>; rel="deprecation"; type="text/html"`

describe('deprecation signals', () => {
  const ctx = useBuiltGateway(withAuthorsDeprecated)
  const get = (path: string, init?: RequestInit) => fetch(`${ctx.gateway.url}${path}`, init)

  it('a deprecated route: every answer says so, an error too, and again when repeated (no fast path)', async () => {
    for (const path of ['/api/changes', '/api/changes', '/api/changes?since=%%%']) {
      const res = await get(path)
      expect(res.headers.get('deprecation'), path).toBe(epoch(CHANGES.since))
      expect(res.headers.get('sunset')).toBe(httpDate(CHANGES.sunset!))
      expect(res.headers.get('link')).toBe(NOTICE)
    }
    expect((await get('/api/changes?since=%%%')).status).toBe(400)
  })

  it('a deprecated route of the build’s files: the gateway’s answer says so', async () => {
    const res = await get('/llms.txt')
    expect(res.status).toBe(200)
    expect(res.headers.get('deprecation')).toBe(epoch(CHANGES.since))
    expect((await get('/llms-full.txt')).headers.get('deprecation')).toBeNull()
  })

  it('a deprecated parameter: only answers to requests that give it', async () => {
    const tagged = await get('/api/events?tag=conference')
    expect(tagged.headers.get('deprecation')).toBe(epoch(TAG_MARK.since))
    expect(tagged.headers.get('sunset')).toBe(httpDate(TAG_MARK.sunset!))
    const plain = await get('/api/events')
    expect(plain.status).toBe(200)
    expect(plain.headers.get('deprecation')).toBeNull()
    expect(plain.headers.get('link')).toBeNull()
  })

  it('a deprecated field: the answers that carry it, with a page’s own Link kept beside the notice', async () => {
    for (const path of ['/api/blog-posts', '/api/blog-posts?limit=2', '/api/blog-posts?limit=2&page=2']) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('deprecation'), path).toBe(epoch(AUTHORS.since))
      expect(res.headers.get('sunset')).toBe(httpDate(AUTHORS.sunset!))
      expect(res.headers.get('link')).toContain(NOTICE)
    }
    expect((await get('/api/blog-posts?limit=2')).headers.get('link')).toMatch(/rel="next".*, <|, <.*rel="next"/)
    const { data } = (await (await get('/api/blog-posts?limit=1')).json()) as { data: { slug: string }[] }
    expect((await get(`/api/blog-posts/${data[0]!.slug}`)).headers.get('deprecation')).toBe(epoch(AUTHORS.since))
    // The earliest of two: the field and the parameter.
    expect((await get('/api/blog-posts?tag=ai')).headers.get('deprecation')).toBe(epoch(TAG_MARK.since))
    expect((await get('/api/webinars')).headers.get('deprecation')).toBeNull()
  })

  it('the document marks each with its dates, replacement and headers', async () => {
    const doc = JSON.parse(await readFile(join(ctx.project.dist, 'openapi.json'), 'utf8'))
    const changes = doc.paths['/api/changes'].get
    expect(changes.deprecated).toBe(true)
    expect(changes['x-deprecation']).toEqual(CHANGES)
    expect(changes.description).toContain(
      'Deprecated since 2026-12-01; use the webhooks instead; it may be removed after 2027-06-01.',
    )
    expect(changes.responses['200'].headers.Deprecation).toEqual({ $ref: '#/components/headers/Deprecation' })
    const tag = doc.components.parameters.tag
    expect(tag).toMatchObject({ deprecated: true, 'x-deprecation': TAG_MARK })
    expect(tag.description).toContain('Deprecated since 2026-10-01')
    const authors = doc.components.schemas.BlogPost.properties.authors
    expect(authors).toMatchObject({ deprecated: true, 'x-deprecation': AUTHORS })
    expect(doc.paths['/api/blog-posts'].get.description).toContain('`data[].authors` (since 2026-11-02; use `bylines`)')
    // Lists take `tag`: their answers may carry the fields (when a request gives it); health's never do.
    expect(doc.paths['/api/webinars'].get.responses['200'].headers.Deprecation).toMatchObject({ required: false })
    expect(doc.paths['/api/health'].get.responses['200'].headers.Deprecation).toBeUndefined()
  })

  it('the CDN’s _headers name them on the files, and a deprecated query parameter goes to the gateway', async () => {
    const headers = await readFile(join(ctx.project.dist, '_headers'), 'utf8')
    const ruleOf = (path: string) => headers.split(/\n(?=\/)/).find((r) => r.startsWith(`${path}\n`)) ?? ''
    expect(ruleOf('/api/blog-posts/_list/limit-2.json')).toContain(`Deprecation: ${epoch(AUTHORS.since)}`)
    expect(ruleOf('/api/blog-posts/_list/limit-2.json')).toMatch(/Link: <[^>]+>; rel="next", <\/docs\/changelog/)
    expect(ruleOf('/llms.txt')).toContain(`Sunset: ${httpDate(CHANGES.sunset!)}`)
    expect(ruleOf('/api/webinars/_list/limit-2.json')).not.toContain('Deprecation')
    const redirects = await readFile(join(ctx.project.dist, '_redirects'), 'utf8')
    expect(redirects).toContain('/api/events  tag=:tag  /.netlify/functions/gateway/api/events  200')
  })

  it('the changelog page and its JSON list them', async () => {
    const page = await (await get('/docs/changelog.html')).text()
    expect(page).toContain('<h2 id="deprecations">')
    expect(page).toContain('GET /api/changes')
    expect(page).toContain('field <code>data[].authors</code>')
    const json = (await (await get('/docs/changelog.json')).json()) as { deprecations: { subject: string }[] }
    expect(json.deprecations.map((d) => d.subject)).toEqual(
      expect.arrayContaining([
        'GET /api/changes',
        'GET /api/events parameter `tag`',
        'GET /api/blog-posts field `data[].authors`',
      ]),
    )
  })
})
