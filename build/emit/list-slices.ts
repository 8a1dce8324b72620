/**
 * The pre-rendered slices of one list (page 1 at every limit), made as
 * prefixes of one another: each item's bytes are encoded and hashed once,
 * and the slice of `limit` n is the first n items' bytes and a copy of the
 * running hash, each closed by its own meta and links. Made one by one, the
 * slices encoded and hashed the first items again for every limit. The bytes and ETags are renderListFrom's
 * (test/build/emit/list-slices.test.ts).
 */
import { createHash } from 'node:crypto'
import { etagFromDigest } from '../../contract/etag.ts'
import type { ListQuery } from '../../contract/query.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { ContentRecord } from '../../contract/records.ts'
import type { CollectionModel } from '../../contract/model/model.ts'
import { LIST_HEAD, listEnvelope, listTail } from '../../contract/render.ts'

const HEAD = Buffer.from(LIST_HEAD)

/**
 * The file of each of `queries` (in order), or undefined where `wanted`
 * says it is not needed (the caller keeps the one it has). A query whose
 * items do not extend the previous one's (never for page 1 of growing
 * limits) starts the prefix again.
 */
export function listSlices(
  collection: CollectionModel,
  items: readonly ContentRecord[],
  queries: readonly ListQuery[],
  itemJson: (item: ContentRecord) => string,
  wanted: (index: number) => boolean = () => true,
): (BuildFile | undefined)[] {
  let hash = createHash('sha256').update(HEAD)
  let pieces: Buffer[] = [HEAD]
  let data: readonly ContentRecord[] = []
  // Nothing past the last slice asked for is made (an edit far down a list asks for none).
  let last = queries.length - 1
  while (last >= 0 && !wanted(last)) last--
  return queries.map((query, index) => {
    if (index > last) return undefined
    const envelope = listEnvelope(collection, items, query)
    if (!extendsPrefix(envelope.data, data)) {
      hash = createHash('sha256').update(HEAD)
      pieces = [HEAD]
      data = []
    }
    for (let k = data.length; k < envelope.data.length; k++) {
      const piece = Buffer.from(`${k ? ',' : ''}${itemJson(envelope.data[k]!)}`)
      pieces.push(piece)
      hash.update(piece)
    }
    data = envelope.data
    if (!wanted(index)) return undefined
    const tail = Buffer.from(listTail(envelope.meta, envelope.links))
    return { body: Buffer.concat([...pieces, tail]), etag: etagFromDigest(hash.copy().update(tail)) }
  })
}

/** Whether `longer` starts with every item of `shorter`, the same objects. */
function extendsPrefix(longer: readonly ContentRecord[], shorter: readonly ContentRecord[]): boolean {
  if (longer.length < shorter.length) return false
  for (let i = 0; i < shorter.length; i++) if (longer[i] !== shorter[i]) return false
  return true
}
