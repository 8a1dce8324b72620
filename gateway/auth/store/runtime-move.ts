/**
 * All of the runtime data of one store, as records, to move it to another
 * or keep it as a file: every record of the state store (grants, sessions,
 * registered clients, people, webhook subscriptions and their queues,
 * scheduled-release state, the audit trail) with its lifetime, and the two
 * documents that may live in files instead (the API keys and the machine
 * clients: KEYS_FILE and OAUTH_CLIENTS_FILE with STATE_STORE=files). What is
 * secret is moved as it is stored: hashes, and webhook signing secrets sealed
 * with WEBHOOK_SECRETS_KEY (the target's gateways need the same key).
 *
 * Left out: failed-authentication windows and a sweep's bookmark, which only
 * say something to the store that holds them.
 */
import { existsSync } from 'node:fs'
import { clientsDocument } from '../issuer/clients-file.ts'
import { keysDocument } from '../keys-file.ts'
import type { DataDocument, DataLocation } from '../runtime-data.ts'
import type { StateStore } from './state-store.ts'

/** One record: its key, value and when it expires (epoch seconds). */
export interface MovedRecord {
  key: string
  value: unknown
  expires_at?: number
}

/** A store and where its two documents are (a file, or undefined: records of the store). */
export interface RuntimeData {
  /** What the store is called in messages (`files`, `redis`…). */
  name: string
  store: StateStore
  keys: DataLocation
  clients: DataLocation
}

const EPHEMERAL = ['throttle/', 'sweep/']

/** The documents by their record key in a store. */
const DOCUMENTS: Record<string, (data: RuntimeData) => { where: DataLocation; doc: DataDocument<unknown> }> = {
  'credentials/api-keys': (d) => ({ where: d.keys, doc: keysDocument(d.keys, () => d.store) }),
  'credentials/clients': (d) => ({ where: d.clients, doc: clientsDocument(d.clients, () => d.store) }),
}

/** Every record of `data`, sorted by key; the documents validated (a broken one stops the move). */
export async function readRuntimeData(data: RuntimeData): Promise<MovedRecord[]> {
  const out = new Map<string, MovedRecord>()
  for (const key of await data.store.list('')) {
    if (EPHEMERAL.some((p) => key.startsWith(p))) continue
    const record = await data.store.record(key)
    if (!record) continue
    out.set(key, record.exp === undefined ? { key, value: record.v } : { key, value: record.v, expires_at: record.exp })
  }
  for (const [key, of] of Object.entries(DOCUMENTS)) {
    const { where, doc } = of(data)
    // In the store, a document is a record like the others (read above, and validated here); a file
    // that is not there is no document (the target's own stays as it is).
    if (where === undefined ? out.has(key) : existsSync(where)) out.set(key, { key, value: await doc.read() })
  }
  return [...out.values()].sort((a, b) => (a.key < b.key ? -1 : 1))
}

/** Write `records` into `data` (over any record of the same key); what has expired meanwhile is skipped. How many were written. */
export async function writeRuntimeData(
  data: RuntimeData,
  records: readonly MovedRecord[],
  now = Date.now(),
): Promise<number> {
  let written = 0
  for (const { key, value, expires_at } of records) {
    const document = DOCUMENTS[key]
    if (document) {
      // Validated by its schema on the way in, whether it goes to a file or a record.
      await document(data).doc.update(() => value)
      written++
      continue
    }
    // Counted from the next whole second, as the store rounds a lifetime up: the record expires when it did.
    const ttl = expires_at === undefined ? undefined : expires_at - Math.ceil(now / 1000)
    if (ttl !== undefined && ttl <= 0) continue
    await data.store.set(key, value, ttl)
    written++
  }
  return written
}

/** How many records of each kind, for the summary line: `oidc 12, people 2, …`. */
export function countsOf(records: readonly MovedRecord[]): string {
  const counts = new Map<string, number>()
  for (const { key } of records) {
    const kind = key.split('/')[0]!
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  return [...counts].map(([kind, n]) => `${kind} ${n}`).join(', ') || 'nothing'
}
