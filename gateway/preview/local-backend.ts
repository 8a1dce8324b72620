/**
 * Decap CMS's local backend protocol (what the `decap-server` package speaks
 * in its file-system mode), over the project's working tree: the editor at
 * /admin/ reads and writes content files through it in `npm run dev`, and the
 * dev server's watcher rebuilds as for any save. Only what contract/admin-config.ts
 * says collections are is reachable: Markdown files directly inside
 * `content/<collection>/`. Writes go to a temporary file renamed into place,
 * so the watcher never reads half a file. No media: images are URLs.
 *
 * @example await localBackend('/repo').handle({ action: 'getEntry', params: { path: 'content/blog-posts/x.md' } })
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { collectionFolder } from '../../contract/admin-config.ts'
import { AppError } from '../../contract/errors.ts'
import { COLLECTION_NAMES } from '../../contract/collections.ts'

/** A request Decap may not make here (unknown action, a path outside the collections): answered `{ error }`, 422. */
export class LocalBackendError extends AppError {
  readonly code = 'LOCAL_BACKEND'
}

interface Entry {
  data: string | null
  file: { path: string; id: string | null; label?: string }
}

const FOLDERS = new Set<string>(COLLECTION_NAMES.map(collectionFolder))
/** A content file's name: what Decap makes of a title (lowercase ASCII, `-`, `.`, `_`, `~`), and `.md`. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._~-]*\.md$/

/** The path, if it names a Markdown file directly inside a collection's folder. */
function contentPath(path: unknown): string {
  if (typeof path !== 'string' || !FOLDERS.has(dirname(path)) || !FILE_NAME.test(basename(path)))
    throw new LocalBackendError(
      `"${String(path).slice(0, 200)}" is not a content file: the editor reads and writes content/<collection>/<slug>.md only`,
    )
  return path
}

function folderOf(folder: unknown): string {
  if (typeof folder !== 'string' || !FOLDERS.has(folder.replace(/\/+$/, '')))
    throw new LocalBackendError(`"${String(folder).slice(0, 200)}" is not a collection's folder`)
  return folder.replace(/\/+$/, '')
}

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex')

export function localBackend(root: string) {
  /** A collection's folder on disk, refusing one that resolves outside the project (a symlink). */
  const resolveFolder = async (folder: string): Promise<string> => {
    const [project, real] = await Promise.all([realpath(root), realpath(join(root, folder)).catch(() => '')])
    if (real && !real.startsWith(`${project}/`)) throw new LocalBackendError(`${folder} resolves outside the project`)
    return join(root, folder)
  }
  const resolve = async (path: string): Promise<string> => join(await resolveFolder(dirname(path)), basename(path))

  const read = async (path: string, label?: string): Promise<Entry> => {
    const body = await readFile(await resolve(path)).catch(() => undefined)
    return {
      data: body ? body.toString('utf8') : null,
      file: { path, id: body ? sha256(body) : null, ...(label ? { label } : {}) },
    }
  }

  const write = async (path: string, raw: unknown): Promise<void> => {
    if (typeof raw !== 'string') throw new LocalBackendError(`${path}: the entry has no text to write`)
    const target = await resolve(path)
    await mkdir(dirname(target), { recursive: true })
    // Not a .md name, so the watcher ignores it until the rename.
    const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`)
    try {
      await writeFile(tmp, raw, { flag: 'wx' })
      await rename(tmp, target)
    } finally {
      await rm(tmp, { force: true })
    }
  }

  const actions: Record<string, (params: Record<string, unknown>) => Promise<unknown>> = {
    info: async () => ({ repo: basename(root), publish_modes: ['simple'], type: 'local_fs' }),
    entriesByFolder: async ({ folder, extension }) => {
      const dir = folderOf(folder)
      const ext = typeof extension === 'string' && extension ? `.${extension.replace(/^\./, '')}` : '.md'
      const names = await readdir(await resolveFolder(dir)).catch(() => [] as string[])
      const paths = names.filter((n) => n.endsWith(ext) && FILE_NAME.test(n)).sort()
      return Promise.all(paths.map((n) => read(`${dir}/${n}`)))
    },
    entriesByFiles: async ({ files }) =>
      Promise.all(
        (Array.isArray(files) ? files : []).map((f: { path?: unknown; label?: string }) =>
          read(contentPath(f.path), f.label),
        ),
      ),
    getEntry: async ({ path }) => read(contentPath(path)),
    persistEntry: async ({ entry, dataFiles, assets }) => {
      const files = (Array.isArray(dataFiles) ? dataFiles : [entry]) as {
        path?: unknown
        raw?: unknown
        newPath?: unknown
      }[]
      if (Array.isArray(assets) && assets.length)
        throw new LocalBackendError('images are URLs here: paste an absolute https:// URL instead of uploading a file')
      for (const f of files) await write(contentPath(f.path), f.raw)
      for (const f of files)
        if (f.newPath !== undefined)
          await rename(await resolve(contentPath(f.path)), await resolve(contentPath(f.newPath)))
      return { message: 'entry persisted' }
    },
    deleteFile: async ({ path }) => {
      await rm(await resolve(contentPath(path)), { force: true })
      return { message: `deleted ${path}` }
    },
    deleteFiles: async ({ paths }) => {
      for (const p of Array.isArray(paths) ? paths : []) await rm(await resolve(contentPath(p)), { force: true })
      return { message: 'deleted' }
    },
    getMedia: async () => [],
    getDeployPreview: async () => null,
  }

  return {
    /** Answer one request of the protocol: `{ action, params }`. */
    async handle(request: { action?: unknown; params?: unknown }): Promise<unknown> {
      const action = typeof request.action === 'string' ? actions[request.action] : undefined
      if (!action || !Object.hasOwn(actions, String(request.action)))
        throw new LocalBackendError(
          `unknown action ${JSON.stringify(String(request.action).slice(0, 60))}: this local backend edits content files in the simple publish mode`,
        )
      const params =
        request.params && typeof request.params === 'object' ? (request.params as Record<string, unknown>) : {}
      return action(params)
    },
  }
}
