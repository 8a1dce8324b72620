/**
 * `editorPlugin(root)`: what the editor at /admin/ needs of `npm run dev`
 * (mounted by the dev server only, never by `npm start` or Netlify):
 * - POST /admin/api/v1, Decap's local backend over the working tree (local-backend.ts):
 *   content files and their images (uploads arrive as base64 in the JSON);
 * - POST /preview/_render, a Markdown body rendered by the build's renderer, for the preview pane.
 *
 * Both change or reveal the author's files, so both answer only a page of
 * this server on a loopback address: a request from another origin (a site
 * the author has open) or under another host name (DNS rebinding) is a 403,
 * and the body must be JSON (a cross-site form cannot send that without a
 * preflight this server does not grant) of bounded size.
 */
import { defineHandler, type H3, type H3Event, HTTPError } from 'h3'
import { FastResponse } from 'srvx'
import { type ComponentDeclaration, renderBody } from '../../build/dev.ts'
import { baseHeaderRecord, CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { ADMIN_LOCAL_BACKEND_PATH, PREVIEW_RENDER_PATH } from '../../contract/public-paths.ts'
import { MEDIA_LIMITS } from '../../contract/media.ts'
import { BODY_LIMITS } from '../../contract/records.ts'
import { readCapped } from '../http/body-limit.ts'
import { assertMethod } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'
import { LocalBackendError, localBackend } from './local-backend.ts'

/** A content file is at most 200,000 characters of Markdown and its frontmatter: 4 MiB covers any in UTF-8. */
const MAX_RENDER_BYTES = 4 * 2 ** 20
/**
 * A save carries the file and the images uploaded since the last save, in
 * base64 (4 characters for 3 bytes): room for three images at the build's
 * largest (MEDIA_LIMITS.bytes), each of which local-media.ts checks again.
 */
const MAX_BACKEND_BYTES = 4 * 2 ** 20 + 3 * Math.ceil(MEDIA_LIMITS.bytes / 3) * 4
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

function json(event: H3Event, value: unknown, status = 200, extra: Record<string, string> = {}): Response {
  const body = JSON.stringify(value ?? null)
  const headers = { ...baseHeaderRecord(requestIdOf(event), JSON_TYPE, CACHE.none), ...extra }
  return new FastResponse(body, { status, headers })
}

/** The request's JSON body, once it is known to come from a page of this server on loopback. */
async function trustedJson(event: H3Event, maxBytes: number): Promise<Record<string, unknown>> {
  assertMethod(event, { path: event.url.pathname, methods: ['POST'] })
  const { hostname, origin } = event.url
  const from = event.req.headers.get('origin')
  const site = event.req.headers.get('sec-fetch-site')
  if (!LOOPBACK_HOSTS.has(hostname) || (from !== null && from !== origin) || (site !== null && site !== 'same-origin'))
    throw problem('forbidden', {
      detail: 'Only the editor served by this dev server, opened on a loopback address, may use this endpoint.',
    })
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json')
    throw problem('unsupported-media-type', {
      detail: 'The request body must be application/json.',
      headers: { accept: 'application/json' },
    })
  const declared = Number(event.req.headers.get('content-length') ?? 0)
  if (declared > maxBytes) throw tooLarge(maxBytes)
  const bytes = event.req.body ? await readCapped(event.req.body, maxBytes) : new Uint8Array()
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'))
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {}
  throw problem('bad-request', { detail: 'The request body must be a JSON object.' })
}

function tooLarge(maxBytes: number): HTTPError {
  return problem('payload-too-large', {
    detail: `The request body is larger than ${maxBytes} bytes, the most this endpoint accepts.`,
    headers: { connection: 'close' },
  })
}

/** `collections`: the collections of the model now, whose folders the local backend edits. */
export function editorPlugin(
  root: string,
  collections: () => readonly string[],
  components: () => readonly ComponentDeclaration[] = () => [],
): (app: H3) => void {
  const backend = localBackend(root, collections)
  return (app) => {
    app.all(
      ADMIN_LOCAL_BACKEND_PATH,
      defineHandler(async (event) => {
        try {
          const request = await trustedJson(event, MAX_BACKEND_BYTES)
          return json(event, await backend.handle(request))
        } catch (error) {
          // Decap's protocol: an error is `{ error }`, which the editor shows to the author.
          if (error instanceof LocalBackendError) return json(event, { error: error.message }, error.status)
          if (HTTPError.isError(error) && error.status === 413)
            return json(
              event,
              {
                error: `This save is larger than ${(MAX_BACKEND_BYTES / 2 ** 20).toFixed(0)} MB: save after every few images.`,
              },
              413,
              { connection: 'close' },
            )
          throw error
        }
      }),
    )
    app.all(
      PREVIEW_RENDER_PATH,
      defineHandler(async (event) => {
        const { markdown } = await trustedJson(event, MAX_RENDER_BYTES)
        if (typeof markdown !== 'string') throw problem('bad-request', { detail: '`markdown` must be a string.' })
        if (markdown.length > BODY_LIMITS.markdown)
          throw problem('payload-too-large', {
            detail: `The body has ${markdown.length} characters; a body may have at most ${BODY_LIMITS.markdown}.`,
          })
        // The site's own components too, as the build renders the body; their errors as `npm run check` says them.
        const result = renderBody(markdown, components())
        const problems = [
          ...result.missingAlt.map(
            (i) => `line ${i.line}, column ${i.column}: the image ${i.url} has no alt text; describe what it shows`,
          ),
          ...result.errors.map((e) => `line ${e.line}, column ${e.column}: ${e.detail}`),
        ]
        return json(event, { html: result.rendered?.html ?? '', problems })
      }),
    )
  }
}
