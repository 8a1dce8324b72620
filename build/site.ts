/** Site settings from content/site.yaml: the marketing site's base URL and collection paths. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse } from 'yaml'
import { COLLECTION_NAMES, type CollectionName } from './contract/collections.ts'

export interface SiteConfig {
  name: string
  description: string
  url: string
  language: string
  collections: Record<CollectionName, { path: string; title: string }>
}

export async function loadSiteConfig(root: string): Promise<SiteConfig> {
  const file = join(root, 'content', 'site.yaml')
  const data = parse(await readFile(file, 'utf8')) as Partial<SiteConfig> | null
  const url = String(data?.url ?? '').replace(/\/+$/, '')
  if (!/^https?:\/\/[^/]+/.test(url)) throw new Error(`content/site.yaml: url must be an absolute http(s) URL`)
  const collections = {} as SiteConfig['collections']
  for (const name of COLLECTION_NAMES) {
    const entry = data?.collections?.[name]
    collections[name] = { path: entry?.path ?? `/${name}`, title: entry?.title ?? name }
  }
  return {
    name: String(data?.name ?? 'Content API'),
    description: String(data?.description ?? ''),
    url,
    language: String(data?.language ?? 'en'),
    collections,
  }
}
