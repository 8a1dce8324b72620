/**
 * The processed images and social cards of each collection's items, under
 * /media/{collection}/. Their bytes stay in the media cache (.cache/media-v1/):
 * each file of the output names its cache file instead of holding its bytes,
 * so the build's memory does not grow with the images, and writing dist/
 * links or copies it. A file keeps its object from one emit to the next.
 */
import type { BuildFile } from '../../contract/manifest.ts'
import { mediaFilesOf } from '../pipeline/media-record.ts'
import type { EmittedFiles, Emitter } from './types.ts'

const EMPTY = Buffer.alloc(0)

export function createMediaEmitter(): Emitter {
  const made = new Map<string, BuildFile>()
  return {
    name: 'media',
    input: 'collection',
    emit(content, collection) {
      const files: EmittedFiles = {}
      for (const record of content.collections[collection]) {
        for (const media of mediaFilesOf(record)) {
          let file = made.get(media.path)
          if (file?.etag !== media.etag || file.file !== media.file)
            made.set(media.path, (file = { body: EMPTY, etag: media.etag, file: media.file }))
          files[media.path] = file
        }
      }
      return files
    },
  }
}
