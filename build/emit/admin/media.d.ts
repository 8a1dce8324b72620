/** Types of media.js (plain browser ESM, copied into dist/admin/ as it is). */
import type { Field as FormatField } from './house-style.js'

export interface Field extends FormatField {
  widget?: string
}
export function dirname(path: string): string
export function isLocal(url: string): boolean
export function resolveLocal(folder: string, url: string): string | undefined
export function placeNewItemUploads(
  raw: string,
  path: string,
  assets: readonly { path: string }[],
  fields: readonly Field[],
): string
export function placeUploadsOnSave(
  CMS: unknown,
  collections: readonly { folder: string; fields: readonly Field[] }[],
): void
