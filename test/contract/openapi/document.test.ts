/**
 * dist/openapi.json: a valid OpenAPI 3.1 document (checked by an OpenAPI
 * schema validator), generated from the content schemas, complete with
 * every collection, problem type and scope, and the webhooks it sends, whose
 * verification example (in /docs/ and llms-full.txt) verifies a real signature.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COLLECTION_NAMES, COLLECTIONS, FIXTURE_MODEL, schemaOf } from '../../helpers/site.ts'
import { PROBLEM_TYPES, problemTypeUri } from '../../../contract/problems.ts'
import { selectableFields } from '../../../contract/records.ts'
import { MAX_LIMIT, MAX_PAGE } from '../../../contract/routes/parameters.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { recordSchemaName } from '../../../contract/routes/content.ts'
import { ROLES, scopeNames } from '../../../contract/scopes.ts'
import { WEBHOOK_EVENT_TYPES, WEBHOOK_HEADERS } from '../../../contract/webhook-events.ts'
import { copyOfBuiltFixture, type TempProject } from '../../helpers/project.ts'
import {
  AUTHORIZE_PATH,
  HEALTH_PATH,
  MCP_PATH,
  OPENID_CONFIGURATION_PATH,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from '../../../contract/public-paths.ts'

type Json = Record<string, unknown>

/** The value at `path` inside the document; throws when a step is missing. */
function at(value: unknown, ...path: string[]): Json {
  let current = value
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !(key in current))
      throw new Error(`no ${path.join(' → ')} in openapi.json`)
    current = (current as Json)[key]
  }
  return current as Json
}

let project: TempProject
let text: string
let doc: Json

beforeAll(async () => {
  project = await copyOfBuiltFixture()
  await buildSite({ root: project.root })
  text = await readFile(join(project.dist, 'openapi.json'), 'utf8')
  doc = JSON.parse(text) as Json
})
afterAll(() => project?.remove())

