/**
 * fast-check arbitraries from the JSON Schemas of an OpenAPI document: values
 * a schema accepts (`valid`), and values that break one of its rules
 * (`invalid`: too long, out of range, off the pattern or the enum, the wrong
 * type). Covers the keywords the document uses; `examples` are drawn from
 * now and then, so generated requests also reach the interesting answers.
 */
import fc, { type Arbitrary } from 'fast-check'

export type Schema = Record<string, unknown>

/** Follow `$ref`s (local pointers) to the schema itself. */
export function resolve(doc: Schema, schema: Schema): Schema {
  let current = schema
  for (let i = 0; typeof current.$ref === 'string' && i < 20; i++) {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((node, part) => (node as Schema)[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Schema
  }
  return current
}

const typesOf = (schema: Schema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : []

function stringArbitrary(schema: Schema): Arbitrary<string> {
  const min = (schema.minLength as number | undefined) ?? 0
  const max = Math.min((schema.maxLength as number | undefined) ?? 200, 400)
  const fits = (s: string) => s.length >= min && s.length <= ((schema.maxLength as number | undefined) ?? Infinity)
  switch (schema.format) {
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10))
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
        .map((d) => d.toISOString())
    case 'uri':
    case 'uri-reference':
      return fc.webUrl({ size: 'small' }).filter(fits)
    case 'email':
      return fc.emailAddress({ size: 'small' }).filter(fits)
  }
  if (typeof schema.pattern === 'string')
    return fc.stringMatching(new RegExp(schema.pattern as string), { size: 'small' }).filter(fits)
  return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 60)), unit: 'grapheme-ascii' })
}

function integerArbitrary(schema: Schema): Arbitrary<number> {
  const min = Math.max((schema.minimum as number | undefined) ?? -(2 ** 31), Number.MIN_SAFE_INTEGER)
  const max = Math.min((schema.maximum as number | undefined) ?? 2 ** 31 - 1, Number.MAX_SAFE_INTEGER)
  return fc.oneof(
    fc.constantFrom(min, max),
    fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }),
  )
}

