/**
 * One ajv configuration for all content schemas (each collection's
 * frontmatter, site.yaml's): every error at once (`allErrors`), standard
 * formats, the IANA time-zone format, and author-friendly messages through
 * ajv-errors. The schemas come from the content model, so they are compiled
 * when a build first needs them — once per process and model, never per
 * item. Where the build runs prebuilt (build/run.mjs), the compiled code is
 * kept beside the bundle under the schemas' hash (validator-cache.ts): a
 * later build of the same model loads it instead of compiling again.
 */
import { _, Ajv, type SchemaObject, type ValidateFunction } from 'ajv'
import ajvErrors from 'ajv-errors'
import addFormats from 'ajv-formats'
import { MEDIA_KEYWORD, REFERENCE_KEYWORD } from '../../contract/model/common-fields.ts'
import { frontmatterSchema, type CollectionName, type ContentModel } from '../../contract/model/model.ts'
import { DEPRECATION_EXTENSION } from '../../contract/routes/deprecation.ts'
import { isTimeZone } from './time-zone.ts'
import { cachedValidators } from './validator-cache.ts'

export { isTimeZone } from './time-zone.ts'

/** `source`: keep each validator's code, for the cache of compiled validators (validator-cache.ts). */
export function createAjv(options: { source?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    ...(options.source ? { code: { source: true, formats: _`formats` } } : {}),
  })
  addFormats.default(ajv)
  ajvErrors.default(ajv)
  ajv.addFormat('iana-timezone', { type: 'string', validate: isTimeZone })
  // Annotations for the editor (what a field names: an image, an item), not rules.
  ajv.addKeyword({ keyword: MEDIA_KEYWORD, schemaType: 'string' })
  ajv.addKeyword({ keyword: REFERENCE_KEYWORD, schemaType: 'string' })
  // A field's deprecation dates (contract/routes/deprecation.ts): a note for the document, no rule for the content.
  ajv.addKeyword(DEPRECATION_EXTENSION)
  return ajv
}

/** Validators of `schemas`, in their order: from the cache of compiled code when it has them, else compiled now. */
export function compileSchemas(schemas: readonly SchemaObject[]): ValidateFunction[] {
  return cachedValidators(schemas, () => createAjv({ source: true }))
}

const validators = new WeakMap<ContentModel, Record<CollectionName, ValidateFunction>>()

/** Compiled frontmatter validators of `model`, one per collection, compiled once per process and model. */
export function frontmatterValidators(model: ContentModel): Record<CollectionName, ValidateFunction> {
  let found = validators.get(model)
  if (!found) {
    const compiled = compileSchemas(model.names.map((name) => frontmatterSchema(model.collections[name]!, model)))
    found = Object.fromEntries(model.names.map((name, i) => [name, compiled[i]!]))
    validators.set(model, found)
  }
  return found
}
