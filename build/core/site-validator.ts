/**
 * The validator of content/site.yaml's schema (site-schema.ts), compiled once
 * per process with the frontmatter's ajv settings, its code kept beside the
 * prebuilt commands like the model's (build/pipeline/validator-cache.ts).
 */
import type { ValidateFunction } from 'ajv'
import { compileSchemas } from './ajv.ts'
import { SITE_SCHEMA } from './site-schema.ts'

let validator: ValidateFunction | undefined

export function siteValidator(): ValidateFunction {
  validator ??= compileSchemas([SITE_SCHEMA])[0]!
  return validator
}