describe('openapi.json', () => {
  it('passes the OpenAPI 3.1 schema validator, which rejects a broken copy', async () => {
    const validator = new Validator()
    const result = await validator.validate(JSON.parse(text))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    const broken = JSON.parse(text) as Json
    at(broken, 'paths', HEALTH_PATH, 'get').responses = 'none'
    expect((await new Validator().validate(broken)).valid).toBe(false)
  })

  it('describes every collection with list and item operations, bounds and record schemas from the content schemas', () => {
    for (const c of COLLECTION_NAMES) {
      const list = at(doc, 'paths', `/api/${c}`, 'get')
      const item = at(doc, 'paths', `/api/${c}/{slug}`, 'get')
      expect(Object.keys(at(list, 'responses'))).toEqual(expect.arrayContaining(['200', '304', '400', '406', '503']))
      expect(Object.keys(at(item, 'responses'))).toEqual(expect.arrayContaining(['200', '304', '404']))
      expect(at(list, 'responses', '200', 'headers')).toHaveProperty('X-Total-Count')
      expect(at(list, 'responses', '200', 'headers')).toHaveProperty('Link')
      expect(list.security).toContainEqual({})
      expect(list.security).toContainEqual({ oauth2: [COLLECTIONS[c]!.scope] })
      const schema = at(doc, 'components', 'schemas', recordSchemaName(COLLECTIONS[c]!))
      // Drafts are never published; aliases are old addresses, listed by /api/redirects.
      const frontmatter = Object.keys(schemaOf(c).properties as object).filter((k) => k !== 'draft' && k !== 'aliases')
      expect(Object.keys(at(schema, 'properties'))).toEqual(
        expect.arrayContaining([...frontmatter, 'id', 'type', 'url', 'body']),
      )
      expect(text).not.toContain('errorMessage')
    }
    expect(at(doc, 'components', 'parameters', 'limit', 'schema')).toMatchObject({
      minimum: 1,
      maximum: MAX_LIMIT,
      default: 10,
    })
    expect(at(doc, 'components', 'parameters', 'page', 'schema')).toMatchObject({ minimum: 1, maximum: MAX_PAGE })
    expect(at(doc, 'components', 'parameters', 'tag')).toMatchObject({ style: 'form', explode: false })
    // The tag rule REST and MCP follow: any case, matched lowercased.
    const tag = at(doc, 'components', 'parameters', 'tag', 'schema', 'items') as { pattern: string }
    expect(new RegExp(tag.pattern).test('DBT')).toBe(true)
    expect(new RegExp(tag.pattern).test('Not A Tag')).toBe(false)
    expect(String(at(doc, 'components', 'parameters', 'tag', 'description'))).toContain('without regard to case')
    // updated_since takes a date too.
    expect(JSON.stringify(at(doc, 'components', 'parameters', 'updatedSince', 'schema'))).toContain('"format":"date"')
  })

  it("states each collection's own list parameters: its sort keys, its fields, the filters it has", () => {
    const names = (path: string) =>
      (at(doc, 'paths', path, 'get').parameters as Json[]).map((p) =>
        typeof p.$ref === 'string' ? at(doc, ...p.$ref.slice(2).split('/')).name : p.name,
      )
    const own = (path: string, name: string) =>
      (at(doc, 'paths', path, 'get').parameters as Json[]).find((p) => p.name === name)!
    for (const c of COLLECTION_NAMES) {
      const sort = own(`/api/${c}`, 'sort')
      expect(sort).toMatchObject({ style: 'form', explode: false })
      expect(at(sort, 'schema', 'items').enum).toEqual(COLLECTIONS[c]!.sortKeys.flatMap((k) => [k, `-${k}`]))
      expect(at(own(`/api/${c}`, 'fields'), 'schema', 'items').enum).toEqual(
        selectableFields(COLLECTIONS[c]!, 'summary'),
      )
      expect(at(own(`/api/${c}/{slug}`, 'fields'), 'schema', 'items').enum).toEqual(
        selectableFields(COLLECTIONS[c]!, 'full'),
      )
      const list = names(`/api/${c}`)
      expect(list).toEqual(expect.arrayContaining(['tag', 'published_after', 'published_before', 'exclude']))
      expect(list.includes('author')).toBe(COLLECTIONS[c]!.people.length > 0)
      expect(list.includes('when')).toBe(c === 'events' || c === 'webinars')
    }
    expect(names('/api/search')).toEqual(expect.arrayContaining(['author', 'when', 'exclude', 'published_after']))
  })

  it('documents every problem type and every scope and role', () => {
    // Each type is described (the errors table) and dereferenceable (/problems/{name}); those an operation gives are typed in its responses.
    const description = String(at(doc, 'info').description)
    for (const name of Object.keys(PROBLEM_TYPES))
      expect(description).toContain(`${problemTypeUri(name as keyof typeof PROBLEM_TYPES)}`)
    expect(at(doc, 'paths', '/problems/{name}', 'get', 'parameters', '0', 'schema').enum).toEqual(
      Object.keys(PROBLEM_TYPES),
    )
    for (const name of [
      'invalid-parameter',
      'not-found',
      'method-not-allowed',
      'unauthorized',
      'forbidden',
      'unavailable',
    ]) {
      expect(text).toContain(`"${problemTypeUri(name as keyof typeof PROBLEM_TYPES)}"`)
    }
    for (const name of ['clientCredentials', 'authorizationCode']) {
      const flow = at(doc, 'components', 'securitySchemes', 'oauth2', 'flows', name)
      expect(Object.keys(at(flow, 'scopes')).sort()).toEqual([...scopeNames(FIXTURE_MODEL)].sort())
      expect(at(flow, 'tokenUrl')).toBe(TOKEN_PATH)
    }
    expect(at(doc, 'components', 'securitySchemes', 'oauth2', 'flows', 'authorizationCode', 'authorizationUrl')).toBe(
      AUTHORIZE_PATH,
    )
    for (const path of [
      AUTHORIZE_PATH,
      TOKEN_PATH,
      REGISTRATION_PATH,
      REVOCATION_PATH,
      USERINFO_PATH,
      OPENID_CONFIGURATION_PATH,
    ]) {
      expect(Object.keys(at(doc, 'paths', path)).length, path).toBeGreaterThan(0)
    }
    // The seed's nine and the reviewers' preview scope.
    expect(scopeNames(FIXTURE_MODEL)).toHaveLength(10)
    for (const scope of scopeNames(FIXTURE_MODEL))
      expect(at(doc, 'components', 'securitySchemes', 'oauth2', 'flows', 'clientCredentials', 'scopes')).toHaveProperty(
        [scope],
      )
    expect(at(doc, 'paths', '/api/preview/blog-posts', 'get').security).toEqual([
      { oauth2: ['content.preview.read'] },
      { apiKey: [] },
    ])
    for (const role of Object.keys(ROLES))
      expect(at(doc, 'components', 'securitySchemes', 'apiKey').description).toContain(role)
    expect(at(doc, 'paths', MCP_PATH, 'post').security).toContainEqual({ oauth2: ['mcp.tools.invoke'] })
    expect(Object.keys(at(doc, 'paths', MCP_PATH, 'post', 'responses'))).toEqual(
      expect.arrayContaining(['200', '401', '403']),
    )
    // GET and DELETE are not operations of /mcp: their 405 is the generic one for undocumented methods.
    expect(at(doc, 'paths', MCP_PATH)).not.toHaveProperty('get')
  })

  it('describes the three webhook events under `webhooks`; /docs/ and llms-full.txt show a verification example that works', async () => {
    const webhooks = at(doc, 'webhooks')
    expect(Object.keys(webhooks)).toEqual(['content.published', 'content.updated', 'content.removed'])
    expect(Object.keys(webhooks)).toEqual([...WEBHOOK_EVENT_TYPES])
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = at(webhooks, type, 'post')
      expect((post.parameters as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`)).toEqual(
        Object.values(WEBHOOK_HEADERS).map((name) => `header:${name}`),
      )
      expect(at(post, 'requestBody', 'content', 'application/json', 'schema', 'properties', 'type').const).toBe(type)
    }
    // /docs/ renders the document it embeds, whose description carries the guide; llms-full.txt has it too.
    const docsPage = await readFile(join(project.dist, 'docs/index.html'), 'utf8')
    expect(docsPage).toContain('const event = webhook.verify(rawBody, request.headers)')
    const llms = await readFile(join(project.dist, 'llms-full.txt'), 'utf8')
    for (const [where, content] of [
      ['openapi.json (and so /docs/)', String(at(doc, 'info').description)],
      ['llms-full.txt', llms],
    ] as const) {
      const example = /```js\n(import \{ Webhook \} from 'standardwebhooks'[^\n]*\n[\s\S]*?)```/.exec(content)?.[1]
      expect(example, where).toBeDefined()
      for (const type of WEBHOOK_EVENT_TYPES) expect(content, where).toContain(`\`${type}\``)
      // Run the example as a receiver would, on a delivery signed as the sender signs one.
      const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
      const body = JSON.stringify({ type: 'content.published', timestamp: '2026-11-02T09:30:00Z', data: { slug: 'x' } })
      const headers = {
        [WEBHOOK_HEADERS.id]: 'msg_0123456789abcdef0123456789abcdef',
        [WEBHOOK_HEADERS.timestamp]: String(Math.floor(Date.now() / 1000)),
        [WEBHOOK_HEADERS.signature]: new Webhook(secret).sign('msg_0123456789abcdef0123456789abcdef', new Date(), body),
      }
      const receive = (rawBody: string) => {
        const handled: unknown[] = []
        const run = new Function(
          'Webhook',
          'process',
          'rawBody',
          'request',
          'alreadyProcessed',
          'handle',
          example!.replace(/^import .*$/m, ''),
        )
        run(
          Webhook,
          { env: { CONTENT_WEBHOOK_SECRET: secret } },
          rawBody,
          { headers },
          () => false,
          (...args: unknown[]) => handled.push(args),
        )
        return handled
      }
      expect(receive(body), where).toEqual([['content.published', { slug: 'x' }]])
      expect(() => receive(body.replace('"x"', '"y"')), where).toThrow(WebhookVerificationError)
    }
  })
})
