/**
 * One ajv instance for all frontmatter schemas: every error at once
 * (`allErrors`), standard formats, the IANA time-zone format, and
 * author-friendly messages through ajv-errors. The prebuilt commands
 * (build/prebuilt.ts) carry the validators compiled to code at bundle time
 * (ajv-standalone.ts), so they compile no schema at run time.
 */
import { _, Ajv, type ValidateFunction } from 'ajv'
import ajvErrors from 'ajv-errors'
import addFormats from 'ajv-formats'
import { COLLECTIONS, type CollectionName } from '../../contract/collections.ts'
import { MEDIA_KEYWORD } from '../../contract/schemas/common.ts'
import { isTimeZone } from './time-zone.ts'
import { DEPRECATION_EXTENSION } from '../../contract/routes/deprecation.ts'

export { isTimeZone } from './time-zone.ts'

/** `source`: keep each validator's code, for standaloneValidators (the prebuilt commands carry them compiled). */
export function createAjv(options: { source?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    ...(options.source ? { code: { source: true, esm: true, formats: _`formats` } } : {}),
  })
  addFormats.default(ajv)
  ajvErrors.default(ajv)
  ajv.addFormat('iana-timezone', { type: 'string', validate: isTimeZone })
  // An annotation for the editor (what a field names), not a rule.
  ajv.addKeyword({ keyword: MEDIA_KEYWORD, schemaType: 'string' })
  // A field's deprecation dates (contract/routes/deprecation.ts): a note for the document, no rule for the content.
  ajv.addKeyword(DEPRECATION_EXTENSION)
  return ajv
}

let validators: Record<CollectionName, ValidateFunction> | undefined

/** Compiled frontmatter validators, one per collection, compiled once per process. */
export function frontmatterValidators(): Record<CollectionName, ValidateFunction> {
  if (validators) return validators
  const ajv = createAjv()
  validators = {
    'blog-posts': ajv.compile(COLLECTIONS['blog-posts'].schema),
    'case-studies': ajv.compile(COLLECTIONS['case-studies'].schema),
    webinars: ajv.compile(COLLECTIONS.webinars.schema),
    events: ajv.compile(COLLECTIONS.events.schema),
  }
  return validators
}
