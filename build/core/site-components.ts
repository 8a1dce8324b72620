/**
 * A team's own components, from `components:` in content/site.yaml (the
 * plain object the YAML gave), their attributes in the field vocabulary of
 * the content model (`collections:`' fields, contract/model/fields.ts):
 *
 *   components:
 *     pricing-table:
 *       kind: leaf            # text, leaf or container
 *       description: The plans, as the pricing page shows them.
 *       attributes:
 *         plan: { type: enum, values: [starter, team, enterprise], required: true }
 *         note: { type: string, max: 80 }
 *         link: url           # shorthand for { type: url }
 *
 * An attribute is a string, text, url or enum field (`min`, `max`,
 * `pattern`, `values`, `default`, `required`, `description`). The JSON
 * Schema spelling (`{ type: string, enum, format: uri, maxLength }` and a
 * component-level `required: [names]`) is read too.
 *
 * Each fault goes to `report` with its path under `components`.
 */
import { closest } from '../../contract/did-you-mean.ts'
import {
  type AttributeSchema,
  BUILT_IN_COMPONENTS,
  type ComponentDeclaration,
  type ComponentKind,
} from './components.ts'

const NAME = /^[a-z][a-z\d]*(?:-[a-z\d]+)*$/
const KINDS: ComponentKind[] = ['text', 'leaf', 'container']
const COMPONENT_KEYS = ['kind', 'description', 'attributes', 'required']
/** The content model's field settings an attribute takes, then the JSON Schema spelling's. */
const MODEL_KEYS = ['type', 'description', 'default', 'required', 'min', 'max', 'pattern', 'values']
const SCHEMA_KEYS = ['enum', 'format', 'maxLength']
const ATTRIBUTE_KEYS = [...MODEL_KEYS, ...SCHEMA_KEYS]
/** The field types an attribute may have: an attribute's value is always text. */
const ATTRIBUTE_TYPES = ['string', 'text', 'url', 'enum']

type Report = (path: (string | number)[], message: string) => void

export function readComponents(value: unknown, report: Report): ComponentDeclaration[] {
  if (value === undefined || value === null) return []
  if (!isObject(value)) {
    report([], 'must be a mapping of component names to their declarations (kind, attributes, required)')
    return []
  }
  const out: ComponentDeclaration[] = []
  for (const [name, raw] of Object.entries(value)) {
    if (!NAME.test(name)) report([name], 'a component name is lower-case words joined by hyphens, like pricing-table')
    else if (BUILT_IN_COMPONENTS.some((c) => c.name === name))
      report([name], `${name} is a built-in component and cannot be declared again`)
    else if (!isObject(raw)) report([name], 'must be a mapping with kind (text, leaf or container) and attributes')
    else {
      const declared = readOne(name, raw, report)
      if (declared) out.push(declared)
    }
  }
  return out
}

function readOne(name: string, raw: Record<string, unknown>, report: Report): ComponentDeclaration | undefined {
  let ok = true
  const fail = (path: (string | number)[], message: string) => {
    ok = false
    report([name, ...path], message)
  }
  for (const key of Object.keys(raw)) if (!COMPONENT_KEYS.includes(key)) fail([key], unknownKey(key, COMPONENT_KEYS))
  const kind = raw.kind as ComponentKind
  if (!KINDS.includes(kind)) fail(['kind'], `must be one of ${KINDS.join(', ')}`)
  const properties: Record<string, AttributeSchema> = {}
  const requiredHere: string[] = []
  const attributes = raw.attributes ?? {}
  if (!isObject(attributes))
    fail(['attributes'], 'must be a mapping of attribute names to fields ({ type: string }, …)')
  else
    for (const [attribute, declared] of Object.entries(attributes)) {
      const at = ['attributes', attribute]
      const schema = typeof declared === 'string' ? { type: declared } : declared
      if (!NAME.test(attribute)) fail(at, 'an attribute name is lower-case words joined by hyphens')
      else if (!isObject(schema) || !ATTRIBUTE_TYPES.includes(String(schema.type)))
        fail(
          typeof declared === 'string' || (isObject(schema) && 'type' in schema) ? [...at, 'type'] : at,
          `must be a field of type ${ATTRIBUTE_TYPES.join(', ')} (an attribute's value is text), like { type: enum, values: [a, b] }`,
        )
      else {
        const read = readAttribute(schema, (key, message) => fail([...at, key], message))
        if (read) properties[attribute] = read
        if (schema.required === true) requiredHere.push(attribute)
      }
    }
  const required = raw.required ?? []
  if (!Array.isArray(required) || required.some((r) => typeof r !== 'string' || !(r in attributesOf(raw))))
    fail(
      ['required'],
      `must list attributes declared under attributes (${Object.keys(properties).join(', ') || 'none'})`,
    )
  if (!ok) return undefined
  const description = typeof raw.description === 'string' ? raw.description : undefined
  return {
    name,
    kind,
    ...(description !== undefined && { description }),
    attributes: { type: 'object', properties, required: [...new Set([...(required as string[]), ...requiredHere])] },
  }
}

