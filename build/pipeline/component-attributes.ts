/**
 * A directive's attributes checked against its component's schema: unknown
 * names (with the closest known one), required ones, `enum`, `format: uri`,
 * `pattern`, `maxLength` and `minLength`. Each fault is one sentence for the author.
 */
import { closest } from '../../contract/did-you-mean.ts'
import type { ComponentDeclaration } from '../core/components.ts'

export function checkAttributes(
  component: ComponentDeclaration,
  written: Record<string, string | null | undefined>,
): { values: Record<string, string>; faults: string[] } {
  const { properties, required } = component.attributes
  const known = Object.keys(properties)
  const values: Record<string, string> = {}
  const faults: string[] = []
  for (const [name, value] of Object.entries(written)) {
    const schema = properties[name]
    if (!schema) {
      const near = closest(name, known, 2)
      faults.push(
        `${component.name} has no attribute "${name}"${near ? ` (did you mean ${near}?)` : known.length ? ` (attributes: ${known.join(', ')})` : ''}`,
      )
      continue
    }
    const text = value ?? ''
    if (schema.enum && !schema.enum.includes(text)) {
      const near = closest(text, schema.enum, 2)
      faults.push(
        `${component.name} ${name} must be one of ${schema.enum.join(', ')}, not "${text}"${near ? ` (did you mean ${near}?)` : ''}`,
      )
    } else if (schema.format === 'uri' && !isUrl(text)) {
      faults.push(`${component.name} ${name} must be an absolute http(s) URL or a path starting with /, not "${text}"`)
    } else if (schema.pattern && !new RegExp(schema.pattern).test(text)) {
      faults.push(`${component.name} ${name} must match ${schema.pattern}, not "${text}"`)
    } else if (schema.maxLength !== undefined && text.length > schema.maxLength) {
      faults.push(`${component.name} ${name} must be at most ${schema.maxLength} characters`)
    } else if (schema.minLength !== undefined && text.length < schema.minLength) {
      faults.push(`${component.name} ${name} must be at least ${schema.minLength} characters`)
    } else if (!text.trim() && required.includes(name)) {
      faults.push(`${component.name} ${name} must not be empty`)
    } else values[name] = text
  }
  for (const name of required)
    if (!(name in written)) faults.push(`${component.name} needs ${name}="…" (${attributeList(component)})`)
  for (const [name, schema] of Object.entries(properties))
    if (values[name] === undefined && schema.default !== undefined && !(name in written)) values[name] = schema.default
  return { values, faults }
}

function isUrl(text: string): boolean {
  if (text.startsWith('/') && !text.startsWith('//')) return true
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:'
  } catch {
    return false
  }
}

function attributeList(component: ComponentDeclaration): string {
  const { properties, required } = component.attributes
  return Object.keys(properties)
    .map((name) => (required.includes(name) ? name : `${name}?`))
    .join(' ')
}
