/** Types of translations.js (plain browser ESM, copied into dist/admin/ as it is). */
import type { Wrapper } from './backends.js'
import type { LayoutConfig } from './repository-layout.js'

export function formProblems(data: Record<string, unknown>, fields: readonly object[]): string[]
export function translations(config: LayoutConfig): Wrapper
