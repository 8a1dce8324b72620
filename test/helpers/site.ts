/** Site settings for tests that call the build's modules directly: the fixture's model, with the test's settings. */
import type { SchemaObject } from 'ajv'
import { parseSiteConfig, type SiteConfig } from '../../build/core/site.ts'
import { frontmatterSchema } from '../../contract/model/model.ts'
import { SITE_YAML } from './project.ts'

/** The settings of SITE_YAML (the fixture's four collections), with `overrides` laid over them. */
export function fixtureSite(overrides: Partial<Omit<SiteConfig, 'model' | 'collections'>> = {}): SiteConfig {
  return { ...parseSiteConfig(SITE_YAML), ...overrides }
}

/** The fixture's content model (the project's four collections). */
export const FIXTURE_MODEL = fixtureSite().model
/** The fixture's collections, in the model's order: what tests that go through every collection iterate. */
export const COLLECTION_NAMES = FIXTURE_MODEL.names
export const COLLECTIONS = FIXTURE_MODEL.collections

/** The frontmatter JSON Schema of a fixture collection (what the build validates its files with). */
export function schemaOf(name: string): SchemaObject {
  return frontmatterSchema(COLLECTIONS[name]!, FIXTURE_MODEL)
}
