/**
 * The collections an import needs, declared in content/site.yaml when the
 * model lacks them (the `pages` collection, or one `--map` names), and the
 * `canonical_url` field where an SEO plugin set a canonical URL: edited with
 * the yaml package's Document API, so the file's comments and layout stay.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isMap, parseDocument, YAMLMap } from 'yaml'
import { SITE_PATH } from '../core/site.ts'
import { ImportError } from './import-error.ts'

export interface ModelChange {
  /** A collection to declare, by name, with its label. */
  collections: Map<string, string>
  /** Collections that get an optional `canonical_url` field. */
  canonical: Set<string>
}

const titleOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, ' ')

/** site.yaml's text with the change made; the lines saying what changed. */
export function changedSiteYaml(text: string, change: ModelChange): { text: string; lines: string[] } {
  const doc = parseDocument(text)
  if (doc.errors.length) throw new ImportError(`${SITE_PATH}: ${doc.errors[0]!.message.split('\n')[0]}`)
  let collections = doc.get('collections')
  if (!isMap(collections)) {
    collections = new YAMLMap()
    doc.set('collections', collections)
  }
  const map = collections as YAMLMap
  const lines: string[] = []
  for (const [name, label] of change.collections) {
    if (map.has(name)) continue
    const node = doc.createNode({ path: `/${name}`, title: titleOf(name), label })
    map.set(name, node)
    lines.push(`declared the collection ${name} (path /${name}) in ${SITE_PATH}`)
  }
  for (const name of change.canonical) {
    const collection = map.get(name)
    if (!isMap(collection)) continue
    let fields = collection.get('fields')
    if (!isMap(fields)) {
      fields = new YAMLMap()
      collection.set('fields', fields)
    }
    if ((fields as YAMLMap).has('canonical_url')) continue
    ;(fields as YAMLMap).set(
      'canonical_url',
      doc.createNode({
        type: 'url',
        description: 'Where search engines should look for this item (an SEO plugin’s canonical URL).',
      }),
    )
    lines.push(`added the field canonical_url to ${name} in ${SITE_PATH}`)
  }
  return { text: lines.length ? doc.toString({ lineWidth: 0 }) : text, lines }
}

/** Apply the change to the project's site.yaml (unless `dryRun`); its new text, and the lines saying what changed. */
export async function declareModel(
  root: string,
  change: ModelChange,
  dryRun: boolean,
): Promise<{ text: string; lines: string[] }> {
  const path = join(root, SITE_PATH)
  const before = await readFile(path, 'utf8').catch(() => {
    throw new ImportError(`${SITE_PATH} is missing: --root must name a project folder (one with content/site.yaml)`)
  })
  const { text, lines } = changedSiteYaml(before, change)
  if (!dryRun && text !== before) await writeFile(path, text)
  return { text, lines }
}
