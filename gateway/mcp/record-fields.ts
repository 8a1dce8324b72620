/**
 * The collections' own fields in the MCP tools' output schemas, from the
 * content model, so an agent host sees each field's name, type and
 * description where a record carries it. Scalars (and lists of them) are
 * typed as records hold them; fields the build reshapes (images,
 * references, people, Markdown, objects) are named and described, their
 * shape being the REST record's (OpenAPI). Every one is optional: a tool
 * answers for any collection, and a record has only its own.
 */
import { z } from 'zod'
import type { Field } from '../../contract/model/fields.ts'
import { fallbackOf } from '../../contract/model/fields.ts'
import type { CollectionName, ContentModel } from '../../contract/model/model.ts'

type Shape = Record<string, z.ZodType>

/** A field's value as a record holds it, where that is a plain JSON scalar (or a list of them). */
function scalarOf(field: Field): z.ZodType | undefined {
  switch (field.type) {
    case 'string':
    case 'text':
    case 'url':
    case 'email':
    case 'date':
    case 'datetime':
    case 'timezone':
      return z.string()
    case 'integer':
      return z.number().int()
    case 'number':
      return z.number()
    case 'boolean':
      return z.boolean()
    case 'enum':
      return field.values?.length ? z.enum(field.values as [string, ...string[]]) : z.string()
    case 'list': {
      const item = field.of && scalarOf(field.of)
      return item && z.array(item)
    }
    default:
      return undefined
  }
}

/** A field's schema: typed where it is a scalar, null where a record may lack it; described from the model. */
function fieldOf(field: Field, collections: readonly string[], required: boolean): z.ZodType {
  const scalar = scalarOf(field)
  const typed = scalar && (required || fallbackOf(field) !== null ? scalar : scalar.nullable())
  const about = `${collections.join(', ')}: ${field.type} field${field.description ? `. ${field.description}` : ''}`
  return (typed ?? z.unknown()).describe(about)
}

/** The own fields of `names`' collections (by default all), each once; a name two collections declare differently is untyped. */
export function ownFieldsShape(model: ContentModel, names: readonly CollectionName[] = model.names): Shape {
  const seen = new Map<string, { field: Field; collections: string[]; same: boolean }>()
  for (const name of names)
    for (const [key, field] of Object.entries(model.collections[name]!.fields)) {
      const entry = seen.get(key)
      if (!entry) seen.set(key, { field, collections: [name], same: true })
      else {
        entry.collections.push(name)
        entry.same &&= JSON.stringify(entry.field) === JSON.stringify(field)
      }
    }
  const shape: Shape = {}
  for (const [key, { field, collections, same }] of seen)
    shape[key] = (
      same ? fieldOf(field, collections, field.required === true) : z.unknown().describe(`${collections.join(', ')}`)
    ).optional()
  return shape
}
