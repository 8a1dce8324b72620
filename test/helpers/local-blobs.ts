/**
 * Netlify's own local Blobs server (what the Netlify emulation runs), with
 * this process's Blobs context pointing at it, as a function's has: the
 * Blobs store and the keys CLI with STATE_STORE=netlify-blobs talk to it.
 */
import { join } from 'node:path'
import { BlobsServer } from '@netlify/blobs/server'

export interface LocalBlobs {
  edgeURL: string
  stop(): Promise<void>
}

export async function startLocalBlobs(dir: string, siteID = 'test-site'): Promise<LocalBlobs> {
  const token = 'local-blobs-token'
  const server = new BlobsServer({ directory: join(dir, 'blobs-server'), token, logger: () => {} })
  const { port } = await server.start()
  const edgeURL = `http://127.0.0.1:${port}`
  const previous = process.env.NETLIFY_BLOBS_CONTEXT
  process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
    JSON.stringify({ edgeURL, uncachedEdgeURL: edgeURL, siteID, token }),
  ).toString('base64')
  return {
    edgeURL,
    async stop() {
      if (previous === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT
      else process.env.NETLIFY_BLOBS_CONTEXT = previous
      await server.stop()
    },
  }
}
