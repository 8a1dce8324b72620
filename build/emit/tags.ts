/**
 * The tags' pre-rendered answers, in every locale: `/api/tags` and each
 * `?collection=`, and the first page of each tag's items at the
 * pre-rendered limits, rendered by the one renderer (contract/tags.ts) the
 * gateway answers the rest with; and the declared labels, which the gateway
 * reads for those answers.
 */
import { TAG_PRERENDERED_LIMITS } from '../../contract/routes/taxonomy.ts'
import {
  TAG_LABELS_FILE,
  TAG_LABELS_FORMAT,
  tagEntry,
  tagIndex,
  tagItems,
  tagItemsEnvelope,
  tagItemsFile,
  tagsEnvelope,
  tagsFile,
  type SummariesOf,
  type TagLabelsFile,
} from '../../contract/tags.ts'
import type { EmittedFiles, Emitter } from './types.ts'

export const emitTags = {
  name: 'tags',
  input: 'content',
  emit(content) {
    const { model } = content.site
    const labels = content.site.tags ?? {}
    const labelsFile: TagLabelsFile = { format: TAG_LABELS_FORMAT, tags: labels }
    const files: EmittedFiles = { [TAG_LABELS_FILE]: JSON.stringify(labelsFile) }
    const views: [string | undefined, SummariesOf][] = [
      [undefined, (c) => content.summaries[c] ?? []],
      ...Object.entries(content.locales ?? {}).map(([locale, view]): [string, SummariesOf] => [
        locale,
        (c) => view.summaries[c] ?? [],
      ]),
    ]
    for (const [locale, summariesOf] of views) {
      const index = tagIndex(model, summariesOf)
      files[tagsFile(undefined, locale)] = JSON.stringify(tagsEnvelope(model, index, labels, undefined, locale))
      for (const collection of model.names)
        files[tagsFile(collection, locale)] = JSON.stringify(tagsEnvelope(model, index, labels, collection, locale))
      for (const tag of index.keys()) {
        const entry = tagEntry(index, labels, tag, model.names, locale)
        const items = tagItems(model, index, tag)
        for (const limit of TAG_PRERENDERED_LIMITS) {
          const query = { limit, page: 1, ...(locale !== undefined && { locale }) }
          files[tagItemsFile(tag, limit, locale)] = JSON.stringify(tagItemsEnvelope(entry, items, query))
        }
      }
    }
    return files
  },
} satisfies Emitter
