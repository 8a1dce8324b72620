/**
 * An import from start to end: a first pass over the export places every
 * item (its collection and slug, its old and new address), the model gets
 * the collections it lacks, a second pass writes each item (bodies
 * converted, images copied), and the project's own check then vets what was
 * written: a file it refuses is put back as it was and reported.
 */
import { basename, extname, join } from 'node:path'
import { frontmatterValidators } from '../core/ajv.ts'
import { parseSiteConfig, SITE_PATH } from '../core/site.ts'
import { readFile } from 'node:fs/promises'
import { AddressBook } from './addresses.ts'
import { ImportError } from './import-error.ts'
import { htmlToMarkdown } from './html-to-markdown.ts'
import { isPublic, mapItem, sameAddress, slugOf } from './map-item.ts'
import { type MediaCopy, MediaResolver } from './media.ts'
import { ImportReport, INTERNAL } from './report.ts'
import { declareModel, type ModelChange } from './site-model.ts'
import type { ExportKind, SourceItem } from './source-item.ts'
import { openSource } from './sources.ts'
import { verifyWritten } from './verify.ts'
import { fileText, outcomeOf, type Undo, writeItem } from './write-items.ts'
import { personSlug } from '../../contract/people.ts'

export interface ImportOptions {
  root: string
  kind: ExportKind
  file: string
  dryRun: boolean
  force: boolean
  pages: string
  /** Post type → collection. */
  map: Record<string, string>
  media?: string
  site?: string
}

interface Placed {
  collection: string
  slug: string
}

export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const report = new ImportReport(options.dryRun)
  const source = await openSource(options.kind, options.file, options.site)
  const collectionFor = (type: string) =>
    options.map[type] ?? (type === 'post' ? 'blog-posts' : type === 'page' ? options.pages : undefined)

  // The first pass: where each item goes, and what the model must have for it.
  const siteText = await readFile(join(options.root, SITE_PATH), 'utf8').catch(() => {
    throw new ImportError(`${SITE_PATH} is missing: --root must name a project folder (one with content/site.yaml)`)
  })
  const before = parseSiteConfig(siteText).model
  const change: ModelChange = { collections: new Map(), canonical: new Set() }
  const placed = new Map<string, Placed>()
  const taken = new Set<string>()
  const addresses = new AddressBook(source.site)
  const pending: { item: Pick<SourceItem, 'id' | 'link' | 'status' | 'restricted'>; place: Placed }[] = []
  for await (const item of source.items()) {
    const collection = collectionFor(item.type)
    if (!collection) {
      report.skip(
        item.type,
        item.title || item.id,
        source.internal.has(item.type)
          ? INTERNAL
          : `no collection for the type ${item.type} (--map ${item.type}=<collection>)`,
      )
      continue
    }
    if (!before.collections[collection]) change.collections.set(collection, item.type.replace(/[_-]+/g, ' '))
    if (item.canonical && !sameAddress(item.canonical, item.link)) change.canonical.add(collection)
    let slug = slugOf(item)
    if (taken.has(`${collection}/${slug}`)) slug = `${slug}-${item.id}`.slice(0, 120)
    taken.add(`${collection}/${slug}`)
    const place = { collection, slug }
    placed.set(`${item.type}:${item.id}`, place)
    pending.push({ item: { id: item.id, link: item.link, status: item.status, restricted: item.restricted }, place })
  }
  if (!placed.size && !report.types.size)
    throw new ImportError(
      `${options.file} holds no posts or pages: is it ${options.kind === 'wordpress' ? 'a WordPress export (WXR, Tools → Export)' : 'a Ghost export (JSON, Settings → Labs → Export)'}?`,
    )
  // A canonical URL only needs the field where some item's differs from its own address: decided as items are mapped.
  const declared = await declareModel(options.root, change, options.dryRun)
  for (const line of declared.lines) report.model(line)
  const resolvedModel = parseSiteConfig(declared.text).model
  for (const { item, place } of pending)
    addresses.add(item.id, item.link, {
      path: `${resolvedModel.collections[place.collection]!.path}/${place.slug}`,
      public: isPublic(item as SourceItem),
    })

  // The second pass: each item mapped, converted and written.
  const validators = frontmatterValidators(resolvedModel)
  const media = new MediaResolver(options.media, source.site)
  const written: { path: string; type: string; title: string; undo: Undo[] }[] = []
  for await (const item of source.items()) {
    const place = placed.get(`${item.type}:${item.id}`)
    if (!place) continue
    const collection = resolvedModel.collections[place.collection]!
    const notes: string[] = []
    const copies: MediaCopy[] = []
    const dir = `content/${place.collection}`
    const image = (src: string) => media.resolve(src, dir, place.slug, notes, copies)
    const fallbackAlt = (src: string) => {
      notes.push(`an image without alt text (${basename(src)}) got one from its file name: describe it`)
      return altFromFile(src)
    }
    const mapped = mapItem(item, {
      collection,
      slug: place.slug,
      author: (key) => source.author(key),
      avatar: (author) => {
        if (!author.avatar) return undefined
        const count = copies.length
        const ref = media.resolve(author.avatar, 'content', 'people', notes, copies)
        if (!ref?.startsWith('people/')) return ref
        // Portraits several items share are named after the person, not their upload.
        const name = `${personSlug(author.name)}${extname(ref)}`
        if (copies.length > count) copies[count]!.to = `content/people/${name}`
        return `../people/${name}`
      },
      image,
      oldPath: addresses.pathOf(item.link)?.split('?')[0],
      fallbackAlt,
    })
    const label = item.title || `${item.type} ${item.id}`
    if ('skip' in mapped) {
      report.skip(item.type, label, mapped.skip)
      continue
    }
    const body = htmlToMarkdown(source.html(item, notes), {
      image: (src) => image(src) ?? '',
      link: (href) => {
        const to = addresses.rewrite(href)
        if (to === undefined) notes.push(`a link to ${href} (not public once imported) was kept as text`)
        return to
      },
      fallbackAlt,
    })
    const validate = validators[place.collection]!
    if (!validate(mapped.frontmatter)) {
      const error = validate.errors?.[0]
      report.skip(
        item.type,
        label,
        `its frontmatter would be invalid: ${error?.instancePath || '/'} ${error?.message ?? ''}`.trim(),
      )
      continue
    }
    const path = `${dir}/${place.slug}.md`
    const sourceId = `${options.kind} ${item.type} ${item.id}`
    const text = fileText(sourceId, mapped.frontmatter, body)
    const outcome = await outcomeOf(options.root, path, sourceId, text, options.force)
    if (outcome === 'taken') {
      report.skip(item.type, label, `${path} exists and was not imported from this item`)
      continue
    }
    if (outcome === 'edited') {
      report.skip(item.type, label, `${path} was edited since it was imported: left as it is (--force overwrites it)`)
      continue
    }
    report.item(item.type, outcome, path, [...new Set([...mapped.notes, ...notes])])
    if (options.dryRun || outcome === 'unchanged') continue
    written.push({ path, type: item.type, title: label, undo: await writeItem(options.root, path, text, copies) })
  }
  if (!options.dryRun && written.length) await verifyWritten(options.root, written, report)
  return report
}

/** `team-photo_2-300x200.jpg` → `Team photo 2`: a placeholder to be described. */
function altFromFile(src: string): string {
  const name = decodeURIComponent(basename(src.split(/[?#]/)[0] ?? src))
    .replace(/\.\w+$/, '')
    .replace(/-\d+x\d+$/, '')
  const words = name.replace(/[-_.]+/g, ' ').trim()
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Image'
}
