/** Types of house-style.js (plain browser ESM, copied into dist/admin/ as it is). */
export interface Field {
  name: string
  fields?: readonly Field[]
  field?: Field
}
export function fromFrontmatterFile(text: string | null): Record<string, unknown>
export function toFrontmatterFile(data: Record<string, unknown>, fields: readonly Field[]): string
