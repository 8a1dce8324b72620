/**
 * The components the editor offers (Decap editor components) with their
 * attribute forms: the built-in ones and the site's own (content/site.yaml),
 * as data the page hands to admin/components.js. Each attribute is a form
 * field (a choice for an `enum`, text otherwise), required as its schema
 * says, its default filled in; a container has a Content field for what
 * goes inside. Text (inline) components are written by hand: Decap's
 * components are blocks.
 */
import { componentSet, type ComponentDeclaration } from '../core/components.ts'

export interface EditorField {
  name: string
  label: string
  widget: 'string' | 'select' | 'text'
  required: boolean
  options?: string[]
  default?: string
  hint?: string
}

export interface EditorComponent {
  name: string
  label: string
  kind: 'leaf' | 'container'
  fields: EditorField[]
}

/** The name of a container's content field: not an attribute name (those are lower-case words and hyphens). */
export const CONTENT_FIELD = 'component_content'

export function editorComponents(own: readonly ComponentDeclaration[] = []): EditorComponent[] {
  const out: EditorComponent[] = []
  for (const component of componentSet(own).values()) {
    if (component.kind === 'text') continue
    const { properties, required } = component.attributes
    const fields: EditorField[] = Object.entries(properties).map(([name, schema]) => ({
      name,
      label: words(name),
      widget: schema.enum ? 'select' : 'string',
      required: required.includes(name),
      ...(schema.enum && { options: schema.enum }),
      ...(schema.default !== undefined && { default: schema.default }),
      ...(schema.description && { hint: schema.description }),
    }))
    if (component.kind === 'container')
      fields.push({ name: CONTENT_FIELD, label: 'Content', widget: 'text', required: false, hint: 'Markdown.' })
    out.push({ name: component.name, label: words(component.name), kind: component.kind, fields })
  }
  return out
}

/** `pricing-table` as "Pricing table", `cta` as "CTA". */
function words(name: string): string {
  if (name === 'cta') return 'CTA'
  const text = name.replace(/-/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}
