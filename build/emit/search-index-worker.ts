/** Worker thread of search-index-thread.ts: search documents in (per locale), the index files' bytes out (transferred, not copied). */
import { parentPort } from 'node:worker_threads'
import { serializeSearchIndex } from './search-index.ts'
import type { SearchDocument } from '../../contract/search.ts'

parentPort!.once('message', (jobs: { documents: SearchDocument[]; stem?: string }[]) => {
  const all = jobs.map(({ documents, stem }) => new Uint8Array(serializeSearchIndex(documents, stem)))
  parentPort!.postMessage(
    all,
    all.map((bytes) => bytes.buffer),
  )
})
