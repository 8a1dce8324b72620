/**
 * A real external issuer for tests: oidc-provider in-process on 127.0.0.1,
 * issuing client_credentials JWT access tokens for any resource indicator
 * (its `aud`). Its private key is exposed so tests can also mint tokens that
 * are validly signed but wrong in one claim.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import Provider from 'oidc-provider'

export interface TestIssuer {
  issuer: string
  privateJwk: JWK & { kid: string }
  clientId: string
  clientSecret: string
  /** A real token from the token endpoint. */
  token(options: { scope: string; resource?: string }): Promise<string>
  close(): Promise<void>
}

export const ISSUER_SCOPES = 'api.read mcp.tools.invoke content.blog.read'

export async function startTestIssuer(): Promise<TestIssuer> {
  const server: Server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  const privateJwk = { ...(await exportJWK(privateKey)), kid: 'test-issuer-key-1', alg: 'ES256', use: 'sig' }
  const clientId = 'gateway-test-client'
  const clientSecret = 'oidc-test-client-secret-0123456789abcdef'
  const provider = new Provider(issuer, {
    jwks: { keys: [privateJwk] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_post',
        id_token_signed_response_alg: 'ES256',
        scope: ISSUER_SCOPES,
      },
    ],
    scopes: ISSUER_SCOPES.split(' '),
    ttl: { ClientCredentials: 300 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: ISSUER_SCOPES,
          audience: resourceIndicator,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 300,
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  })
  server.on('request', provider.callback())
  return {
    issuer,
    privateJwk,
    clientId,
    clientSecret,
    async token({ scope, resource }) {
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope,
      })
      if (resource) body.set('resource', resource)
      const response = await fetch(`${issuer}/token`, { method: 'POST', body })
      const json = (await response.json()) as { access_token?: string; error?: string; error_description?: string }
      if (!json.access_token) throw new Error(`issuer refused: ${json.error} ${json.error_description}`)
      return json.access_token
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      }),
  }
}
