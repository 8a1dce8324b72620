/** Site settings for tests that call the build's modules directly: the fixture's model, with the test's settings. */
import { parseSiteConfig, type SiteConfig } from '../../build/core/site.ts'
import { SITE_YAML } from './project.ts'

/** The settings of SITE_YAML (the fixture's four collections), with `overrides` laid over them. */
export function fixtureSite(overrides: Partial<Omit<SiteConfig, 'model' | 'collections'>> = {}): SiteConfig {
  return { ...parseSiteConfig(SITE_YAML), ...overrides }
}
