/** Worker thread of search-index-thread.ts: search documents in (per locale), the index files' bytes out (transferred, not copied). */
import { parentPort } from 'node:worker_threads'
import { serializeSearchIndex } from './search-index.ts'
import type { SearchDocument } from '../../contract/search.ts'

parentPort!.once('message', (jobs: { documents: SearchDocument[]; names: string[]; stem?: string }[]) => {
  const all = jobs.map(({ documents, names, stem }) => new Uint8Array(serializeSearchIndex(documents, names, stem)))
  parentPort!.postMessage(
    all,
    all.map((bytes) => bytes.buffer),
  )
})
