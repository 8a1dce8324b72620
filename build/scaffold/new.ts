#!/usr/bin/env node
/**
 * `npm run new -- <collection> "Title" [--related collection/slug,…]
 * [--publish-at 2027-03-04T09:00:00+01:00] [--expires-at …]`: create
 * content/<collection>/<slug>.md with the frontmatter the collection's model
 * (content/site.yaml) requires, as a draft, pointing to the related items given, scheduled for
 * the time given; or, with `--translate <collection>/<slug> --locale de`, a
 * draft translation of an item beside it (scaffold/translation.ts). Never
 * overwrites a file. Exit codes: 0 created, 1 refused, 2 usage (contract/cli.ts).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { referencePattern } from '../../contract/model/common-fields.ts'
import type { ContentModel } from '../../contract/model/model.ts'
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../../contract/patterns.ts'
import { loadSiteConfig } from '../core/site.ts'
import { datesFrom, renderTemplate } from './templates.ts'
import { scaffoldTranslation, TRANSLATE_USAGE } from './translation.ts'
import { slugify } from '../core/slug.ts'
import { closest } from '../../contract/did-you-mean.ts'
import { runCli, type CliResult } from '../../contract/cli.ts'
import { defineCommand, didYouMean, parseCommand, printHelp, usageOf } from '../../contract/cli-args.ts'
import { AppError, UsageError } from '../../contract/errors.ts'

/** `npm run new`'s arguments: one table for both of its forms, and its help. */
const NEW = defineCommand({
  name: 'npm run new',
  summary: `Create content/<collection>/<slug>.md as a draft with the frontmatter its collection requires (never overwriting a file); the collections are those content/site.yaml declares.`,
  operands: '<collection> "Title"',
  positionals: 2,
  options: {
    slug: { type: 'string', value: 'SLUG', help: 'the slug (and file name) instead of one made from the title' },
    related: {
      type: 'string',
      multiple: true,
      value: 'COLLECTION/SLUG,…',
      help: 'items to point to; each must exist',
    },
    'publish-at': {
      type: 'string',
      value: 'DATE',
      help: 'publication time: 2027-03-04 (midnight UTC) or 2027-03-04T09:00:00+01:00',
    },
    'expires-at': { type: 'string', value: 'DATE-TIME', help: 'when it is withdrawn: 2027-06-30T23:59:59+01:00' },
    translate: {
      type: 'string',
      value: 'COLLECTION/SLUG',
      help: 'make a draft translation of this item instead (with --locale; no collection or title)',
    },
    locale: { type: 'string', value: 'LOCALE', help: 'the locale of the translation, like de' },
    root: { type: 'string', value: 'DIR', help: 'the project folder to write into (default: this one)' },
  },
  more: `Examples:
  npm run new -- blog-posts "Our first post"
  npm run new -- --translate blog-posts/our-first-post --locale de
Exit codes: 0 created, 1 refused (the file exists, a related item does not), 2 usage.`,
})

/** The usage line a mistake is answered with; `--help` has the rest. */
const USAGE = `${usageOf(NEW)}   (\`npm run new -- --help\` lists the options)`

/** What published_at takes: a date (its midnight UTC) or an RFC 3339 date-time with offset. */
const PUBLISH_AT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))?$/
/** What expires_at takes: an RFC 3339 date-time with offset (an instant). */
const EXPIRES_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/

/** The instant of a valid date or date-time (a date is its midnight UTC), or NaN. */
const instantOf = (value: string) => Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)

/** --publish-at and --expires-at as the file will say them; a UsageError for a value the schema would refuse. */
function scheduleFrom(
  publishAt: string | undefined,
  expiresAt: string | undefined,
): { publishAt?: string; expiresAt?: string } {
  if (publishAt !== undefined && (!PUBLISH_AT.test(publishAt) || Number.isNaN(instantOf(publishAt))))
    throw new UsageError(
      `--publish-at "${publishAt}" must be a date like 2027-03-04 (its midnight UTC) or a date-time with offset like 2027-03-04T09:00:00+01:00`,
      USAGE,
    )
  if (expiresAt !== undefined && (!EXPIRES_AT.test(expiresAt) || Number.isNaN(instantOf(expiresAt))))
    throw new UsageError(
      `--expires-at "${expiresAt}" must be a date-time with offset like 2027-06-30T23:59:59+01:00`,
      USAGE,
    )
  if (expiresAt !== undefined && instantOf(expiresAt) <= instantOf(publishAt ?? new Date().toISOString().slice(0, 10)))
    throw new UsageError(`--expires-at ${expiresAt} must be after the publication (${publishAt ?? 'today'})`, USAGE)
  return { publishAt, expiresAt }
}

/** The file to create exists already: nothing is written. */
export class FileExistsError extends AppError {
  readonly code = 'FILE_EXISTS'
}

/** A `--related` item that does not exist: the file would fail `npm run check`, so nothing is written. */
export class UnknownItemError extends AppError {
  readonly code = 'REFERENCE_UNKNOWN'
}

const MAX_TITLE_LENGTH = 200
const isSlug = (slug: string) => slug.length <= MAX_SLUG_LENGTH && new RegExp(SLUG_PATTERN).test(slug)

/** Each `--related` item must exist (a draft too: the new file is a draft, and a draft may point to one). */
function checkRelatedExist(known: readonly string[], related: readonly string[]): void {
  for (const target of related) {
    if (known.includes(target)) continue
    const collection = `${target.split('/')[0]}/`
    const near = closest(
      target,
      known.filter((k) => k.startsWith(collection)),
      3,
    )
    throw new UnknownItemError(
      `--related "${target}" is not an item${near ? ` (did you mean ${near}?)` : ''}; nothing was written`,
    )
  }
}

