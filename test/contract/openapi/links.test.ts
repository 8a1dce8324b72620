/**
 * Every link of llms.txt, the API catalog and the OAuth metadata documents
 * resolves on the running gateway (as `npm start` mounts it), and every
 * answer on the way matches the OpenAPI contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_CATALOG_LINK, API_CATALOG_TYPE } from '../../../contract/documents.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import {
  AUTHORIZATION_SERVER_PATH,
  AUTHORIZE_PATH,
  CHANGES_PATH,
  DOCS_PATH,
  HEALTH_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  OPENID_CONFIGURATION_PATH,
  PROTECTED_RESOURCE_PATH,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  SEARCH_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from '../../../contract/public-paths.ts'

let full: BuiltGateway

interface OpenApiParameter {
  name?: string
  in?: string
  $ref?: string
  schema: { minimum?: number; maximum?: number }
}
interface OpenApi {
  paths: Record<string, { get: { parameters?: OpenApiParameter[] } }>
  components: { parameters: Record<string, OpenApiParameter> }
}

/** The query parameters of a GET in the document, references resolved. */
function queryParameters(doc: OpenApi, path: string): OpenApiParameter[] {
  return (doc.paths[path]?.get.parameters ?? [])
    .map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p))
    .filter((p) => p.in === 'query')
}
beforeAll(async () => {
  full = await startBuiltGateway()
})
afterAll(() => full?.close())

/** Endpoints that only take POST: a GET finds them (405), it does not miss them (404). */
const POST_ONLY = new Set([MCP_PATH, TOKEN_PATH, REGISTRATION_PATH, REVOCATION_PATH])
/**
 * Endpoints a bare GET reaches but cannot satisfy: the authorization request without its parameters,
 * userinfo without a token, search without `q` (its links with a `q` answer 200).
 */
const BARE_GET: Record<string, number> = { [AUTHORIZE_PATH]: 400, [USERINFO_PATH]: 401, [SEARCH_PATH]: 400 }

async function follow(href: string): Promise<void> {
  const url = new URL(href, full.url)
  expect(url.origin, `${href} points at this gateway`).toBe(new URL(full.url).origin)
  const path = `${url.pathname}${url.search}`
  const response = await fetch(url, { redirect: 'manual' })
  expect(response.status, `GET ${path}`).toBe(
    POST_ONLY.has(url.pathname) ? 405 : (!url.search && BARE_GET[url.pathname]) || 200,
  )
  await assertMatchesContract('GET', path, response)
}

describe('links resolve on the gateway', () => {
  it('llms.txt: an llmstxt.org index whose every link resolves', async () => {
    const text = await (await fetch(`${full.url}/llms.txt`)).text()
    expect(text).toMatch(/^# .+\n\n> .+\n/)
    expect(text).toMatch(/\n## Docs\n/)
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!)
    expect(links.length).toBeGreaterThan(10)
    for (const link of links) await follow(link)
  })

  it("llms.txt names each list's and search's query parameters as the OpenAPI document declares them", async () => {
    const text = await (await fetch(`${full.url}/llms.txt`)).text()
    const doc = (await (await fetch(`${full.url}${OPENAPI_PATH}`)).json()) as OpenApi
    const lines = text.split('\n')
    for (const path of [SEARCH_PATH, '/api/blog-posts']) {
      const line = lines.find((l) => l.includes(`](${path}?`))
      expect(line, path).toBeDefined()
      for (const p of queryParameters(doc, path)) {
        const { minimum, maximum } = p.schema
        const range = minimum !== undefined && maximum !== undefined ? ` ${minimum}..${maximum}` : ''
        expect(line, `${path} ${p.name}`).toContain(`\`${p.name}\`${range}`)
      }
    }
  })

  it('the API catalog: RFC 9727 media type, Link header on GET and HEAD, and every anchor and href resolves', async () => {
    const response = await fetch(`${full.url}/.well-known/api-catalog`)
    expect(response.headers.get('content-type')).toBe(API_CATALOG_TYPE)
    expect(response.headers.get('link')).toBe(API_CATALOG_LINK)
    const head = await fetch(`${full.url}/.well-known/api-catalog`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('link')).toBe(API_CATALOG_LINK)
    const { linkset } = (await response.json()) as { linkset: Record<string, string | { href: string }[]>[] }
    const targets = new Set<string>()
    for (const context of linkset) {
      for (const [rel, value] of Object.entries(context)) {
        if (rel === 'anchor') targets.add(value as string)
        else for (const target of value as { href: string }[]) targets.add(target.href)
      }
    }
    expect([...targets]).toEqual(
      expect.arrayContaining([
        OPENAPI_PATH,
        DOCS_PATH,
        HEALTH_PATH,
        MCP_PATH,
        SEARCH_PATH,
        CHANGES_PATH,
        '/feeds/all.atom',
        '/calendar/events.ics',
      ]),
    )
    for (const href of targets) await follow(href)
  })

  it('the OAuth metadata documents: every URL in them resolves', async () => {
    const origin = new URL(full.url).origin
    const documents = [
      AUTHORIZATION_SERVER_PATH,
      OPENID_CONFIGURATION_PATH,
      PROTECTED_RESOURCE_PATH,
      '/.well-known/oauth-protected-resource/mcp',
    ]
    const urls = new Set<string>()
    const collect = (value: unknown): void => {
      if (typeof value === 'string' && value.startsWith(origin)) urls.add(value)
      else if (Array.isArray(value)) value.forEach(collect)
      else if (value && typeof value === 'object') Object.values(value).forEach(collect)
    }
    for (const path of documents) {
      const response = await fetch(`${full.url}${path}`)
      expect(response.status, path).toBe(200)
      await assertMatchesContract('GET', path, response)
      collect(await response.json())
    }
    expect(urls.size).toBeGreaterThanOrEqual(9)
    for (const url of urls) await follow(url)
  })
})
