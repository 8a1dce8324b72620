/**
 * One declaration per list and search parameter (contract/routes/parameters.ts
 * and its neighbours): the OpenAPI parameter (the build's writer) and the MCP
 * tool argument (the gateway's) are both made from the same object and agree
 * on name, type, bounds and description; the gateway's reader, compiled from
 * it, takes exactly what its schema (and its declared rule) takes; and a
 * parameter made from data (a field of a collection's content schema) gets
 * all three the same way. The document and tools/list of a running gateway:
 * test/gateway/mcp/tools.test.ts.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openApiParameter } from '../../build/openapi/paths.ts'
import { parseSiteConfig } from '../../build/core/site.ts'
import { parseDateTime } from '../../contract/query-values.ts'
import { fieldsOf, filtersOf, sortOf } from '../../contract/routes/collection-parameters.ts'
import { parametersOf, ROUTES } from '../../contract/routes/index.ts'
import { readQuery } from '../../contract/routes/query-reader.ts'
import type { QueryParameter } from '../../contract/routes/route.ts'
import type { SchemaObject } from '../../contract/routes/schema.ts'
import { toolArgument } from '../../gateway/mcp/arguments.ts'
import { SITE_YAML } from '../helpers/project.ts'
import { invalid, valid } from '../helpers/schema-arbitrary.ts'
import { COLLECTION_NAMES, COLLECTIONS, FIXTURE_MODEL as MODEL } from '../helpers/site.ts'

const queryOf = (parameters: readonly { in: string }[]) =>
  parameters.filter((p): p is QueryParameter => p.in === 'query' && !('refused' in p && p.refused))

/** Every query parameter of the lists, items, search and the change feed, and those the MCP tools take for several collections. */
const DECLARATIONS = [
  ...new Set([
    ...COLLECTION_NAMES.flatMap((c) => [
      ...queryOf(parametersOf(ROUTES.list, MODEL, c)),
      ...queryOf(parametersOf(ROUTES.item, MODEL, c)),
    ]),
    ...queryOf(parametersOf(ROUTES.search, MODEL)),
    ...queryOf(parametersOf(ROUTES.changes, MODEL)),
    sortOf(MODEL, Object.values(COLLECTIONS)),
    fieldsOf(MODEL, Object.values(COLLECTIONS), 'summary'),
    fieldsOf(MODEL, [COLLECTIONS.events!, COLLECTIONS.webinars!], 'summary'),
  ]),
]
const label = (p: QueryParameter) =>
  `${p.name}${p.schema.type === 'array' ? ` (${((p.schema.items as SchemaObject).enum ?? []).length || 'any'} values)` : ''}`

/** The argument's JSON Schema as the SDK publishes it in tools/list. */
function mcpSchemaOf(p: QueryParameter): { property: SchemaObject; required: boolean } {
  const json = z.toJSONSchema(z.object({ [p.name]: toolArgument(p) }), { target: 'draft-2020-12', io: 'input' }) as {
    properties: Record<string, SchemaObject>
    required?: string[]
  }
  return { property: json.properties[p.name]!, required: (json.required ?? []).includes(p.name) }
}

describe('a list or search parameter, declared once', () => {
  it('covers the lists, items, search and the change feed', () => {
    const names = new Set(DECLARATIONS.map((p) => p.name))
    for (const name of ['limit', 'page', 'tag', 'updated_since', 'published_after', 'published_before'])
      expect(names).toContain(name)
    for (const name of ['author', 'when', 'exclude', 'sort', 'fields', 'locale', 'q', 'collection', 'since'])
      expect(names).toContain(name)
  })

  it.each(DECLARATIONS.map((p) => [label(p), p] as const))(
    '%s: its OpenAPI parameter and MCP argument agree on name, type, bounds and description',
    (_, p) => {
      const openapi = openApiParameter(p) as {
        name: string
        required: boolean
        description: string
        schema: SchemaObject
      }
      const { property: mcp, required } = mcpSchemaOf(p)
      expect(openapi.name).toBe(p.name)
      expect(required).toBe(openapi.required)
      // The tool is told the description; HTTP callers, after it, what only they need.
      expect(mcp.description).toBe(p.description)
      expect(openapi.description).toBe([mcp.description, p.http].filter(Boolean).join(' '))
      const { description: _d, ...bounds } = mcp
      if (openapi.schema.type !== 'array') {
        // Type, bounds, values, pattern, format, default and examples: the same schema.
        expect(bounds).toEqual(openapi.schema)
        return
      }
      // A list: the document's array, or one string of its items separated by commas (the query string's form).
      const { default: _default, examples, ...array } = openapi.schema
      expect(bounds).toEqual({ anyOf: [expect.any(Object), array], ...(examples !== undefined && { examples }) })
      const text = (bounds.anyOf as SchemaObject[])[0]!
      expect(text).toMatchObject({ type: 'string', minLength: 1 })
      expect(openapi).toMatchObject({ style: 'form', explode: false })
      // Every value the array form takes, written as the query string would, the text form takes too.
      const textCheck = new Ajv2020({ strict: false }).compile(text)
      fc.assert(
        fc.property(valid({}, array), (items) => textCheck((items as string[]).join(','))),
        { numRuns: 50 },
      )
    },
  )
})

