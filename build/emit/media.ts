/**
 * The processed images and social cards of each collection's items, under
 * /media/{collection}/. Their bytes stay in the media cache (.cache/media-v1/):
 * each file of the output names its cache file instead of holding its bytes,
 * so the build's memory does not grow with the images, and writing dist/
 * links or copies it. A file keeps its object from one emit to the next.
 *
 * Per collection and incremental like the API files: only the records an
 * edit made new are looked at, and only the files that came or went are
 * reported. Items of a collection may share a file (one portrait, one
 * image used twice), so each file counts its users and goes with the last.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import { mediaFilesOf } from '../pipeline/media-record.ts'
import { RecordDiff } from './record-diff.ts'
import type { EmittedFiles, Emitter } from './types.ts'

const EMPTY = Buffer.alloc(0)

/** One collection's media: which records were emitted, and how many of them use each file. */
interface CollectionMedia {
  diff: RecordDiff
  users: Map<string, number>
}

export function createMediaEmitter(): Emitter {
  const made = new Map<string, BuildFile>()
  const collections = new Map<CollectionName, CollectionMedia>()
  return {
    name: 'media',
    input: 'collection',
    emit(content, collection) {
      let state = collections.get(collection)
      if (!state) collections.set(collection, (state = { diff: new RecordDiff(), users: new Map() }))
      const { added, gone } = state.diff.update(content.collections[collection]!)
      const files: EmittedFiles = {}
      // The new records first: a file a replaced record and its replacement share never leaves.
      for (const record of added) {
        for (const media of mediaFilesOf(record)) {
          const users = state.users.get(media.path) ?? 0
          state.users.set(media.path, users + 1)
          let file = made.get(media.path)
          if (file?.etag === media.etag && file.file === media.file && users > 0) continue
          if (file?.etag !== media.etag || file.file !== media.file)
            made.set(media.path, (file = { body: EMPTY, etag: media.etag, file: media.file }))
          files[media.path] = file
        }
      }
      const removed: string[] = []
      for (const record of gone) {
        for (const media of mediaFilesOf(record)) {
          const users = (state.users.get(media.path) ?? 1) - 1
          if (users > 0) {
            state.users.set(media.path, users)
            continue
          }
          state.users.delete(media.path)
          made.delete(media.path)
          if (!(media.path in files)) removed.push(media.path)
        }
      }
      return { files, removed }
    },
  }
}
