/**
 * Site settings from content/site.yaml: the marketing site's base URL, its
 * locales and its content model (the collections and their fields). Problems
 * are author errors like any content's, with the file, line, column and
 * field.
 */
import type { ComponentDeclaration } from './components.ts'
import { readComponents } from './site-components.ts'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isMap, LineCounter, parseDocument } from 'yaml'
import type { ContentModel } from '../../contract/model/model.ts'
import { contentModel } from './content-model.ts'
import { ContentError, ContentErrors, sortErrors } from './errors.ts'
import { schemaError, siteError, type SiteFile } from './site-errors.ts'
import { siteValidator } from './site-validator.ts'
import { SITE_PATH } from './sources.ts'
import { tagLabels } from './site-tags.ts'
import { yamlMessage } from './yaml-messages.ts'
import type { TagLabel } from '../../contract/tags.ts'

export { SITE_PATH }

export interface SiteConfig {
  name: string
  description: string
  url: string
  /** The default locale (`language`, a BCP 47 tag): untranslated files are written in it. */
  language: string
  /** Every locale the site publishes (`locales`), the default first; `[language]` when it names none. */
  locales: string[]
  /** The locales whose lists and items fall back to the default locale where a translation is missing (`locale_fallback`). */
  fallback: string[]
  /** The content model: the collections and their fields (`collections`). */
  model: ContentModel
  /** The model's collections by name (`model.collections`). */
  collections: ContentModel['collections']
  /** Public URL of this API (`api_url`), for the feeds' absolute self links and the images' URLs; relative without it. */
  apiUrl?: string
  /** The WebSub hub the feeds name and the gateway pings when they change (`websub_hub`). */
  websubHub?: string
  /** `owner/name` of the GitHub repository the editor at /admin/ commits to (`repository`). */
  repository?: string
  /** The branch the editor's drafts are merged into (`repository_branch`, default main). */
  repositoryBranch?: string
  /** Colours of the generated social cards. */
  theme: SiteTheme
  /** Whether items without an image get a generated social card (`social_cards`, default true). */
  socialCards: boolean
  /** The labels (and descriptions) of tags the site declares (`tags`: build/core/site-tags.ts). */
  tags?: Record<string, TagLabel>
  /** The team's own components (`components`), beside the built-in ones (site-components.ts). */
  components?: ComponentDeclaration[]
}

export interface SiteTheme {
  background: string
  foreground: string
  accent: string
}

export const DEFAULT_THEME: SiteTheme = { background: '#0b2942', foreground: '#ffffff', accent: '#3ec1d3' }

/** Read and check content/site.yaml; throws ContentErrors naming each problem's position. */
export async function loadSiteConfig(root: string): Promise<SiteConfig> {
  let text: string
  try {
    text = await readFile(join(root, SITE_PATH), 'utf8')
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'is missing: every project needs one (see docs/authoring.md)'
        : `cannot be read (${(error as Error).message})`
    throw new ContentErrors([new ContentError('READ_FAILED', SITE_PATH, 1, 1, 'site', reason)])
  }
  return parseSiteConfig(text)
}

/**
 * The settings of site.yaml's text: its YAML, then its schema (site-schema.ts),
 * then what a schema cannot check (the locales together, the content model's
 * names and references: content-model.ts), every error at once.
 */