describe("the gateway's reader of a declaration", () => {
  const ajv = new Ajv2020({ strict: false })
  ajv.addFormat('date', {
    type: 'string',
    validate: (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && parseDateTime(`${v}T00:00:00Z`) !== undefined,
  })
  ajv.addFormat('date-time', { type: 'string', validate: (v: string) => parseDateTime(v) !== undefined })
  ajv.addFormat('int32', { type: 'number', validate: (v: number) => Number.isInteger(v) })

  /** A query value as the document's style reads it: an integer in decimal, a list split at commas. */
  function decoded(p: QueryParameter, raw: string): unknown {
    if (p.schema.type === 'integer') return /^-?(?:0|[1-9][0-9]*)$/.test(raw) ? Number(raw) : raw
    if (p.schema.type === 'array') return raw.split(',')
    return raw
  }
  const encoded = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value))

  it.each(DECLARATIONS.filter((p) => !p.readElsewhere).map((p) => [label(p), p] as const))(
    '%s: takes a value exactly when its schema does',
    (_, p) => {
      const schemaAccepts = ajv.compile(p.schema)
      const raws = fc.oneof(
        valid({}, p.schema).map(encoded),
        invalid({}, p.schema).map(encoded),
        fc.string({ maxLength: 60 }),
      )
      fc.assert(
        fc.property(raws, (raw) => {
          const errors: { parameter: string; message: string }[] = []
          readQuery([p], new URLSearchParams([[p.name, raw]]), errors)
          const value = decoded(p, raw)
          const broken = Array.isArray(value) && p.rule ? p.rule(value) : undefined
          const accepts = schemaAccepts(value) && broken === undefined
          expect(errors.length === 0, `${p.name}=${JSON.stringify(raw)}: ${JSON.stringify(errors)}`).toBe(accepts)
          if (!accepts) expect(errors).toEqual([{ parameter: p.name, message: expect.any(String) }])
        }),
        { numRuns: 300 },
      )
    },
  )

  it('refuses a parameter given twice, and one the route refuses, naming it', () => {
    const errors: { parameter: string; message: string }[] = []
    readQuery(
      parametersOf(ROUTES.list, MODEL, 'case-studies'),
      new URLSearchParams('sort=title&sort=-title&author=ana'),
      errors,
    )
    expect(errors).toEqual([
      { parameter: 'author', message: expect.stringContaining('does not apply to case-studies') },
      { parameter: 'sort', message: 'must be given once' },
    ])
  })
})

describe('a parameter made from data', () => {
  // A filterable field of the content model: events' event_status with `filter: true` in site.yaml.
  const model = parseSiteConfig(
    SITE_YAML.replace('        default: scheduled\n', '        default: scheduled\n        filter: true\n'),
  ).model
  const eventStatus = filtersOf(model, model.collections.events!).find((p) => p.name === 'event_status')!
  const values = ['scheduled', 'cancelled', 'postponed', 'rescheduled']

  it('is read, documented and offered to tools from its declaration alone', () => {
    const errors: { parameter: string; message: string }[] = []
    expect(readQuery([eventStatus], new URLSearchParams('event_status=cancelled,postponed'), errors)).toEqual({
      'field:event_status': ['cancelled', 'postponed'],
    })
    readQuery([eventStatus], new URLSearchParams('event_status=over'), errors)
    expect(errors).toEqual([
      {
        parameter: 'event_status',
        message: `must be one or more of ${values.join(', ')}, separated by commas, got "over"`,
      },
    ])
    expect(openApiParameter(eventStatus)).toMatchObject({
      name: 'event_status',
      in: 'query',
      required: false,
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string', enum: values } },
    })
    expect(mcpSchemaOf(eventStatus).property.anyOf).toContainEqual(eventStatus.schema)
    expect(parametersOf(ROUTES.list, model, 'events')).toContain(eventStatus)
    expect(parametersOf(ROUTES.list, MODEL, 'events').map((p) => p.name)).not.toContain('event_status')
  })

  it('is refused where its schema has a keyword the reader does not check, rather than left unchecked', () => {
    const unchecked: QueryParameter = { ...eventStatus, schema: { type: 'string', multipleOf: 2 } }
    expect(() => readQuery([unchecked], new URLSearchParams(), [])).toThrow(/does not check multipleOf/)
  })
})
