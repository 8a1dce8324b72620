/** Types of slug.js (plain browser ESM, copied into dist/admin/ as it is). */
import type { Wrapper } from './backends.js'
import type { LayoutConfig } from './repository-layout.js'

export function slugFromTitle(text: string, maxLength: number): string
export function registerSlugFromTitle(
  CMS: unknown,
  collections: readonly { name: string; fields: readonly object[] }[],
): void
export function newFileNames(config: LayoutConfig): Wrapper
