/**
 * Contract checks: does a gateway response match the OpenAPI document? The
 * operation is found by method and path, the response by status; its
 * required headers, media type and body schema (ajv, JSON Schema 2020-12)
 * are checked. Undocumented paths may only answer 404 (or a redirect),
 * undocumented methods only 405 with Allow, OPTIONS only the 204 preflight.
 *
 * @example
 *   const res = await fetch(`${gw.url}/api/blog-posts?limit=5`)
 *   await assertMatchesContract('GET', '/api/blog-posts?limit=5', res)
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { isTimeZone } from '../../build/core/ajv.ts'
import { HEADERS, sharedResponses } from '../../build/openapi/components.ts'
import { createOpenApiDocument, type OpenApiDocument } from '../../build/openapi/document.ts'
import type { SiteConfig } from '../../build/core/site.ts'
import { fixtureSite } from './site.ts'
import { templateSource } from '../../contract/regexp.ts'

type Json = Record<string, unknown>
export interface ContractResponse {
  status: number
  headers: Headers
  /** The body as text ('' when there is none). */
  body: string
}

const DOC_ID = 'openapi.json'
const pointer = (...parts: string[]) => parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')
const baseType = (type: string) => type.split(';')[0]!.trim().toLowerCase()
const params = (type: string) =>
  type
    .split(';')
    .slice(1)
    .map((p) => p.trim().replace(/\s*=\s*/, '='))
    .filter(Boolean)

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
  private readonly compiled = new Map<string, ValidateFunction>()
  private readonly templates: { path: string; regex: RegExp }[]

  constructor(readonly doc: OpenApiDocument) {
    // The generic answers of undocumented paths (404) and methods (405) are checked against the shared
    // problem responses, which the document keeps only where an operation names them.
    doc = {
      ...doc,
      components: {
        ...doc.components,
        responses: { ...sharedResponses(), ...doc.components.responses },
        headers: { ...HEADERS, ...doc.components.headers },
      },
    }
    this.doc = doc
    addFormats.default(this.ajv)
    this.ajv.addFormat('iana-timezone', { type: 'string', validate: isTimeZone })
    this.ajv.addSchema(doc as object, DOC_ID)
    // Literal paths before templated ones, so /api/health never matches a {param}.
    this.templates = Object.keys(doc.paths)
      .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
      .map((path) => ({
        path,
        regex: new RegExp(`^${templateSource(path)}$`),
      }))
  }

  /** Every way `response` departs from the document; empty when it matches. */
  check(method: string, url: string, response: ContractResponse): string[] {
    const m = method.toUpperCase()
    const path = new URL(url, 'http://contract.invalid').pathname
    const where = `${m} ${url} → ${response.status}`
    if (m === 'OPTIONS') {
      return response.status === 204 && response.headers.has('access-control-allow-methods')
        ? []
        : [`${where}: expected the 204 CORS preflight`]
    }
    const template = this.templates.find((t) => t.regex.test(path))?.path
    if (!template) {
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) return []
      if (response.status !== 404) return [`${where}: path not in the OpenAPI document, so only 404 is allowed`]
      return this.checkResponse(where, m, pointer('components', 'responses', 'Problem404'), response)
    }
    const item = this.doc.paths[template]!
    let operation = m.toLowerCase()
    if (!item[operation] && m === 'HEAD' && item.get) operation = 'get'
    if (!item[operation]) {
      const problems =
        response.status === 405 ? [] : [`${where}: ${m} is not documented for ${template}, so only 405 is allowed`]
      if (!response.headers.get('allow')) problems.push(`${where}: a 405 needs an Allow header`)
      return [...problems, ...this.checkResponse(where, m, pointer('components', 'responses', 'Problem405'), response)]
    }
    const responses = (item[operation] as Json).responses as Json
    const status = String(response.status)
    const key = [status, `${status[0]}XX`, 'default'].find((k) => k in responses)
    if (!key)
      return [
        `${where}: status ${status} is not documented for ${operation.toUpperCase()} ${template} (documented: ${Object.keys(responses).join(', ')})`,
      ]
    return this.checkResponse(where, m, pointer('paths', template, operation, 'responses', key), response)
  }

  private resolve(ptr: string): { ptr: string; value: Json } {
    let value: unknown = this.doc
    for (const part of ptr.split('/').slice(1)) value = (value as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
    const ref = (value as Json).$ref
    return typeof ref === 'string' ? this.resolve(ref.slice(1)) : { ptr, value: value as Json }
  }

  private validator(ptr: string): ValidateFunction {
    let validate = this.compiled.get(ptr)
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#${ptr}` })
      this.compiled.set(ptr, validate)
    }
    return validate
  }

  private checkResponse(where: string, method: string, responsePtr: string, response: ContractResponse): string[] {
    const out: string[] = []
    const { ptr, value: spec } = this.resolve(responsePtr)
    for (const name of Object.keys((spec.headers ?? {}) as Json)) {
      const { ptr: headerPtr, value: header } = this.resolve(`${ptr}${pointer('headers', name)}`)
      const actual = response.headers.get(name)
      if (actual === null) {
        if (header.required === true) out.push(`${where}: missing header ${name}`)
        continue
      }
      if (header.schema && !this.validator(`${headerPtr}/schema`)(actual))
        out.push(`${where}: header ${name}: ${JSON.stringify(actual)} does not match ${JSON.stringify(header.schema)}`)
    }
    const content = spec.content as Record<string, Json> | undefined
    const contentType = response.headers.get('content-type')
    if (!content || response.status === 304) {
      if (response.body !== '') out.push(`${where}: expected no body`)
      return out
    }
    if (!contentType) return [...out, `${where}: missing Content-Type`]
    const mediaType = Object.keys(content).find(
      (documented) =>
        baseType(documented) === baseType(contentType) &&
        params(documented).every((p) => params(contentType).includes(p)),
    )
    if (!mediaType)
      return [...out, `${where}: Content-Type ${contentType} is not one of ${Object.keys(content).join(', ')}`]
    if (method === 'HEAD') return response.body === '' ? out : [...out, `${where}: HEAD answered with a body`]
    // A document of its own format (a page, a feed, a calendar): its media type is the contract.
    if (!content[mediaType]!.schema) return out
    const schemaPtr = `${ptr}${pointer('content', mediaType, 'schema')}`
    let body: unknown = response.body
    if (/[/+]json$/.test(baseType(mediaType))) {
      try {
        body = JSON.parse(response.body)
      } catch {
        return [...out, `${where}: body is not JSON: ${response.body.slice(0, 200)}`]
      }
    }
    const validate = this.validator(schemaPtr)
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 8)
        .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
      out.push(`${where}: body does not match ${mediaType} schema:\n  ${errors.join('\n  ')}`)
    }
    return out
  }
}

const FIXTURE_SITE: SiteConfig = fixtureSite({ name: 'Contract', description: '', url: 'https://contract.example' })

let shared: ContractChecker | undefined

/** The checker for the document the build generates (its shape does not depend on the site settings). */
export function contract(): ContractChecker {
  shared ??= new ContractChecker(structuredClone(createOpenApiDocument(FIXTURE_SITE)))
  return shared
}

/** Read a fetch Response without consuming it for the caller. */
export async function snapshotResponse(response: Response): Promise<ContractResponse> {
  if (response.bodyUsed)
    throw new Error(
      'assertMatchesContract needs the Response before its body is read (or pass {status, headers, body})',
    )
  return { status: response.status, headers: response.headers, body: await response.clone().text() }
}

/** Throws with every violation when `response` does not match the OpenAPI document. */
export async function assertMatchesContract(
  method: string,
  url: string,
  response: Response | ContractResponse,
): Promise<void> {
  const snapshot = response instanceof Response ? await snapshotResponse(response) : response
  const problems = contract().check(method, url, snapshot)
  if (problems.length)
    throw new Error(
      `response does not match openapi.json:\n${problems.join('\n')}\nbody: ${snapshot.body.slice(0, 500)}`,
    )
}
