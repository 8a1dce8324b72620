/** Worker thread of search-index-thread.ts: search documents in, the index file's text out. */
import { parentPort } from 'node:worker_threads'
import { serializeSearchIndex } from './search-index.ts'
import { type SearchDocument } from '../contract/search.ts'

parentPort!.once('message', (documents: SearchDocument[]) => parentPort!.postMessage(serializeSearchIndex(documents)))
