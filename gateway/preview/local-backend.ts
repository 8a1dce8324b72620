/**
 * Decap CMS's local backend protocol (what the `decap-server` package speaks
 * in its file-system mode), over the project's working tree: the editor at
 * /admin/ reads and writes content files and their images through it in
 * `npm run dev`, and the dev server's watcher rebuilds as for any save. Only
 * what local-paths.ts allows is reachable: items' Markdown files directly
 * inside `content/<collection>/` or in an item's folder there (`index.md`,
 * and translations of either, `my-post.de.md`, `index.de.md`), and images
 * beside them, in an item's folder or in `content/people/` (checked by
 * content and size in local-media.ts). The editor maps Decap's names of
 * these files to them (build/emit/admin/repository-layout.js). Writes
 * go to a temporary file renamed into place; a save writes its images before
 * the Markdown that names them, so the build never sees a missing image.
 *
 * @example await localBackend('/repo').handle({ action: 'getEntry', params: { path: 'content/blog-posts/x.md' } })
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, rename, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { decodeAsset, listMedia, readMedia, writeMedia } from './local-media.ts'
import {
  collectionFolderOf,
  collectionFolders,
  type CollectionFolders,
  contentPath,
  isContentPath,
  LocalBackendError,
  mediaPath,
  projectFiles,
  type ProjectFiles,
} from './local-paths.ts'

export { LocalBackendError } from './local-paths.ts'

interface Entry {
  data: string | null
  file: { path: string; id: string | null; label?: string }
}

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex')

async function readEntry(files: ProjectFiles, path: string, label?: string): Promise<Entry> {
  // Missing, or a link out of the project: no data, as for a file that is not there.
  const body = await files
    .resolve(path)
    .then((file) => readFile(file))
    .catch(() => undefined)
  return {
    data: body ? body.toString('utf8') : null,
    file: { path, id: body ? sha256(body) : null, ...(label ? { label } : {}) },
  }
}

/** A path Decap deletes: a content file, or an image (an entry's, or one removed from the media library). */
function deletablePath(path: unknown, folders: CollectionFolders): string {
  try {
    return typeof path === 'string' && path.endsWith('.md') ? contentPath(path, folders) : mediaPath(path, folders)
  } catch {
    throw new LocalBackendError(
      `${JSON.stringify(String(path).slice(0, 200))} is neither a content file nor an image the editor keeps`,
    )
  }
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** `collections`: the collections of the model now (the dev server's compiler's), whose folders it edits. */
export function localBackend(root: string, collections: () => readonly string[]) {
  const folders = collectionFolders(collections)
  const files = projectFiles(root, folders)

  const actions: Record<string, (params: Record<string, unknown>) => Promise<unknown>> = {
    info: async () => ({ repo: basename(root), publish_modes: ['simple'], type: 'local_fs' }),
    // Every item's files, whatever depth Decap asks for: an item's own folder holds its index.md.
    entriesByFolder: async ({ folder }) => {
      const dir = collectionFolderOf(folder, folders)
      const top = await files.resolve(dir)
      const names: string[] = []
      for (const entry of await readdir(top, { withFileTypes: true }).catch(() => [])) {
        if (entry.isFile()) names.push(entry.name)
        else if (entry.isDirectory())
          for (const inner of await readdir(join(top, entry.name)).catch(() => [] as string[]))
            names.push(`${entry.name}/${inner}`)
      }
      const paths = names.map((name) => `${dir}/${name}`).filter((p) => isContentPath(p, folders))
      return Promise.all(paths.sort().map((p) => readEntry(files, p)))
    },
    entriesByFiles: async ({ files: wanted }) =>
      Promise.all(
        list(wanted).map((f) => {
          const { path, label } = f as { path?: unknown; label?: unknown }
          return readEntry(files, contentPath(path, folders), typeof label === 'string' ? label : undefined)
        }),
      ),
    getEntry: async ({ path }) => readEntry(files, contentPath(path, folders)),
    persistEntry: async ({ entry, dataFiles, assets }) => {
      const entries = (Array.isArray(dataFiles) ? dataFiles : [entry]) as {
        path?: unknown
        raw?: unknown
        newPath?: unknown
      }[]
      // Everything is checked before anything is written: a refused save changes nothing.
      const images = list(assets).map((asset) => decodeAsset(files, asset))
      const texts = entries.map((f) => {
        const path = contentPath(f.path, folders)
        if (typeof f.raw !== 'string') throw new LocalBackendError(`${path}: the entry has no text to write`)
        return { path, raw: f.raw, newPath: f.newPath === undefined ? undefined : contentPath(f.newPath, folders) }
      })
      for (const image of images) await writeMedia(files, image)
      for (const t of texts) await files.write(t.path, t.raw)
      for (const t of texts)
        if (t.newPath !== undefined) await rename(await files.resolve(t.path), await files.resolve(t.newPath))
      return { message: 'entry persisted' }
    },
    deleteFile: async ({ path }) => {
      await rm(await files.resolve(deletablePath(path, folders)), { force: true })
      return { message: `deleted ${String(path)}` }
    },
    deleteFiles: async ({ paths }) => {
      const checked = list(paths).map((p) => deletablePath(p, folders))
      for (const p of checked) await rm(await files.resolve(p), { force: true })
      return { message: `deleted ${checked.join(', ')}` }
    },
    getMedia: async ({ mediaFolder }) => listMedia(files, mediaFolder),
    getMediaFile: async ({ path }) => readMedia(files, path),
    persistMedia: async ({ asset }) => writeMedia(files, decodeAsset(files, asset)),
    getDeployPreview: async () => null,
  }

  return {
    /** Answer one request of the protocol: `{ action, params }`. */
    async handle(request: { action?: unknown; params?: unknown }): Promise<unknown> {
      const name = String(request.action)
      if (typeof request.action !== 'string' || !Object.hasOwn(actions, name))
        throw new LocalBackendError(
          `unknown action ${JSON.stringify(name.slice(0, 60))}: this local backend edits content files and their images in the simple publish mode`,
        )
      const params =
        request.params && typeof request.params === 'object' ? (request.params as Record<string, unknown>) : {}
      return actions[name]!(params)
    },
  }
}
