/**
 * An external issuer's metadata (RFC 8414, or OpenID Connect Discovery as a
 * fallback): where its JWKS lives, and the document the gateway mirrors at
 * /.well-known/oauth-authorization-server. Cached; failures are retried on
 * the next request rather than remembered.
 */
import { IssuerUnavailableError } from './errors.ts'

export type IssuerMetadata = Record<string, unknown> & { issuer: string; jwks_uri?: string }

export interface MetadataSource {
  get(): Promise<IssuerMetadata>
}

const CACHE_MS = 10 * 60_000
const MAX_BYTES = 256 * 1024

/** RFC 8414 §3.1 inserts the well-known segment before the issuer's path; OIDC appends it. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/+$/, '')
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ]
}

export function createMetadataSource(issuer: string, timeoutMs = 5_000): MetadataSource {
  let cached: { value: IssuerMetadata; at: number } | undefined
  let pending: Promise<IssuerMetadata> | undefined

  async function load(): Promise<IssuerMetadata> {
    const failures: string[] = []
    for (const url of metadataUrls(issuer)) {
      try {
        const response = await fetch(url, {
          signal: AbortSignal.timeout(timeoutMs),
          headers: { accept: 'application/json' },
          redirect: 'error',
        })
        if (response.status === 404) {
          failures.push(`${url}: 404`)
          continue
        }
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        const text = await response.text()
        if (text.length > MAX_BYTES) throw new Error('metadata document too large')
        const doc = JSON.parse(text) as IssuerMetadata
        // RFC 8414 §3.3: the document must name the issuer we asked about.
        if (doc.issuer !== issuer) throw new Error(`metadata names issuer "${String(doc.issuer)}"`)
        return doc
      } catch (error) {
        failures.push(`${url}: ${(error as Error).message}`)
      }
    }
    throw new IssuerUnavailableError(`issuer metadata unavailable (${failures.join('; ')})`)
  }

  return {
    async get() {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value
      pending ??= load().then(
        (value) => {
          cached = { value, at: Date.now() }
          pending = undefined
          return value
        },
        (error: unknown) => {
          pending = undefined
          throw error
        },
      )
      return pending
    },
  }
}
