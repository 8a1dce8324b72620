/** Types of datetime-offset.js (plain browser ESM, copied into dist/admin/ as it is). */
export interface Parts {
  date: string
  time: string
  seconds: string
  offset: string
}
export function partsOf(value: unknown): Parts | undefined
export function valueFromParts(parts: Parts): string
export function localOffset(date: string, time: string): string
