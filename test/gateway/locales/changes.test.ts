/**
 * The change feed per locale over HTTP: a multilingual project is
 * committed, built and served; a German translation is added in a later
 * commit. Each locale's first page (the pre-rendered file), `since` with its
 * own cursors, paging, a cursor of another locale's feed, an unknown or
 * malformed locale, and Accept-Language, which never chooses the feed. Every
 * answer is checked against the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import type { ChangesEnvelope } from '../../../contract/changes.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { createProject, SITE_YAML, validPost, type TempProject } from '../../helpers/project.ts'

const T1 = 1_769_904_000 // 2026-02-01T00:00:00Z
const T2 = T1 + 86_400
const MULTILINGUAL = `${SITE_YAML}language: en\nlocales: [en, de, fr]\nlocale_fallback: [de]\n`

let project: TempProject
let gateway: TestGateway
/** The cursors clients of each feed held after the first commit. */
const afterT1: Record<string, string> = {}

async function get(query: string, headers: Record<string, string> = {}): Promise<Response> {
  const path = `/api/changes${query}`
  const response = await fetch(`${gateway.url}${path}`, { headers })
  await assertMatchesContract('GET', path, response)
  return response
}

async function feed(query: string, headers: Record<string, string> = {}): Promise<ChangesEnvelope> {
  const response = await get(query, headers)
  expect(response.status, query).toBe(200)
  return (await response.json()) as ChangesEnvelope
}

async function problem(query: string): Promise<{ type: string; errors: { parameter: string; message: string }[] }> {
  const response = await get(query)
  expect(response.status, query).toBe(400)
  return (await response.json()) as { type: string; errors: { parameter: string; message: string }[] }
}

const summary = (envelope: ChangesEnvelope) => envelope.data.map((e) => `${e.change} ${e.slug}@${e.locale}`)

beforeAll(async () => {
  project = await createProject({
    'content/site.yaml': MULTILINGUAL,
    'content/blog-posts/alpha.md': validPost('Alpha'),
    'content/blog-posts/bravo.md': validPost('Bravo'),
  })
  await initAndCommit(project.root, T1)
  await buildSite({ root: project.root, cache: false })
  gateway = await startGateway(project.dist)
  for (const [locale, query] of [
    ['en', ''],
    ['de', '?locale=de'],
    ['fr', '?locale=fr'],
  ] as const)
    afterT1[locale] = (await feed(query)).meta.next_cursor
  await project.write('content/blog-posts/alpha.de.md', validPost('Alpha auf Deutsch', 'slug: alpha-de\n'))
  await commitAll(project.root, 'translate alpha into German', T2)
  await buildSite({ root: project.root, cache: false })
  await gateway.store.reload()
}, 120_000)
afterAll(async () => {
  await gateway?.close()
  await project?.remove()
})

describe('the change feed of a locale over HTTP', () => {
  it('answers ?locale= with that locale’s first page: its records, Content-Language, no Vary', async () => {
    const response = await get('?locale=de')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-language')).toBe('de')
    expect(response.headers.get('vary')).toBeNull()
    const body = (await response.json()) as ChangesEnvelope
    expect(summary(body)).toEqual(['created bravo@en', 'created alpha-de@de'])
    expect(body.data[1]!.href).toBe('/api/blog-posts/alpha-de?locale=de')
    expect(body.links.self).toBe('/api/changes?locale=de')
    // The same feed however the locale is written.
    expect((await feed('?locale=DE')).data).toEqual(body.data)
  })

  it('continues each feed from its own cursor: the stand-in’s tombstone and the translation in German, an update in English', async () => {
    const de = await feed(`?locale=de&since=${afterT1.de}`)
    expect(summary(de)).toEqual(['deleted alpha@en', 'created alpha-de@de'])
    expect(de.meta.since).toBe(afterT1.de)
    expect(de.meta.next_cursor).toMatch(/^de_/)
    expect(de.links.next).toBe(`/api/changes?since=${de.meta.next_cursor}&locale=de`)
    expect(summary(await feed(`?since=${afterT1.en}`))).toEqual(['updated alpha@en'])
    expect(summary(await feed(`?locale=fr&since=${afterT1.fr}`))).toEqual([])
  })

  it('pages a locale’s feed with limit, the cursors chaining in that locale', async () => {
    const seen: string[] = []
    let cursor = afterT1.de!
    for (let page = 0; page < 5; page++) {
      const answer = await feed(`?locale=de&since=${cursor}&limit=1`)
      seen.push(...summary(answer))
      cursor = answer.meta.next_cursor
      if (!answer.meta.has_more) break
    }
    expect(seen).toEqual(['deleted alpha@en', 'created alpha-de@de'])
  })

  it('refuses a cursor of another locale’s feed with a 400 naming since', async () => {
    for (const query of [
      `?locale=de&since=${afterT1.en}`,
      `?since=${afterT1.de}`,
      `?locale=fr&since=${afterT1.de}`,
      `?locale=en&since=${afterT1.fr}`,
    ]) {
      const answer = await problem(query)
      expect(answer.type, query).toBe('/problems/invalid-parameter')
      expect(
        answer.errors.map((e) => e.parameter),
        query,
      ).toEqual(['since'])
      expect(answer.errors[0]!.message, query).toMatch(/change feed/)
    }
    expect((await problem(`?locale=de&since=${afterT1.en}`)).errors[0]!.message).toMatch(
      /is a cursor of the en change feed .* not of the de one/,
    )
    // A cursor naming a locale the site does not publish is none of its feeds'.
    const foreign = afterT1.de!.replace(/^de_/, 'it_')
    expect((await problem(`?since=${foreign}`)).errors[0]!.message).toMatch(/does not publish/)
  })

  it('answers an unknown or malformed locale with a 400 naming locale', async () => {
    for (const query of ['?locale=it', '?locale=x_1', '?locale=de&locale=fr', `?locale=it&since=${afterT1.de}`]) {
      const answer = await problem(query)
      expect(
        answer.errors.map((e) => e.parameter),
        query,
      ).toEqual(['locale'])
    }
    expect((await problem('?locale=it')).errors[0]!.message).toMatch(/en, de, fr/)
  })

  it('never lets Accept-Language choose the feed: without locale, the default’s, with no Vary', async () => {
    const response = await get('', { 'accept-language': 'de' })
    expect(response.headers.get('content-language')).toBe('en')
    expect(response.headers.get('vary')).toBeNull()
    const body = (await response.json()) as ChangesEnvelope
    expect(summary(body)).toEqual(['created bravo@en', 'created alpha@en'])
    const since = await feed(`?since=${afterT1.en}`, { 'accept-language': 'de' })
    expect(summary(since)).toEqual(['updated alpha@en'])
  })
})
