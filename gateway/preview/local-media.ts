/**
 * The images of Decap's media actions in the local backend: a file as Decap
 * sends and expects it (`{ path, content, encoding: 'base64' }`), checked
 * before anything is written. It must be an image by its name and by its
 * first bytes (JPEG, PNG, WebP, AVIF or GIF: what the build reads) and at
 * most MEDIA_LIMITS.bytes, the largest image the build accepts; its path is
 * checked by local-paths.ts. Pixel bounds are left to `npm run check`, which
 * reports them at the line that names the image.
 *
 * @example imageFormatOf(await readFile('cover.png')) // 'png'
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { MEDIA_LIMITS } from '../../contract/media.ts'
import { isImageName, LocalBackendError, mediaFolderOf, mediaPath, type ProjectFiles } from './local-paths.ts'

/** A media file as Decap's proxy backend reads it. */
export interface MediaFile {
  id: string
  name: string
  path: string
  content: string
  encoding: 'base64'
}

/** A listing stops adding files past this many bytes (a folder of shared portraits may grow large). */
const MAX_LISTING_BYTES = 64 * 2 ** 20
const MEGABYTES = (MEDIA_LIMITS.bytes / 2 ** 20).toFixed(0)

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1')

/** The image format of a file by its first bytes, if it is one the build reads. */
export function imageFormatOf(bytes: Uint8Array): 'jpeg' | 'png' | 'gif' | 'webp' | 'avif' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png'
  if (/^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return 'gif'
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp'
  // ISO BMFF: an `ftyp` box whose major or compatible brands name AVIF.
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const size = Math.min(Buffer.from(bytes.subarray(0, 4)).readUInt32BE(0), bytes.length, 64)
    for (let at = 8; at + 4 <= size; at += 4) if (/^avi[fs]$/.test(ascii(bytes, at, at + 4))) return 'avif'
  }
  return undefined
}

/** The bytes of an image Decap uploads, once they are known to be an image the build accepts. */
export function decodeAsset(files: ProjectFiles, asset: unknown): { path: string; bytes: Buffer } {
  const { path, content, encoding } = (asset ?? {}) as { path?: unknown; content?: unknown; encoding?: unknown }
  const checked = mediaPath(path, files.folders)
  if (encoding !== 'base64' || typeof content !== 'string')
    throw new LocalBackendError(`${checked}: the upload must be base64 content`)
  // Refused before decoding: base64 is four characters for three bytes.
  if (content.length > Math.ceil(MEDIA_LIMITS.bytes / 3) * 4)
    throw new LocalBackendError(`${checked} is larger than ${MEGABYTES} MB, the largest image the build accepts`, 413)
  const bytes = Buffer.from(content, 'base64')
  if (bytes.length > MEDIA_LIMITS.bytes)
    throw new LocalBackendError(`${checked} is larger than ${MEGABYTES} MB, the largest image the build accepts`, 413)
  if (!imageFormatOf(bytes))
    throw new LocalBackendError(`${checked} is not a JPEG, PNG, WebP, AVIF or GIF image (by its content)`)
  return { path: checked, bytes }
}

function mediaFile(path: string, bytes: Buffer): MediaFile {
  const id = createHash('sha256').update(bytes).digest('hex')
  return { id, name: basename(path), path, content: bytes.toString('base64'), encoding: 'base64' }
}

/** One image of the working tree; 404 when there is none at the path. */
export async function readMedia(files: ProjectFiles, path: unknown): Promise<MediaFile> {
  const checked = mediaPath(path, files.folders)
  const file = await files.resolve(checked)
  const size = await stat(file).then(
    (s) => (s.isFile() ? s.size : undefined),
    () => undefined,
  )
  if (size === undefined) throw new LocalBackendError(`there is no image at ${checked}`, 404)
  if (size > MEDIA_LIMITS.bytes)
    throw new LocalBackendError(`${checked} is larger than ${MEGABYTES} MB, the largest image the build accepts`, 413)
  return mediaFile(checked, await readFile(file))
}

/** The images directly inside a folder (none when it does not exist yet), by name. */
export async function listMedia(files: ProjectFiles, folder: unknown): Promise<MediaFile[]> {
  const checked = mediaFolderOf(folder, files.folders)
  const dir = await files.resolve(checked)
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const names = entries
    .filter((e) => e.isFile() && isImageName(e.name))
    .map((e) => e.name)
    .sort()
  const out: MediaFile[] = []
  let total = 0
  for (const name of names) {
    const file = await readMedia(files, `${checked}/${name}`).catch(() => undefined)
    if (!file) continue
    total += file.content.length
    if (total > MAX_LISTING_BYTES) break
    out.push(file)
  }
  return out
}

/** Write an upload (already decoded and checked) and answer it as Decap reads media. */
export async function writeMedia(files: ProjectFiles, asset: { path: string; bytes: Buffer }): Promise<MediaFile> {
  await files.write(asset.path, asset.bytes)
  return mediaFile(asset.path, asset.bytes)
}
