/**
 * One ajv instance for all frontmatter schemas: every error at once
 * (`allErrors`), standard formats, the IANA time-zone format, and
 * author-friendly messages through ajv-errors.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import ajvErrors from 'ajv-errors'
import addFormats from 'ajv-formats'
import { COLLECTIONS, type CollectionName } from '../../contract/collections.ts'
import { DEPRECATION_EXTENSION } from '../../contract/routes/deprecation.ts'

const zones = new Set(Intl.supportedValuesOf('timeZone'))

/** True for names Intl knows, including links like UTC that supportedValuesOf omits. */
export function isTimeZone(name: string): boolean {
  if (zones.has(name)) return true
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return name.includes('/') || name === 'UTC'
  } catch {
    return false
  }
}

export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true })
  addFormats.default(ajv)
  ajvErrors.default(ajv)
  ajv.addFormat('iana-timezone', { type: 'string', validate: isTimeZone })
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
