/**
 * The build's redirects as the gateway and the MCP tools read them: where an
 * old address of an item leads (contract/redirects.ts), looked up only once
 * no published item has the address, so a live item always wins.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import {
  findFate,
  REDIRECT_INDEX_FILE,
  REDIRECT_INDEX_FORMAT,
  type Fate,
  type RedirectIndex,
} from '../../contract/redirects.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'
import { localesOf } from './locales.ts'

const INDEX = new MemoKey<Promise<RedirectIndex | undefined>>('redirect index')

/** The build's index; undefined for a build made before redirects were (it has none to give). */
function redirectIndex(snapshot: Snapshot): Promise<RedirectIndex | undefined> {
  return snapshot.load(INDEX, async () => {
    const found = snapshot.file(REDIRECT_INDEX_FILE)
    if (!found) return undefined
    const index = JSON.parse((await found).body.toString('utf8')) as RedirectIndex
    return index.format === REDIRECT_INDEX_FORMAT ? index : undefined
  })
}

/**
 * Where `slug` of `collection` leads, if it is an old address: looked up in `locale` when the
 * request names one, else the default locale's, else any other's; with the locale whose address it is.
 */
export async function fateOf(
  snapshot: Snapshot,
  collection: CollectionName,
  slug: string,
  locale?: string,
): Promise<{ locale: string; fate: Fate } | undefined> {
  const index = await redirectIndex(snapshot)
  return index && findFate(index, localesOf(snapshot), collection, slug, locale)
}
