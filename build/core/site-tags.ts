/**
 * site.yaml's `tags:`: a label, and a description, for the tags items use,
 * which /api/tags, a tag's page and the MCP tools show. A tag maps to its
 * label, or to `{label, description?}`; a tag the site does not declare is
 * its own label. The site's schema checks the setting (site-schema.ts), so
 * its problems are author errors at their line and column like the others.
 *
 * @example
 * tags:
 *   lineage: Data lineage
 *   data-contracts: { label: Data contracts, description: Agreements between producers and consumers of data. }
 */
import type { TagLabel } from '../../contract/tags.ts'

type Declared = string | { label: string; description?: string }

/** The declared tags of `value` (site.yaml's `tags`, which the schema accepted), trimmed. */
export function tagLabels(value: unknown): Record<string, TagLabel> {
  const labels: Record<string, TagLabel> = {}
  if (value === undefined || value === null) return labels
  for (const [tag, given] of Object.entries(value as Record<string, Declared>)) {
    const { label, description } = typeof given === 'string' ? { label: given, description: undefined } : given
    labels[tag] = { label: label.trim(), description: description?.trim() || null }
  }
  return labels
}
