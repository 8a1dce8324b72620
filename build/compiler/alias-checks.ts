/**
 * Author errors of `aliases:` that no single file shows. An alias is an old
 * address of its item, so it must not be any other's: an old slug must not
 * be the slug of an item of its collection and locale (that item would be
 * shadowed, or the alias never answered), nor another item's alias; an old
 * page path must not be another item's alias, nor the page of an item on
 * the marketing site (a redirect there would shadow the live page). Each
 * error is at the alias, naming the file and place it collides with.
 * Drafts are left out: they publish nothing, so they claim no address.
 */
import { ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import type { AliasMention, CompiledFile } from '../pipeline/compile.ts'

const isPath = (alias: string) => alias.startsWith('/')
/** A page path without its trailing slash, as the marketing site serves both. */
const pagePath = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path)

/** The page of a live item on the marketing site: its record's `url` without the origin. */
function pageOf(site: SiteConfig, file: CompiledFile): string {
  const prefix = file.locale === site.language ? '' : `/${file.locale.toLowerCase()}`
  return `${prefix}${site.collections[file.collection]!.path}/${file.slug}`
}

interface Claim {
  file: CompiledFile
  mention?: AliasMention
}

/** Every alias error of `files` (all compiled files), in the order of the files and their aliases. */
export function aliasErrors(site: SiteConfig, files: Iterable<CompiledFile>): ContentError[] {
  const all = [...files]
  // Most sites have no alias at all: nothing to sort then.
  if (!all.some((f) => f.aliases.length)) return []
  const live = all.filter((f) => !f.draft && f.record).sort((a, b) => (a.source.path < b.source.path ? -1 : 1))
  const withAliases = live.filter((f) => f.aliases.length)
  // By address: `slug collection/locale/slug` or `path /the/path`, the first file that claims it.
  const claims = new Map<string, Claim>()
  for (const file of live) {
    claims.set(`slug ${file.collection}/${file.locale}/${file.slug}`, { file })
    claims.set(`path ${pagePath(pageOf(site, file))}`, { file })
  }
  const errors: ContentError[] = []
  for (const file of withAliases)
    for (const mention of file.aliases) {
      const key = isPath(mention.alias)
        ? `path ${pagePath(mention.alias)}`
        : `slug ${file.collection}/${file.locale}/${mention.alias}`
      const claim = claims.get(key)
      if (!claim) {
        claims.set(key, { file, mention })
        continue
      }
      errors.push(
        new ContentError(
          'ALIAS',
          file.source.path,
          mention.line,
          mention.column,
          `aliases[${mention.index}]`,
          collision(site, mention.alias, file, claim),
        ),
      )
    }
  return errors
}

function collision(site: SiteConfig, alias: string, file: CompiledFile, claim: Claim): string {
  const other = claim.file
  if (claim.mention) {
    const where = `${other.source.path}:${claim.mention.line}:${claim.mention.column}`
    return `${alias} is also an alias of ${other === file ? 'this item, above' : `the item at ${where}`}: an old address leads to one item. Remove one of them`
  }
  if (other === file)
    return `${alias} is this item's own ${isPath(alias) ? 'page' : 'slug'}, not an old address of it: remove it`
  const what = isPath(alias)
    ? `the page of the published item ${other.source.path} (${pageOf(site, other)})`
    : `the slug of the published item ${other.source.path}`
  return `${alias} is ${what}: a redirect from it would shadow that item. Remove the alias, or give that item another slug`
}
