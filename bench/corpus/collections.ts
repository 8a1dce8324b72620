/**
 * The collections the generated corpus writes: the seed's four, whose
 * frontmatter frontmatter.ts makes, declared as the tests' fixture content
 * declares them (its site.yaml's `collections:`, the project's own model),
 * so a generated site validates and renders as the real one does.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONTENT_SOURCES } from '../lib/paths.ts'

export const COLLECTION_NAMES = ['blog-posts', 'case-studies', 'webinars', 'events'] as const
export type CollectionName = (typeof COLLECTION_NAMES)[number]

/** The `collections:` block of the fixture's site.yaml: the four's model, as YAML. */
export const MODEL_YAML = (() => {
  const text = readFileSync(join(CONTENT_SOURCES.fixtures, 'site.yaml'), 'utf8')
  return text.slice(text.indexOf('\ncollections:\n') + 1)
})()