/** The way out of a slug clash: another slug with --slug, one no item has. */
function freeSlug(collection: string, slug: string, known: readonly string[]): string {
  let n = 2
  while (known.includes(`${collection}/${slug}-${n}`)) n++
  return ` (give the new item another slug with --slug, like --slug ${slug}-${n})`
}

/** Every item of the project as collection/slug: a file's \`slug\` field, else its name. */
async function itemsIn(root: string, model: ContentModel): Promise<string[]> {
  const items: string[] = []
  for (const collection of model.names) {
    const names = await readdir(join(root, 'content', collection)).catch(() => [] as string[])
    for (const name of names.filter((n) => n.endsWith('.md'))) {
      const text = await readFile(join(root, 'content', collection, name), 'utf8')
      const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? ''
      const slug = /^slug:[ \t]*["']?([a-z0-9-]+)["']?[ \t]*$/m.exec(frontmatter)?.[1]
      items.push(`${collection}/${slug ?? name.slice(0, -'.md'.length)}`)
    }
  }
  return items
}

export async function scaffold(
  root: string,
  collection: string,
  title: string,
  options: { slug?: string; related?: string[]; now?: Date; publishAt?: string; expiresAt?: string } = {},
): Promise<string> {
  // The collections of the project's model (a site.yaml with errors stops here, with them).
  const { model } = await loadSiteConfig(root)
  const def = model.collections[collection]
  if (!def || !Object.hasOwn(model.collections, collection))
    throw new UsageError(
      `unknown collection "${collection}"${didYouMean(collection, model.names)}; use one of ${model.names.join(', ')}`,
      USAGE,
    )
  if (!title.trim()) throw new UsageError('the title must not be empty', USAGE)
  if (title.trim().length > MAX_TITLE_LENGTH)
    throw new UsageError(
      `the title has ${title.trim().length} characters; a title has at most ${MAX_TITLE_LENGTH}`,
      USAGE,
    )
  const slug = options.slug ?? slugify(title)
  if (options.slug !== undefined && !isSlug(options.slug)) {
    // The slug given is wrong, not the title.
    const fixed = slugify(options.slug)
    throw new UsageError(
      `--slug "${options.slug}" must be lowercase letters, digits and single hyphens (at most ${MAX_SLUG_LENGTH})${fixed ? `, like --slug ${fixed}` : ''}`,
      USAGE,
    )
  }
  if (!isSlug(slug)) {
    throw new UsageError(`cannot make a slug from "${title}"; pass one with --slug, like --slug my-first-post`, USAGE)
  }
  const related = options.related ?? []
  const malformed = related.find((r) => !new RegExp(referencePattern(model.names)).test(r))
  if (malformed !== undefined)
    throw new UsageError(
      `--related "${malformed}" must name an item as collection/slug, like blog-posts/my-first-post`,
      USAGE,
    )
  const schedule = scheduleFrom(options.publishAt, options.expiresAt)
  const items = await itemsIn(root, model)
  if (related.length) checkRelatedExist(items, related)
  const slugs = (of: string) => items.flatMap((i) => (i.startsWith(`${of}/`) ? [i.slice(of.length + 1)] : []))
  const dir = join(root, 'content', collection)
  const path = `content/${collection}/${slug}.md`
  await mkdir(dir, { recursive: true })
  try {
    await writeFile(
      join(root, path),
      renderTemplate(def, title.trim(), datesFrom(options.now ?? new Date()), related, schedule, slugs),
      { flag: 'wx' },
    )
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new FileExistsError(`${path} already exists; nothing was written${freeSlug(collection, slug, items)}`)
    throw error
  }
  return path
}

async function main(argv: string[]): Promise<CliResult> {
  const args = parseCommand(NEW, argv)
  if (args.help) return printHelp(NEW)
  const { slug, translate, locale } = args.values
  const root = resolve(args.values.root ?? '.')
  if (translate !== undefined) {
    const others = ['related', 'publish-at', 'expires-at'] as const
    if (!locale || args.positionals.length || others.some((o) => args.values[o] !== undefined))
      throw new UsageError('--translate needs --locale and nothing else', TRANSLATE_USAGE)
    const path = await scaffoldTranslation(root, translate, locale, { slug })
    console.log(path)
    console.error(`✓ created ${path} as a draft translation; translate it, then remove \`draft: true\` to publish it`)
    return 0
  }
  if (locale !== undefined) throw new UsageError('--locale goes with --translate', USAGE)
  const publishAt = args.values['publish-at']
  const expiresAt = args.values['expires-at']
  const related = (args.values.related ?? []).flatMap((value) =>
    value
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean),
  )
  const [collection, title] = args.positionals
  if (!collection || title === undefined) throw new UsageError('a collection and a title are needed', USAGE)
  const path = await scaffold(root, collection, title, { slug, related, publishAt, expiresAt })
  console.log(path)
  const future = publishAt !== undefined && instantOf(publishAt) > Date.now()
  console.error(
    future
      ? `✓ created ${path} as a draft scheduled for ${publishAt}; remove \`draft: true\` when it is ready, and it is published at that time`
      : `✓ created ${path} as a draft; remove \`draft: true\` to publish it`,
  )
  return 0
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  await runCli(() => main(process.argv.slice(2)))
