/**
 * Load → validate → render → derive for one file. Kept per file so the watch
 * mode can recompile only what changed and reassemble the rest from memory.
 */
import { referencePattern as relatedPattern } from '../../contract/model/common-fields.ts'
import type { CollectionModel, CollectionName, ContentModel } from '../../contract/model/model.ts'
import { ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import { RenderCache } from './cache.ts'
import { deriveRecord } from './derive.ts'
import { BODY_LIMITS, type FullRecord } from '../../contract/records.ts'
import type { SourceFile } from '../core/sources.ts'
import { lazyPosition, parseSource, type LoadedFile } from './load.ts'
import { componentsKey } from '../core/components.ts'
import { hasDirectives } from './markdown-directives.ts'
import { renderBody as renderMarkdown, type RenderedBody } from './markdown.ts'
import type { BodyImage } from './markdown-types.ts'
import { internalLinks, type InternalLink } from './internal-links.ts'
import { mediaReferences, type MediaRef } from './media-refs.ts'
import { personMentions, type PersonMention } from './person-mentions.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'
import { slugPosition, validateFile, type Frontmatter } from './validate.ts'
import { closest } from '../../contract/did-you-mean.ts'
import { publicationWindow, type PublicationWindow } from './schedule.ts'
import { placeholdersIn } from '../core/placeholders.ts'

/** One `related` entry, or a reference field's: the `collection/slug` it names and its position. */
export interface Reference {
  target: string
  index: number
  line: number
  column: number
  /** The reference field naming it (`related` when absent), where its resolved item goes. */
  field?: string
  /** The field is a list of references (`index` is the entry's), not one. */
  list?: boolean
}

/** Where the publication dates are written in a file. */
export type DatePositions = Partial<Record<'published_at' | 'expires_at', { line: number; column: number }>>

export interface CompiledFile {
  source: SourceFile
  collection: CollectionName
  /** The item's key, shared by its translations (`my-post` of `my-post.de.md`). */
  key: string
  /** The locale it is written in (canonical BCP 47): the site's default unless its name claims another. */
  locale: string
  slug: string
  /** Where the slug is written (its `slug` field, else the file's start), for duplicate-slug errors; undefined when the frontmatter did not parse. */
  slugAt: { line: number; column: number } | undefined
  draft: boolean
  /** When its item is public (schedule.ts); undefined when the frontmatter is not valid. */
  window: PublicationWindow | undefined
  /** A translation's: where its `published_at` and `expires_at` are written (errors about its item's times point there). */
  datesAt: DatePositions | undefined
  /** The items its `related` field names, with where each is written. */
  references: Reference[]
  /** The items its body links to on the marketing site, with where each link is written. */
  links: InternalLink[]
  /** The local images it uses, with where each is written (checked and processed by media-record.ts). */
  media: MediaRef[]
  /** The people it names, with where (empty when its frontmatter is not valid): one person, one slug across files. */
  people: PersonMention[]
  /** Its `aliases:` (old slugs and page paths), with where each is written (empty when its frontmatter is not valid). */
  aliases: AliasMention[]
  /** The published record; undefined when the file has errors. */
  record: FullRecord | undefined
  errors: ContentError[]
}

/** A file split into frontmatter and body, with its YAML syntax errors. */
export interface ParsedFile {
  loaded: LoadedFile
  errors: ContentError[]
  /** Its frontmatter checked already (checkParsed), or not yet. */
  checked?: CheckedFrontmatter
}

/** The locale a file's name claims and its frontmatter as the schema takes it, with what is wrong with either. */
interface CheckedFrontmatter {
  locale: string
  data: Frontmatter | undefined
  errors: ContentError[]
}

export function parseFile(source: SourceFile): ParsedFile {
  const errors: ContentError[] = []
  return { loaded: parseSource(source, errors), errors }
}

/**
 * `parsed` with its frontmatter checked now rather than in compileFile: the
 * build does it while other threads render bodies, so that less is left for
 * this thread alone once they are done. The errors come out in the same order.
 */
export function checkParsed(parsed: ParsedFile, site: SiteConfig): ParsedFile {
  parsed.checked = checkFrontmatter(parsed.loaded, site)
  return parsed
}

function checkFrontmatter(loaded: LoadedFile, site: SiteConfig): CheckedFrontmatter {
  const errors: ContentError[] = []
  const locale = localeOf(loaded.source, site, errors)
  return { locale, data: validateFile(loaded, errors, site.model), errors }
}

/** Compile one file; pass `parsed` when the file was already split (the build pre-renders bodies in between). */
export function compileFile(
  source: SourceFile,
  site: SiteConfig,
  cache: RenderCache,
  parsed: ParsedFile = parseFile(source),
): CompiledFile {
  const { loaded } = parsed
  const { locale, data, ...checked } = parsed.checked ?? checkFrontmatter(loaded, site)
  const errors: ContentError[] = [...parsed.errors, ...checked.errors]
  const slug =
    typeof (loaded.data as { slug?: unknown } | undefined)?.slug === 'string'
      ? String((loaded.data as { slug: string }).slug)
      : source.basename
  const { rendered, images } = renderBody(loaded, site, cache, errors)
  if (rendered) checkBodySize(loaded, rendered, errors)
  // From the frontmatter as written even when it has other errors: `check` reports every problem at once.
  const written = loaded.data as ({ related?: unknown; draft?: unknown } & Record<string, unknown>) | undefined
  const collection = site.collections[source.collection]!
  // A draft may keep what `npm run new` wrote; an item to publish may not.
  if (data && written?.draft !== true) checkPlaceholders(loaded, collection, data, errors)
  const record =
    data && rendered && errors.length === 0
      ? deriveRecord(source.collection, slug, data, loaded.body, rendered, site, locale)
      : undefined
  // The parsed YAML document is not kept: at 10,000 files it would be most of the compiler's memory.
  const slugAt = loaded.data === undefined ? undefined : slugPosition(loaded)
  const references = [
    ...referencesOf(loaded, written?.related, referencePattern(site.model)),
    ...referenceFields(loaded, collection, written),
  ]
  const links = rendered ? internalLinks(loaded.body, rendered.html, site, loaded.bodyLine) : []
  const media = mediaReferences(loaded, rendered, images, collection)
  const people = data ? personMentions(loaded, collection, data) : []
  const aliases = data ? aliasMentions(loaded, (data as { aliases?: unknown }).aliases) : []
  return {
    source,
    collection: source.collection,
    key: source.basename,
    locale,
    slug,
    slugAt,
    draft: written?.draft === true,
    window: data && publicationWindow(data),
    datesAt: data && locale !== site.language ? datePositions(loaded, data) : undefined,
    references,
    links,
    media,
    people,
    aliases,
    record,
    errors,
  }
}

const patterns = new WeakMap<ContentModel, RegExp>()

/** The form of a `related` entry of `model`: `collection/slug` of one of its collections. */
function referencePattern(model: ContentModel): RegExp {
  let pattern = patterns.get(model)
  if (!pattern) patterns.set(model, (pattern = new RegExp(relatedPattern(model.names))))
  return pattern
}

/** The locale a file's name claims, checked against the site's; the default locale when it claims none. */
function localeOf(source: SourceFile, site: SiteConfig, errors: ContentError[]): string {
  if (source.locale === undefined) return site.language
  const wanted = source.locale.toLowerCase()
  const known = site.locales.find((l) => l.toLowerCase() === wanted)
  if (known) return known
  const near = closest(
    wanted,
    site.locales.filter((l) => l !== site.language),
    2,
  )
  const name = source.path.slice(source.path.lastIndexOf('/') + 1)
  errors.push(
    new ContentError(
      'LOCALE',
      source.path,
      1,
      1,
      'locale',
      `"${source.locale}" in the file name ${name} is not a locale of the site (locales in site.yaml: ${site.locales.join(', ')})${near ? `; did you mean ${name.replace(`.${source.locale}.md`, `.${near}.md`)}?` : ''}`,
    ),
  )
  // Not the default locale's file either: it is set apart with its error (no duplicate slug of the item it translates).
  return source.locale
}

function datePositions(file: LoadedFile, data: { published_at?: unknown; expires_at?: unknown }): DatePositions {
  const at: DatePositions = {}
  for (const field of ['published_at', 'expires_at'] as const)
    if (data[field] !== undefined) at[field] = lazyPosition(file, [field])
  return at
}

/** An entry of `aliases:` and where it is written. */
export interface AliasMention {
  alias: string
  index: number
  line: number
  column: number
}

function aliasMentions(file: LoadedFile, aliases: unknown): AliasMention[] {
  if (!Array.isArray(aliases)) return []
  return aliases.map((alias: string, index) => Object.assign(lazyPosition(file, ['aliases', index]), { alias, index }))
}

/** The well-formed entries of `related` (a malformed one is the schema's error). */
function referencesOf(file: LoadedFile, related: unknown, pattern: RegExp): Reference[] {
  if (!Array.isArray(related)) return []
  return related.flatMap((target: unknown, index) =>
    typeof target === 'string' && pattern.test(target)
      ? [Object.assign(lazyPosition(file, ['related', index]), { target, index })]
      : [],
  )
}

const SLUG = new RegExp(SLUG_PATTERN)

/** The well-formed slugs of the collection's reference fields (one, or a list of them), as `collection/slug`. */
function referenceFields(
  file: LoadedFile,
  collection: CollectionModel,
  data: Record<string, unknown> | undefined,
): Reference[] {
  const out: Reference[] = []
  for (const [field, spec] of Object.entries(collection.fields)) {
    const list = spec.type === 'list' && spec.of?.type === 'reference'
    const target = list ? spec.of!.collection : spec.type === 'reference' ? spec.collection : undefined
    if (target === undefined) continue
    const value = data?.[field]
    const slugs = list ? (Array.isArray(value) ? value : []) : value === undefined ? [] : [value]
    slugs.forEach((slug: unknown, index) => {
      if (typeof slug !== 'string' || !SLUG.test(slug)) return
      const at = lazyPosition(file, list ? [field, index] : [field])
      out.push(Object.assign(at, { target: `${target}/${slug}`, index, field, ...(list && { list }) }))
    })
  }
  return out
}

/** The placeholders `npm run new` wrote, left in an item to publish: each an error where it is written. */
function checkPlaceholders(
  file: LoadedFile,
  collection: CollectionModel,
  data: Frontmatter,
  errors: ContentError[],
): void {
  for (const found of placeholdersIn(collection, data, file.body)) {
    if ('path' in found) {
      const { line, column } = lazyPosition(file, found.path)
      const detail = `is still the placeholder "${found.text}" that npm run new wrote: write the real one before publishing (a draft may keep it)`
      errors.push(new ContentError('PLACEHOLDER', file.source.path, line, column, found.field, detail))
    } else {
      const detail = `still has the text npm run new wrote ("${found.text}"): write the body before publishing (a draft may keep it)`
      errors.push(new ContentError('PLACEHOLDER', file.source.path, file.bodyLine + found.bodyLine, 1, 'body', detail))
    }
  }
}

/** A body over BODY_LIMITS is an author error: the API states those bounds, so nothing larger may be published. */
function checkBodySize(file: LoadedFile, rendered: RenderedBody, errors: ContentError[]): void {
  const sizes = [
    ['characters of Markdown', file.body.length, BODY_LIMITS.markdown],
    ['characters of HTML once rendered', rendered.html.length, BODY_LIMITS.html],
    ['characters of plain text', rendered.text.length, BODY_LIMITS.text],
    ['words', rendered.word_count, BODY_LIMITS.words],
  ] as const
  for (const [what, size, limit] of sizes) {
    if (size <= limit) continue
    errors.push(
      new ContentError(
        'BODY_TOO_LONG',
        file.source.path,
        file.bodyLine,
        1,
        'body',
        `has ${size} ${what}, more than the ${limit} a body may have: split it into several items`,
      ),
    )
    return
  }
}

/** The rendered body (undefined when an image lacks alt text), and its images either way. */
function renderBody(
  file: LoadedFile,
  site: SiteConfig,
  cache: RenderCache,
  errors: ContentError[],
): { rendered: RenderedBody | undefined; images: BodyImage[] } {
  const components = site.components ?? []
  // A body with components renders with the site's declarations: they are part of its key.
  const key = RenderCache.key(hasDirectives(file.body) ? `${componentsKey(components)}\0${file.body}` : file.body)
  const cached = cache.get(key)
  if (cached) return { rendered: cached, images: cached.images }
  const { rendered, missingAlt, images, errors: bodyErrors } = renderMarkdown(file.body, components)
  for (const error of bodyErrors)
    errors.push(
      new ContentError(
        error.code,
        file.source.path,
        file.bodyLine + error.line - 1,
        error.column,
        'body',
        error.detail,
      ),
    )
  for (const image of missingAlt) {
    errors.push(
      new ContentError(
        'IMAGE_ALT',
        file.source.path,
        file.bodyLine + image.line - 1,
        image.column,
        'body',
        `image ${image.url} needs alt text: ![describe the image](${image.url})`,
      ),
    )
  }
  if (!rendered) return { rendered, images: images ?? [] }
  // Not cached with errors: the next run reports them again.
  if (!bodyErrors.length) cache.set(key, rendered)
  return { rendered, images: rendered.images }
}
