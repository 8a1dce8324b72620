/**
 * The people of a build as the gateway and the MCP tools read them: each
 * locale's people index (contract/people-index.ts), worked out once per
 * snapshot from the lists the manifest holds.
 */
import { peopleIndex, type PeopleIndex } from '../../contract/people-index.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'
import { summariesIn } from './locales.ts'

const INDEXES = new MemoKey<Map<string, PeopleIndex>>('people indexes by locale')

/** A locale's people (undefined: the default locale's). */
export function peopleIndexOf(snapshot: Snapshot, locale: string | undefined): PeopleIndex {
  const all = snapshot.memo(INDEXES, () => new Map<string, PeopleIndex>())
  const key = locale ?? ''
  let index = all.get(key)
  if (!index) all.set(key, (index = peopleIndex(snapshot.model, (c) => summariesIn(snapshot, c, locale))))
  return index
}
