/**
 * site.yaml's `tags:`: a label, and a description, for the tags items use,
 * which /api/tags, a tag's page and the MCP tools show. A tag maps to its
 * label, or to `{label, description?}`; a tag the site does not declare is
 * its own label. Problems are author errors at their line and column.
 *
 * @example
 * tags:
 *   lineage: Data lineage
 *   data-contracts: { label: Data contracts, description: Agreements between producers and consumers of data. }
 */
import { MAX_TAG_LENGTH, TAG_PATTERN } from '../../contract/patterns.ts'
import type { TagLabel } from '../../contract/tags.ts'

/** The longest label and description: they reach every tag's answers. */
export const TAG_LIMITS = { label: 80, description: 500 } as const

const TAG_RE = new RegExp(TAG_PATTERN)
const FIELDS = ['label', 'description']

type At = (path: (string | number)[], field: string, message: string) => void

/** The declared tags of `value` (site.yaml's `tags`), each problem reported through `at`. */
export function parseTagLabels(value: unknown, at: At): Record<string, TagLabel> {
  const labels: Record<string, TagLabel> = {}
  if (value === undefined || value === null) return labels
  if (typeof value !== 'object' || Array.isArray(value)) {
    at(['tags'], 'tags', 'must map each tag to its label, or to { label, description }, like lineage: Data lineage')
    return labels
  }
  for (const [tag, given] of Object.entries(value as Record<string, unknown>)) {
    const field = `tags.${tag}`
    if (!TAG_RE.test(tag) || tag.length > MAX_TAG_LENGTH) {
      at(
        ['tags', tag],
        field,
        `is not a tag as items write them: lowercase letters, digits and single hyphens, at most ${MAX_TAG_LENGTH} characters`,
      )
      continue
    }
    const entry = typeof given === 'string' ? { label: given } : given
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      at(['tags', tag], field, 'must be the label, or { label, description }')
      continue
    }
    const { label, description } = entry as Record<string, unknown>
    for (const key of Object.keys(entry))
      if (!FIELDS.includes(key))
        at(['tags', tag, key], `${field}.${key}`, 'is not a tag setting (settings: label, description)')
    const path = typeof given === 'string' ? ['tags', tag] : ['tags', tag, 'label']
    if (typeof label !== 'string' || !label.trim() || label.length > TAG_LIMITS.label) {
      at(
        path,
        `${field}${typeof given === 'string' ? '' : '.label'}`,
        `must be a label of 1 to ${TAG_LIMITS.label} characters`,
      )
      continue
    }
    if (description !== undefined && (typeof description !== 'string' || description.length > TAG_LIMITS.description)) {
      at(
        ['tags', tag, 'description'],
        `${field}.description`,
        `must be a string of at most ${TAG_LIMITS.description} characters`,
      )
      continue
    }
    labels[tag] = {
      label: label.trim(),
      description: typeof description === 'string' ? description.trim() || null : null,
    }
  }
  return labels
}
