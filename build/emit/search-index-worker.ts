/** Worker thread of search-index-thread.ts: search documents in, the index file's bytes out (transferred, not copied). */
import { parentPort } from 'node:worker_threads'
import { serializeSearchIndex } from './search-index.ts'
import type { SearchDocument } from '../../contract/search.ts'

parentPort!.once('message', (documents: SearchDocument[]) => {
  const bytes = new Uint8Array(serializeSearchIndex(documents))
  parentPort!.postMessage(bytes, [bytes.buffer])
})
