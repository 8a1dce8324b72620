/** Types of repository-layout.js (plain browser ESM, copied into dist/admin/ as it is). */
import type { Wrapper } from './backends.js'
import type { Field } from './media.js'

export interface LayoutConfig {
  collections: readonly { folder: string; fields: readonly Field[] }[]
  i18n?: { locales: readonly string[]; default_locale: string }
}
export function repositoryLayout(config: LayoutConfig): { wrap: Wrapper; repositoryPath(path: string): string }
