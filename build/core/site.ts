/**
 * Site settings from content/site.yaml: the marketing site's base URL and
 * collection paths. Problems are author errors like any content's, with the
 * file, line, column and field.
 */
import type { ComponentDeclaration } from './components.ts'
import { readComponents } from './site-components.ts'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isMap, LineCounter, parseDocument, type Document } from 'yaml'
import { COLLECTION_NAMES, isCollectionName, type CollectionName } from '../../contract/collections.ts'
import { ContentError, ContentErrors, sortErrors } from './errors.ts'
import { locate } from './locate.ts'
import { SITE_PATH } from './sources.ts'

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
  collections: Record<CollectionName, { path: string; title: string }>
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
  /** The team's own components (`components`), beside the built-in ones (site-components.ts). */
  components?: ComponentDeclaration[]
}

export interface SiteTheme {
  background: string
  foreground: string
  accent: string
}

export const DEFAULT_THEME: SiteTheme = { background: '#0b2942', foreground: '#ffffff', accent: '#3ec1d3' }
const THEME_FIELDS = Object.keys(DEFAULT_THEME) as (keyof SiteTheme)[]

const FIELDS = [
  'name',
  'description',
  'url',
  'api_url',
  'websub_hub',
  'language',
  'locales',
  'locale_fallback',
  'collections',
  'repository',
  'repository_branch',
  'theme',
  'social_cards',
  'components',
]
/**
 * Longest value of each text setting: they reach records (canonical URLs), feeds and the
 * API catalog, whose string lengths the OpenAPI document bounds (a record's URL is the
 * site URL, a collection path and a slug: at most 1000 + 200 + 1 + 120 characters).
 */
export const SITE_LIMITS = {
  name: 200,
  description: 1000,
  url: 1000,
  api_url: 1000,
  websub_hub: 1000,
  language: 35,
  repository: 200,
  repository_branch: 200,
  path: 200,
  title: 200,
} as const
const COLLECTION_FIELDS = ['path', 'title']

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