/** Values `schema` accepts. */
export function valid(doc: Schema, raw: Schema, depth = 0): Arbitrary<unknown> {
  const schema = resolve(doc, raw)
  const examples =
    Array.isArray(schema.examples) && schema.examples.length ? [fc.constantFrom(...(schema.examples as unknown[]))] : []
  const pick = (...arbitraries: Arbitrary<unknown>[]) =>
    examples.length
      ? fc.oneof(examples[0]!, ...arbitraries)
      : arbitraries.length === 1
        ? arbitraries[0]!
        : fc.oneof(...arbitraries)
  if ('const' in schema) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]))
  if (Array.isArray(schema.anyOf)) {
    // Each branch with what the schema says beside anyOf (a string's type and length).
    const { anyOf, ...common } = schema
    return fc.oneof(...(anyOf as Schema[]).map((s) => valid(doc, { ...common, ...s }, depth)))
  }
  if (Array.isArray(schema.allOf)) return valid(doc, (schema.allOf as Schema[])[0]!, depth)
  const types = typesOf(schema)
  if (types.length > 1) return pick(...types.map((type) => valid(doc, { ...schema, type }, depth)))
  switch (types[0]) {
    case 'string':
      return pick(stringArbitrary(schema))
    case 'integer':
      return pick(integerArbitrary(schema))
    case 'number':
      return fc.double({
        min: (schema.minimum as number | undefined) ?? -1e6,
        max: (schema.maximum as number | undefined) ?? 1e6,
        noNaN: true,
      })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const items = schema.items ? valid(doc, schema.items as Schema, depth + 1) : fc.jsonValue({ maxDepth: 1 })
      const size = {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 5, 5),
      }
      return schema.uniqueItems === true
        ? fc.uniqueArray(items, { ...size, selector: (v) => JSON.stringify(v) })
        : fc.array(items, size)
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>
      if (depth > 3 || Object.keys(properties).length === 0) return pick(fc.constant({}))
      const required = (schema.required as string[] | undefined) ?? []
      const record = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, valid(doc, s, depth + 1)]))
      return pick(fc.record(record, { requiredKeys: required.filter((r) => r in properties) }))
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** Values that break one rule of `schema` (it must have some rule to break: type, bounds, pattern or enum). */
export function invalid(doc: Schema, raw: Schema): Arbitrary<unknown> {
  const schema = resolve(doc, raw)
  const breaks: Arbitrary<unknown>[] = []
  const types = typesOf(schema)
  if (typeof schema.maxLength === 'number') breaks.push(fc.constant('x'.repeat((schema.maxLength as number) + 1)))
  if (typeof schema.minLength === 'number' && (schema.minLength as number) > 0) breaks.push(fc.constant(''))
  if (typeof schema.pattern === 'string') {
    // Chosen here, not by fc's filter, which would retry for ever on a pattern every candidate meets.
    const re = new RegExp(schema.pattern as string)
    const off = ['!', 'UPPER', 'two words', '--', '%00', '\u00e9', ' '].filter((s) => !re.test(s))
    if (off.length) breaks.push(fc.constantFrom(...off))
  }
  if (Array.isArray(schema.enum) || 'const' in schema) breaks.push(fc.constantFrom('not-one-of-them', 'ZZZ'))
  if (types.includes('integer')) {
    if (typeof schema.maximum === 'number') breaks.push(fc.constant((schema.maximum as number) + 1))
    if (typeof schema.minimum === 'number') breaks.push(fc.constant((schema.minimum as number) - 1))
    breaks.push(fc.constantFrom(1.5, 'abc', '', '1e2', '0x10', ' 1'))
  }
  if (schema.format === 'date-time')
    breaks.push(fc.constantFrom('yesterday', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T25:00:00Z'))
  // A date or a date-time (anyOf): neither.
  if (formatsOf(schema).includes('date'))
    breaks.push(fc.constantFrom('yesterday', '2026-02-30', '2026-01-01T25:00:00Z', '2026-1-1'))
  if (types.includes('array')) {
    const items = schema.items as Schema | undefined
    if (typeof schema.maxItems === 'number' && items)
      breaks.push(
        fc.array(valid(doc, items), {
          minLength: (schema.maxItems as number) + 1,
          maxLength: (schema.maxItems as number) + 1,
        }),
      )
    if (typeof schema.minItems === 'number' && (schema.minItems as number) > 0) breaks.push(fc.constant([]))
    if (items && breakable(doc, items)) breaks.push(invalid(doc, items).map((v) => [v]))
  }
  if (breaks.length === 0) throw new Error(`nothing to break in ${JSON.stringify(schema).slice(0, 120)}`)
  return fc.oneof(...breaks)
}

/** The formats `schema` allows: its own, or those of its anyOf branches. */
function formatsOf(schema: Schema): unknown[] {
  return [schema.format, ...((schema.anyOf as Schema[] | undefined) ?? []).map((s) => s.format)]
}

/** True when `schema` has a rule `invalid` can break. */
export function breakable(doc: Schema, raw: Schema): boolean {
  const s = resolve(doc, raw)
  return (
    (typesOf(s).includes('array') &&
      (typeof s.maxItems === 'number' ||
        (typeof s.minItems === 'number' && s.minItems > 0) ||
        (s.items !== undefined && breakable(doc, s.items as Schema)))) ||
    typeof s.maxLength === 'number' ||
    (typeof s.minLength === 'number' && s.minLength > 0) ||
    typeof s.pattern === 'string' ||
    Array.isArray(s.enum) ||
    'const' in s ||
    typesOf(s).includes('integer') ||
    s.format === 'date-time' ||
    (Array.isArray(s.anyOf) && (s.anyOf as Schema[]).some((b) => b.format === 'date-time'))
  )
}
