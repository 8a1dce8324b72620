/**
 * The validator of content/site.yaml's schema (site-schema.ts), compiled once
 * per process with the frontmatter's ajv settings. The prebuilt commands carry
 * it compiled to code at bundle time (build/pipeline/ajv-standalone.ts), like
 * the frontmatter validators of the model they were bundled with.
 */
import type { ValidateFunction } from 'ajv'
import { createAjv } from '../pipeline/ajv.ts'
import { SITE_SCHEMA } from './site-schema.ts'

let validator: ValidateFunction | undefined

export function siteValidator(): ValidateFunction {
  validator ??= createAjv().compile(SITE_SCHEMA)
  return validator
}
