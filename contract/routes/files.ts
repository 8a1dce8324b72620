/**
 * Files of the build that are no API operation: the processed images the
 * records point at, and the editor for authors. The CDN serves them (and the
 * gateway's static route the same bytes, with the same headers); the
 * document leaves them out, each for the reason it gives.
 */
import { ADMIN_PATH, MEDIA_PREFIX } from '../public-paths.ts'
import { READ, route } from './route.ts'

/**
 * Folders of dist/ that are no route at all: what only the build and the
 * gateway read (`_build/`: the manifest, the change logs, the search
 * indexes, the webhook notes). Never served: the gateway's static route
 * answers 404 there, and the Netlify rules (build/emit/netlify.ts) send the
 * folder to the function by a forced rule, which answers the same 404,
 * before the CDN can serve the files.
 */
export const INTERNAL_FOLDERS = ['/_build'] as const

/** Whether `path` (as requested, e.g. `/_build/manifest.json`) is inside a folder that is never served. */
export function isInternalPath(path: string): boolean {
  return INTERNAL_FOLDERS.some((folder) => path === folder || path.startsWith(`${folder}/`))
}

/** Processed images and social cards: `/media/{collection}/{name}-{hash}-{width}.{avif,webp,jpg,png}`. */
export const media = route({
  path: `${MEDIA_PREFIX}/{collection}/{file}`,
  methods: READ,
  served: 'file',
  // A file's name carries a hash of its bytes, so it never changes under it.
  cache: 'immutable',
  undocumented:
    "files a record names by URL (its image object's `url` and `sources`, `social_image`): the record schemas describe them there",
})

/**
 * The editor (Decap CMS) at /admin/: its page, configuration and scripts.
 * `npm run dev` adds its local backend (/admin/api/v1) and the preview's
 * renderer (/preview/_render), which are no public routes: only the dev
 * server mounts them (gateway/preview/editor-routes.ts).
 */
export const editor = route({
  path: ADMIN_PATH,
  methods: READ,
  served: 'file',
  undocumented: 'a page for authors in a browser, not an API',
})