export function parseSiteConfig(text: string): SiteConfig {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  const file: SiteFile = { doc, lineCounter }
  const syntax = doc.errors.map((error) => {
    const { line, col } = lineCounter.linePos(error.pos[0])
    const { field, detail } = yamlMessage(error, text, error.pos[0])
    return new ContentError('YAML_SYNTAX', SITE_PATH, line, col, field === 'frontmatter' ? 'site' : field, detail)
  })
  if (syntax.length) throw new ContentErrors(syntax)
  if (!isMap(doc.contents) && doc.contents !== null)
    throw new ContentErrors([siteError(file, [], 'must be a mapping of settings (name, url, collections, …)')])
  const data = (doc.toJS() ?? {}) as Record<string, unknown>
  const validate = siteValidator()
  const errors: ContentError[] = []
  if (!validate(data))
    for (const error of validate.errors ?? []) {
      const found = schemaError(file, data, error)
      if (found) errors.push(found)
    }
  const at: At = (path, field, message) => errors.push(siteError(file, path, message, { field }))
  const { locales, fallback } = parseLocales(data, at)
  const collections = data.collections && typeof data.collections === 'object' ? data.collections : {}
  const model = contentModel(collections as Record<string, Record<string, unknown>>, file, errors)
  const components = readComponents(data.components, (path, message) =>
    at(['components', ...path], ['components', ...path].join('.'), message),
  )
  if (errors.length) throw new ContentErrors(sortErrors(dedupe(errors)))
  const theme = { ...DEFAULT_THEME }
  for (const [key, value] of Object.entries((data.theme ?? {}) as Record<string, string>))
    theme[key as keyof SiteTheme] = value.toLowerCase()
  const url = String(data.url).replace(/\/+$/, '')
  const apiUrl = typeof data.api_url === 'string' ? data.api_url.replace(/\/+$/, '') : undefined
  return {
    name: typeof data.name === 'string' ? data.name : 'Content API',
    description: typeof data.description === 'string' ? data.description : '',
    url,
    language: locales[0]!,
    locales,
    fallback,
    model,
    collections: model.collections,
    ...(apiUrl !== undefined && { apiUrl }),
    ...(typeof data.websub_hub === 'string' && { websubHub: data.websub_hub }),
    ...(typeof data.repository === 'string' && { repository: data.repository }),
    ...(typeof data.repository_branch === 'string' && { repositoryBranch: data.repository_branch }),
    theme,
    socialCards: data.social_cards !== false,
    tags: tagLabels(data.tags),
    ...(components.length > 0 && { components }),
  }
}

/** One error per place and message: a mistake both the schema and a later check see is said once. */
function dedupe(errors: readonly ContentError[]): ContentError[] {
  const seen = new Set<string>()
  return errors.filter((e) => !seen.has(e.message) && seen.add(e.message))
}

type At = (path: (string | number)[], field: string, message: string) => void

/** A BCP 47 tag in its canonical case (`de-ch` → `de-CH`), or undefined when it is none. */
export function canonicalLocale(tag: string): string | undefined {
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) return undefined
  try {
    return Intl.getCanonicalLocales(tag)[0]
  } catch {
    return undefined
  }
}

/** `language`, `locales` and `locale_fallback`: the default locale first, every locale once, fallbacks among them. */
function parseLocales(data: Record<string, unknown>, at: At): { locales: string[]; fallback: string[] } {
  // A single-language site keeps `language` as written (it reaches the feeds).
  if (data.locales === undefined && data.locale_fallback === undefined)
    return { locales: [typeof data.language === 'string' ? data.language : 'en'], fallback: [] }
  const language = typeof data.language === 'string' ? (canonicalLocale(data.language) ?? data.language) : 'en'
  if (typeof data.language === 'string' && canonicalLocale(data.language) === undefined)
    at(['language'], 'language', 'must be a BCP 47 language tag, like en or en-GB, when the site has `locales`')
  const locales: string[] = []
  if (!Array.isArray(data.locales) || data.locales.length === 0)
    at(['locales'], 'locales', `must list the site's locales as BCP 47 tags, like [${language}, de, fr]`)
  for (const [i, tag] of (Array.isArray(data.locales) ? data.locales : []).entries()) {
    const canonical = typeof tag === 'string' ? canonicalLocale(tag) : undefined
    if (canonical === undefined) at(['locales', i], `locales[${i}]`, 'must be a BCP 47 language tag, like de or pt-BR')
    else if (locales.includes(canonical)) at(['locales', i], `locales[${i}]`, `lists ${canonical} twice`)
    else locales.push(canonical)
  }
  if (Array.isArray(data.locales) && locales.length && !locales.includes(language))
    at(['locales'], 'locales', `must include the default locale, language: ${language}`)
  const given = data.locale_fallback
  let fallback: string[] = []
  if (given === true) fallback = locales.filter((l) => l !== language)
  else if (Array.isArray(given)) {
    for (const [i, tag] of given.entries()) {
      const canonical = typeof tag === 'string' ? canonicalLocale(tag) : undefined
      if (canonical === undefined || !locales.includes(canonical) || canonical === language)
        at(
          ['locale_fallback', i],
          `locale_fallback[${i}]`,
          `must be one of the other locales (${locales.filter((l) => l !== language).join(', ')})`,
        )
      else fallback.push(canonical)
    }
  } else if (given !== undefined && given !== false)
    at(['locale_fallback'], 'locale_fallback', 'must be true (every locale), false, or a list of locales, like [de]')
  return { locales: [language, ...locales.filter((l) => l !== language)], fallback }
}

/** Whether the site publishes more than one locale (records then say their locale and translations). */
export function isMultilingual(site: Pick<SiteConfig, 'locales'>): boolean {
  return site.locales.length > 1
}
