/**
 * The Netlify rules of the tags and the redirects (build/emit/netlify.ts
 * writes the rest): a 301 for every old address of an item, from the
 * redirects' index (contract/redirects.ts), as the gateway answers it; the
 * tags every tag route's concrete paths name; and the headers of the tags'
 * pre-rendered pages. A deleted item's address has no rule of its own: the
 * gateway's folder rule sends it to the function, which answers its 410.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import { findFate, movedTo, REDIRECT_INDEX_FILE, type RedirectIndex } from '../../contract/redirects.ts'
import { linkHeader } from '../../contract/render.ts'
import { TAG_PRERENDERED_LIMITS } from '../../contract/routes/taxonomy.ts'
import { tagHref, tagIndex, tagItemsFile, type SummariesOf } from '../../contract/tags.ts'
import { FUNCTION_PREFIX as GATEWAY_TARGET } from '../../contract/public-paths.ts'
import type { BuiltContent } from './types.ts'

/** The 301 rules (before every route's: an old address is no live item's, so no other rule names it). */
export function redirectRules(content: BuiltContent, read: (path: string) => BuildFile | undefined): string[] {
  const file = read(REDIRECT_INDEX_FILE)
  if (!file) return []
  const index = JSON.parse(file.body.toString('utf8')) as RedirectIndex
  const { site } = content
  const locales = { default: site.language, available: site.locales }
  const rules: string[] = []
  for (const collection of site.model.names) {
    const live = liveSlugs(content, collection)
    const slugs = new Set(site.locales.flatMap((l) => Object.keys(index.locales[l]?.[collection] ?? {})))
    for (const slug of [...slugs].sort()) {
      if (live.has(slug)) continue
      const path = `/api/${collection}/${slug}`
      const bare = findFate(index, locales, collection, slug)!
      const targetOf = (l?: string) => {
        const { fate } = findFate(index, locales, collection, slug, l)!
        return 'to' in fate ? movedTo(collection, fate) : undefined
      }
      // A locale whose own fate of the slug differs from the bare request's: its rule first.
      for (const locale of site.locales) {
        if (locale === bare.locale || !index.locales[locale]?.[collection]?.[slug]) continue
        const target = targetOf(locale)
        if (target !== targetOf())
          rules.push(`${path}  locale=${locale}  ${target ?? `${GATEWAY_TARGET}${path}`}  ${target ? 301 : 200}`)
      }
      const target = targetOf()
      if (target) rules.push(`${path}  ${target}  301`)
    }
  }
  return rules
}

/** The slugs of a collection published in any locale: never redirected. */
function liveSlugs(content: BuiltContent, collection: CollectionName): Set<string> {
  const slugs = new Set((content.summaries[collection] ?? []).map((r) => r.slug))
  for (const view of Object.values(content.locales ?? {}))
    for (const record of view.summaries[collection] ?? []) slugs.add(record.slug)
  return slugs
}

/** The tags of the published items, of every locale: the values of `{tag}` (`own`: the default locale has it). */
export function tagValues(content: BuiltContent): { tag: string; own: boolean }[] {
  const { model } = content.site
  const own = new Set(tagIndex(model, (c) => content.summaries[c] ?? []).keys())
  const others = new Set<string>()
  for (const view of Object.values(content.locales ?? {}))
    for (const tag of tagIndex(model, (c) => view.summaries[c] ?? []).keys()) if (!own.has(tag)) others.add(tag)
  return [
    ...[...own].sort().map((tag) => ({ tag, own: true })),
    ...[...others].sort().map((tag) => ({ tag, own: false })),
  ]
}

/** The total and the next page of each tag's pre-rendered pages, and each locale's language, as the gateway sends them. */
export function tagHeaderRules(
  content: BuiltContent,
  rule: (path: string, values: Record<string, string>) => string[],
): string[] {
  const rules: string[] = []
  const views: [string | undefined, SummariesOf][] = [
    [undefined, (c) => content.summaries[c] ?? []],
    ...Object.entries(content.locales ?? {}).map(([locale, view]): [string, SummariesOf] => [
      locale,
      (c) => view.summaries[c] ?? [],
    ]),
  ]
  for (const [locale, summariesOf] of views) {
    const index = tagIndex(content.site.model, summariesOf)
    for (const [tag, byCollection] of [...index].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const total = [...byCollection.values()].reduce((n, list) => n + list.length, 0)
      for (const limit of TAG_PRERENDERED_LIMITS) {
        const next = total > limit ? tagHref(tag, { limit, page: 2, ...(locale && { locale }) }) : null
        const link = linkHeader({ next, prev: null })
        const values = { 'X-Total-Count': String(total), ...(link && { Link: link }) }
        rules.push(...rule(`/${tagItemsFile(tag, limit, locale)}`, values))
      }
    }
    if (locale) rules.push(...rule(`/api/_locales/${locale}/_tags/*`, { 'Content-Language': locale }))
  }
  return rules
}
