/**
 * The tags of a build as the gateway and the MCP tools read them: each
 * locale's tag index (contract/tags.ts), worked out once per snapshot from
 * the lists the manifest holds, and the site's declared labels (the build's
 * `_build/tags.json`).
 */
import {
  TAG_LABELS_FILE,
  TAG_LABELS_FORMAT,
  tagIndex,
  type TagIndex,
  type TagLabel,
  type TagLabelsFile,
} from '../../contract/tags.ts'
import { unavailable } from '../http/problem.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'
import { summariesIn } from './locales.ts'

const INDEXES = new MemoKey<Map<string, TagIndex>>('tag indexes by locale')
const LABELS = new MemoKey<Promise<Readonly<Record<string, TagLabel>>>>('tag labels')

/** A locale's tags (undefined: the default locale's). */
export function tagIndexOf(snapshot: Snapshot, locale: string | undefined): TagIndex {
  const all = snapshot.memo(INDEXES, () => new Map<string, TagIndex>())
  const key = locale ?? ''
  let index = all.get(key)
  if (!index) all.set(key, (index = tagIndex(snapshot.model, (c) => summariesIn(snapshot, c, locale))))
  return index
}

/** The site's declared tag labels; 503 for a build without them (made before tags were). */
export function tagLabels(snapshot: Snapshot): Promise<Readonly<Record<string, TagLabel>>> {
  return snapshot.load(LABELS, async () => {
    const found = snapshot.file(TAG_LABELS_FILE)
    const file = found && (await Promise.resolve(found).catch(() => undefined))
    const parsed = file ? (JSON.parse(file.body.toString('utf8')) as TagLabelsFile) : undefined
    if (parsed?.format !== TAG_LABELS_FORMAT)
      throw unavailable(`This build has no tag labels (${TAG_LABELS_FILE}); rebuild with \`npm run build\`.`)
    return parsed.tags
  })
}
