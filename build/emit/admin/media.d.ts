/** Types of media.js (plain browser ESM, copied into dist/admin/ as it is). */
import type { Wrapper } from './backends.js'
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
export function rebaseFolderItemImages(raw: string, key: string, fields: readonly Field[]): string
export function placeUploads(collections: readonly { folder: string; fields: readonly Field[] }[]): Wrapper
