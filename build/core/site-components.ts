/**
 * A team's own components, from `components:` in content/site.yaml (the
 * plain object the YAML gave), in the vocabulary of the content model's
 * schemas:
 *
 *   components:
 *     pricing-table:
 *       kind: leaf            # text, leaf or container
 *       description: The plans, as the pricing page shows them.
 *       attributes:
 *         plan: { type: string, enum: [starter, team, enterprise] }
 *         note: { type: string, maxLength: 80 }
 *       required: [plan]
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
const ATTRIBUTE_KEYS = ['type', 'description', 'enum', 'format', 'pattern', 'maxLength', 'default']

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
  const attributes = raw.attributes ?? {}
  if (!isObject(attributes)) fail(['attributes'], 'must be a mapping of attribute names to { type: string, … }')
  else
    for (const [attribute, schema] of Object.entries(attributes)) {
      const at = ['attributes', attribute]
      if (!NAME.test(attribute)) fail(at, 'an attribute name is lower-case words joined by hyphens')
      else if (!isObject(schema) || schema.type !== 'string')
        fail(at, 'must be { type: string } with optional enum, format: uri, pattern, maxLength, default, description')
      else {
        for (const key of Object.keys(schema))
          if (!ATTRIBUTE_KEYS.includes(key)) fail([...at, key], unknownKey(key, ATTRIBUTE_KEYS))
        if (
          schema.enum !== undefined &&
          !(Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string'))
        )
          fail([...at, 'enum'], 'must be a list of strings')
        if (schema.format !== undefined && schema.format !== 'uri') fail([...at, 'format'], 'must be uri')
        if (schema.pattern !== undefined && !validPattern(schema.pattern))
          fail([...at, 'pattern'], 'must be a regular expression')
        if (schema.maxLength !== undefined && !(Number.isInteger(schema.maxLength) && (schema.maxLength as number) > 0))
          fail([...at, 'maxLength'], 'must be a positive whole number')
        properties[attribute] = schema as unknown as AttributeSchema
      }
    }
  const required = raw.required ?? []
  if (!Array.isArray(required) || required.some((r) => typeof r !== 'string' || !(r in properties)))
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
    attributes: { type: 'object', properties, required: required as string[] },
  }
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