/**
 * One attribute as the checks read it (components.ts's AttributeSchema): the
 * content model's settings (`values`, `max`, `min`, `url`) written as their
 * JSON Schema keywords; `fault` gets each wrong setting by its key.
 */
function readAttribute(
  schema: Record<string, unknown>,
  fault: (key: string, message: string) => void,
): AttributeSchema | undefined {
  let ok = true
  const bad = (key: string, message: string) => {
    ok = false
    fault(key, message)
  }
  for (const key of Object.keys(schema)) if (!ATTRIBUTE_KEYS.includes(key)) bad(key, unknownAttributeKey(key))
  const strings = (value: unknown) =>
    Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')
  const values = schema.values ?? schema.enum
  if (schema.type === 'enum' && !strings(values)) bad('values', 'an enum needs its values, a list of strings')
  else if (values !== undefined && !strings(values)) bad(schema.values ? 'values' : 'enum', 'must be a list of strings')
  if (schema.format !== undefined && schema.format !== 'uri') bad('format', 'must be uri')
  if (schema.pattern !== undefined && !validPattern(schema.pattern)) bad('pattern', 'must be a regular expression')
  for (const key of ['max', 'maxLength', 'min'])
    if (schema[key] !== undefined && !(Number.isInteger(schema[key]) && (schema[key] as number) >= 0))
      bad(key, 'must be a whole number')
  if (schema.required !== undefined && typeof schema.required !== 'boolean') bad('required', 'must be true or false')
  if (schema.default !== undefined && typeof schema.default !== 'string') bad('default', 'must be text')
  else if (schema.default !== undefined && strings(values) && !(values as string[]).includes(schema.default as string))
    bad('default', `must be one of ${(values as string[]).join(', ')}`)
  if (!ok) return undefined
  const maxLength = (schema.max ?? schema.maxLength) as number | undefined
  return {
    type: 'string',
    ...(typeof schema.description === 'string' && { description: schema.description }),
    ...(values !== undefined && { enum: values as string[] }),
    ...((schema.type === 'url' || schema.format === 'uri') && { format: 'uri' as const }),
    ...(typeof schema.pattern === 'string' && { pattern: schema.pattern }),
    ...(maxLength !== undefined && { maxLength }),
    ...(typeof schema.min === 'number' && { minLength: schema.min }),
    ...(typeof schema.default === 'string' && { default: schema.default }),
  }
}

function attributesOf(raw: Record<string, unknown>): Record<string, unknown> {
  return isObject(raw.attributes) ? raw.attributes : {}
}

function unknownAttributeKey(key: string): string {
  const near = closest(key, ATTRIBUTE_KEYS, 2)
  return `is not a setting of an attribute${near ? ` (did you mean ${near}?)` : ` (settings: ${MODEL_KEYS.join(', ')})`}`
}

function unknownKey(key: string, known: string[]): string {
  const near = closest(key, known, 2)
  return `is not part of a component declaration${near ? ` (did you mean ${near}?)` : ` (keys: ${known.join(', ')})`}`
}

function validPattern(pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false
  try {
    new RegExp(pattern)
    return true
  } catch {
    return false
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