export function parseSiteConfig(text: string): SiteConfig {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  const errors: ContentError[] = []
  const at = (
    path: (string | number)[],
    field: string,
    message: string,
    code: 'SCHEMA' | 'YAML_SYNTAX' = 'SCHEMA',
    offset = locate(doc, path).offset,
  ) => {
    const { line, col } = lineCounter.linePos(offset)
    errors.push(new ContentError(code, SITE_PATH, line, col, field, message))
  }
  for (const error of doc.errors) at([], 'site', error.message.split('\n')[0]!, 'YAML_SYNTAX', error.pos[0])
  if (errors.length) throw new ContentErrors(errors)
  const data = (doc.toJS() ?? {}) as Record<string, unknown>
  if (!isMap(doc.contents) && doc.contents !== null)
    throw new ContentErrors([
      siteError(doc, lineCounter, 'site', 'must be a mapping of settings (name, url, collections, …)'),
    ])

  const unknown = (path: string[], field: string, message: string) =>
    at(path, field, message, 'SCHEMA', locate(doc, path, true).offset)
  for (const key of Object.keys(data))
    if (!FIELDS.includes(key)) unknown([key], key, `is not a site setting (settings: ${FIELDS.join(', ')})`)
  const url = typeof data.url === 'string' ? data.url.replace(/\/+$/, '') : ''
  if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(url) || url.length > SITE_LIMITS.url) {
    at(
      ['url'],
      'url',
      `must be the marketing site's absolute http(s) URL, like https://www.example.com, at most ${SITE_LIMITS.url} characters`,
    )
  }
  const apiUrl = typeof data.api_url === 'string' ? data.api_url.replace(/\/+$/, '') : undefined
  if (
    data.api_url !== undefined &&
    !(apiUrl && /^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(apiUrl) && apiUrl.length <= SITE_LIMITS.api_url)
  ) {
    at(
      ['api_url'],
      'api_url',
      `must be the absolute http(s) URL this API is served at, like https://api.example.com, at most ${SITE_LIMITS.api_url} characters`,
    )
  }
  const websubHub = data.websub_hub
  if (
    websubHub !== undefined &&
    !(
      typeof websubHub === 'string' &&
      /^https?:\/\/[^/\s?#]+(\/\S*)?$/.test(websubHub) &&
      websubHub.length <= SITE_LIMITS.websub_hub
    )
  ) {
    at(
      ['websub_hub'],
      'websub_hub',
      `must be the URL of a WebSub hub, like https://pubsubhubbub.appspot.com/ (http only on this machine, for development), at most ${SITE_LIMITS.websub_hub} characters`,
    )
  }
  const repository = data.repository
  if (
    repository !== undefined &&
    !(
      typeof repository === 'string' &&
      /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(repository) &&
      repository.length <= SITE_LIMITS.repository
    )
  )
    at(['repository'], 'repository', 'must name a GitHub repository as owner/name, like acme/marketing-content')
  const branch = data.repository_branch
  if (
    branch !== undefined &&
    !(
      typeof branch === 'string' &&
      /^[A-Za-z0-9._/-]+$/.test(branch) &&
      !branch.includes('..') &&
      branch.length <= SITE_LIMITS.repository_branch
    )
  )
    at(['repository_branch'], 'repository_branch', 'must be a git branch name, like main')
  for (const key of ['name', 'description', 'language'] as const) {
    const value = data[key]
    if (value !== undefined && (typeof value !== 'string' || value.length > SITE_LIMITS[key]))
      at([key], key, `must be a string of at most ${SITE_LIMITS[key]} characters`)
  }
  const theme = { ...DEFAULT_THEME }
  if (data.theme !== undefined && (typeof data.theme !== 'object' || data.theme === null || Array.isArray(data.theme)))
    at(['theme'], 'theme', `must map ${THEME_FIELDS.join(', ')} to colours like '#0b2942'`)
  for (const [key, value] of Object.entries((data.theme ?? {}) as Record<string, unknown>)) {
    if (!(THEME_FIELDS as string[]).includes(key))
      unknown(['theme', key], `theme.${key}`, `is not a theme colour (colours: ${THEME_FIELDS.join(', ')})`)
    else if (typeof value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value))
      at(['theme', key], `theme.${key}`, "must be a colour written like '#0b2942' (quoted: YAML reads # as a comment)")
    else theme[key as keyof SiteTheme] = value.toLowerCase()
  }
  const { locales, fallback } = parseLocales(data, at)
  if (data.social_cards !== undefined && typeof data.social_cards !== 'boolean')
    at(['social_cards'], 'social_cards', 'must be true or false')
  const given = (data.collections ?? {}) as Record<string, unknown>
  if (typeof given !== 'object' || Array.isArray(given))
    at(['collections'], 'collections', `must map collection names (${COLLECTION_NAMES.join(', ')}) to { path, title }`)
  const collections = {} as SiteConfig['collections']
  for (const [name, value] of Object.entries(typeof given === 'object' && given !== null ? given : {})) {
    if (!isCollectionName(name))
      unknown(
        ['collections', name],
        `collections.${name}`,
        `is not a collection (collections: ${COLLECTION_NAMES.join(', ')})`,
      )
    const entry = (value ?? {}) as Record<string, unknown>
    for (const key of Object.keys(entry))
      if (!COLLECTION_FIELDS.includes(key))
        unknown(
          ['collections', name, key],
          `collections.${name}.${key}`,
          'is not a collection setting (settings: path, title)',
        )
    if (
      entry.path !== undefined &&
      (typeof entry.path !== 'string' ||
        !/^\/[A-Za-z0-9._~\-/]*$/.test(entry.path) ||
        entry.path.length > SITE_LIMITS.path)
    ) {
      at(
        ['collections', name, 'path'],
        `collections.${name}.path`,
        `must be a path on the site starting with /, like /blog, at most ${SITE_LIMITS.path} characters`,
      )
    }
    if (entry.title !== undefined && (typeof entry.title !== 'string' || entry.title.length > SITE_LIMITS.title)) {
      at(
        ['collections', name, 'title'],
        `collections.${name}.title`,
        `must be a string of at most ${SITE_LIMITS.title} characters`,
      )
    }
  }
  const components = readComponents(data.components, (path, message) =>
    at(['components', ...path], ['components', ...path].join('.'), message),
  )
  if (errors.length) throw new ContentErrors(sortErrors(errors))
  for (const name of COLLECTION_NAMES) {
    const entry = (given[name] ?? {}) as { path?: string; title?: string }
    collections[name] = { path: (entry.path ?? `/${name}`).replace(/\/+$/, ''), title: entry.title ?? name }
  }
  return {
    name: typeof data.name === 'string' ? data.name : 'Content API',
    description: typeof data.description === 'string' ? data.description : '',
    url,
    language: locales[0]!,
    locales,
    fallback,
    collections,
    ...(apiUrl !== undefined && { apiUrl }),
    ...(typeof websubHub === 'string' && { websubHub }),
    ...(typeof repository === 'string' && { repository }),
    ...(typeof branch === 'string' && { repositoryBranch: branch }),
    theme,
    socialCards: data.social_cards !== false,
    ...(components.length > 0 && { components }),
  }
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

function siteError(doc: Document, lineCounter: LineCounter, field: string, message: string): ContentError {
  const { line, col } = lineCounter.linePos(locate(doc, []).offset)
  return new ContentError('SCHEMA', SITE_PATH, line, col, field, message)
}
