/**
 * The search index file (`_build/search-index.bin`): one binary file the
 * build writes and the gateway maps without parsing its postings.
 *
 * Little-endian, sections aligned to 4 bytes:
 * - header: magic `CSI1`, documents N, terms T, postings P (u32 each);
 * - documents: collection index per document (u8 × N); their slugs, joined by "\n" (UTF-8, length-prefixed u32);
 * - terms, sorted by UTF-16 code units, joined by "\n" (UTF-8, length-prefixed u32);
 * - per term: first posting (u32 × T+1), byte offset of its document gaps (u32 × T+1), largest impact (f32 × T);
 * - impacts, one per posting, as a fraction of the term's largest (u16 × P);
 * - document gaps per term, ascending documents as LEB128 varints (bytes).
 *
 * An impact is a posting's whole BM25 contribution (all fields, weighted):
 * everything but the query is known at build time, so a query only adds.
 */
export const SEARCH_INDEX_MAGIC = 0x31495343 // "CSI1"

export interface SearchIndexData {
  /** Index into COLLECTION_NAMES per document. */
  collections: Uint8Array
  slugs: string[]
  /** Sorted ascending (JavaScript string order). */
  terms: string[]
  /** Postings of term t are [postingStart[t], postingStart[t + 1]). */
  postingStart: Uint32Array
  /** Document gaps of term t start at byte gapStart[t]. */
  gapStart: Uint32Array
  maxImpact: Float32Array
  /** impact = maxImpact[t] × impacts[p] / 65535. */
  impacts: Uint16Array
  gaps: Uint8Array
}

const align = (n: number) => (n + 3) & ~3

export function encodeSearchIndex(data: SearchIndexData): Buffer {
  const slugs = Buffer.from(data.slugs.join('\n'))
  const terms = Buffer.from(data.terms.join('\n'))
  const n = data.collections.length
  const t = data.terms.length
  const p = data.impacts.length
  const size =
    16 +
    align(n) +
    4 +
    align(slugs.length) +
    4 +
    align(terms.length) +
    4 * (t + 1) * 2 +
    4 * t +
    align(2 * p) +
    data.gaps.length
  const out = Buffer.alloc(size)
  let at = 0
  const u32 = (v: number) => {
    out.writeUInt32LE(v, at)
    at += 4
  }
  const bytes = (b: Uint8Array) => {
    out.set(b, at)
    at = align(at + b.length)
  }
  u32(SEARCH_INDEX_MAGIC)
  u32(n)
  u32(t)
  u32(p)
  bytes(data.collections)
  u32(slugs.length)
  bytes(slugs)
  u32(terms.length)
  bytes(terms)
  bytes(new Uint8Array(data.postingStart.buffer, data.postingStart.byteOffset, data.postingStart.byteLength))
  bytes(new Uint8Array(data.gapStart.buffer, data.gapStart.byteOffset, data.gapStart.byteLength))
  bytes(new Uint8Array(data.maxImpact.buffer, data.maxImpact.byteOffset, data.maxImpact.byteLength))
  bytes(new Uint8Array(data.impacts.buffer, data.impacts.byteOffset, data.impacts.byteLength))
  out.set(data.gaps, at)
  return out
}

/** Views into `file` (which must stay as it is); throws on a file of another format. */
export function decodeSearchIndex(file: Buffer): SearchIndexData {
  // Typed arrays need aligned offsets: copy once if the buffer itself is not aligned.
  const buf = file.byteOffset % 4 === 0 ? file : Buffer.from(file)
  let at = 0
  const u32 = () => {
    const v = buf.readUInt32LE(at)
    at += 4
    return v
  }
  if (buf.length < 16 || u32() !== SEARCH_INDEX_MAGIC) throw new Error('not a search index of this version')
  const n = u32()
  const t = u32()
  const p = u32()
  const view = <T>(
    make: (buffer: ArrayBufferLike, offset: number, length: number) => T,
    length: number,
    width: number,
  ): T => {
    const v = make(buf.buffer, buf.byteOffset + at, length)
    at = align(at + length * width)
    return v
  }
  const collections = view((b, o, l) => new Uint8Array(b, o, l), n, 1)
  const text = () => {
    const length = u32()
    const s = buf.toString('utf8', at, at + length)
    at = align(at + length)
    return s
  }
  const slugText = text()
  const termText = text()
  const postingStart = view((b, o, l) => new Uint32Array(b, o, l), t + 1, 4)
  const gapStart = view((b, o, l) => new Uint32Array(b, o, l), t + 1, 4)
  const maxImpact = view((b, o, l) => new Float32Array(b, o, l), t, 4)
  const impacts = view((b, o, l) => new Uint16Array(b, o, l), p, 2)
  const gaps = new Uint8Array(buf.buffer, buf.byteOffset + at, buf.length - at)
  return {
    collections,
    slugs: n ? slugText.split('\n') : [],
    terms: t ? termText.split('\n') : [],
    postingStart,
    gapStart,
    maxImpact,
    impacts,
    gaps,
  }
}
