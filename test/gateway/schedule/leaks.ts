/**
 * What the leak scans (scan.test.ts, locale-scan.test.ts) look through for an
 * item that must not be published yet, or any more: every file of dist/, and
 * every MCP answer an agent gets without knowing the item, in each locale;
 * and where the item's slug, title and a phrase of its body are found.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import type { McpClient } from '../mcp/setup.ts'

/** What gives an item away. */
export interface Telltales {
  slug: string
  title: string
  phrase: string
}

/** Every file of a build, as text (binary files too: a slug would be found in them as well). */
export async function distFiles(dist: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out.set(relative(dist, path), (await readFile(path)).toString('utf8'))
  }
  return out
}

/** Where each of the item's strings is found, by the name of what contains it. */
export function findings(
  sources: ReadonlyMap<string, string>,
  item: Telltales,
): { slug: string[]; title: string[]; phrase: string[] } {
  const found = { slug: [] as string[], title: [] as string[], phrase: [] as string[] }
  for (const [name, text] of sources) {
    if (text.includes(item.slug)) found.slug.push(name)
    if (text.includes(item.title)) found.title.push(name)
    if (text.includes(item.phrase)) found.phrase.push(name)
  }
  return found
}

/**
 * Searches for items' own words (a crawler cannot know their slugs), in another order than the
 * item's, so an answer that repeats the query is not taken for one that finds the item.
 */
export function queriesFor(items: readonly Telltales[]): string[] {
  return items.flatMap((item) => [item.title, item.phrase].map((q) => q.toLowerCase().split(' ').reverse().join(' ')))
}

export interface McpScan {
  queries: readonly string[]
  /** Prefixes of slugs to ask completions for. */
  prefixes: readonly string[]
  /** Collections the prefixes are completed in. */
  collections: readonly string[]
  /** Locales the content tools are asked in besides the default (none on a single-language site). */
  locales?: readonly string[]
}

/** Every MCP answer an agent gets without naming the items: tools, lists, searches, resources, completions. */
export async function mcpAnswers(client: McpClient, scan: McpScan): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const keep = (name: string, value: unknown) => out.set(`mcp ${name}`, JSON.stringify(value))
  keep('tools/list', await client.listTools())
  keep('prompts/list', await client.listPrompts())
  keep('resources/list', await client.listResources())
  keep('resources/templates/list', await client.listResourceTemplates())
  keep('reference', await client.readResource({ uri: 'reference://llms-full.txt' }))
  for (const prefix of scan.prefixes)
    for (const collection of scan.collections)
      keep(
        `complete ${collection} ${prefix}`,
        await client.complete({
          ref: { type: 'ref/resource', uri: 'content://{collection}/{slug}' },
          argument: { name: 'slug', value: prefix },
          context: { arguments: { collection } },
        }),
      )
  for (const query of scan.queries) {
    keep(`search ${query}`, await client.callTool({ name: 'search', arguments: { query } }))
    for (const locale of [undefined, ...(scan.locales ?? [])]) {
      const arguments_ = { query, ...(locale && { locale }) }
      keep(
        `search_content ${query} ${locale ?? ''}`,
        await client.callTool({ name: 'search_content', arguments: arguments_ }),
      )
    }
  }
  for (const locale of [undefined, ...(scan.locales ?? [])])
    for (const collection of COLLECTION_NAMES)
      keep(
        `list_content ${collection} ${locale ?? ''}`,
        await client.callTool({
          name: 'list_content',
          arguments: { collection, limit: 100, ...(locale && { locale }) },
        }),
      )
  keep('list_upcoming', await client.callTool({ name: 'list_upcoming', arguments: { days: 3650 } }))
  return out
}
