/**
 * An item's page on the marketing site, for an address it no longer has: the
 * URL its record's `url` was (build/pipeline/derive.ts makes the same for a
 * live record; test/build/emit/redirects.test.ts holds the two equal).
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { SiteConfig } from '../core/site.ts'

export function pageUrl(site: SiteConfig, collection: CollectionName, slug: string, locale: string): string {
  const prefix = locale === site.language ? '' : `/${locale.toLowerCase()}`
  return `${site.url}${prefix}${site.collections[collection]!.path}/${slug}`
}
