/**
 * The embedded authorization server as a Netlify Function under Netlify's
 * own local emulation, with its state in (emulated) Netlify Blobs: a person
 * created by the keys CLI straight into Blobs, Dynamic Client Registration,
 * authorization code with PKCE through the sign-in and consent pages,
 * userinfo and refresh, a machine client's client_credentials token used at
 * /mcp. Each function call starts a fresh worker, so everything that
 * survives between requests went through Blobs. The scheduled sweep
 * removes the expired records from Blobs and keeps the rest.
 */
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getStore } from '@netlify/blobs'
import { exportJWK, generateKeyPair } from 'jose'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundledFunctions } from './functions.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { generateClientSecret, hashClientSecret, writeClientsFile } from '../../../gateway/auth/issuer/clients-file.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { openBlobsStore } from '../../../gateway/auth/store/blobs-store.ts'
import { BLOBS_STORE_NAME } from '../../../gateway/auth/store/open-store.ts'
import { isExpired } from '../../../gateway/auth/store/state-store.ts'
import { UserAgent } from '../auth/user-agent.ts'
import { copyOfBuiltFixture, REPO_ROOT, type TempProject } from '../../helpers/project.ts'
import { startEmulator, withBlobs, type Emulator } from './emulator.ts'

const LINDA = { email: 'linda@example.com', password: 'arrows of the telescope', name: 'Linda Example' }
const REDIRECT = 'http://127.0.0.1:9/callback'
const insecure = { execute: [oidc.allowInsecureRequests] }

let project: TempProject
let netlify: Emulator
let machineSecret: string
let personId: string

beforeAll(async () => {
  project = await copyOfBuiltFixture()
  await buildSite({ root: project.root })
  await bundledFunctions(project.root)
  await copyFile(join(REPO_ROOT, 'netlify.toml'), join(project.root, 'netlify.toml'))
  machineSecret = generateClientSecret()
  await writeClientsFile(join(project.root, 'clients.json'), {
    version: 1,
    clients: [
      {
        client_id: 'netlify-machine',
        secret_hash: hashClientSecret(machineSecret),
        scopes: ['mcp.tools.invoke'],
        label: 'emulation test',
        created_at: new Date().toISOString(),
      },
    ],
  })
  // As in production: one signing key for every function instance, from the site's environment.
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  netlify = await startEmulator(project.root, {
    OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
    OAUTH_CLIENTS_FILE: join(project.root, 'clients.json'),
    KEYS_FILE: join(project.root, 'keys.json'),
  })
  expect(netlify.blobsContext).toEqual(expect.any(String))
  // A function instance's first answer loads the provider and the build (tens of seconds
  // on a loaded machine); openid-client gives each request 30 s, so warm it up first.
  const discovery = await fetch(`${netlify.url}/.well-known/oauth-authorization-server`, {
    signal: AbortSignal.timeout(150_000),
  }).catch((error: unknown) => {
    throw new Error(`the first call to the function failed (${String(error)}):\n${netlify.log()}`)
  })
  expect(discovery.status).toBe(200)
  const out: string[] = []
  const code = await withBlobs(netlify, () =>
    runKeysCli(['user', 'create', '--email', LINDA.email, '--name', LINDA.name, '--password-stdin'], {
      env: { STATE_STORE: 'netlify-blobs' },
      cwd: project.root,
      out: (l) => out.push(l),
      err: () => {},
      stdin: async () => LINDA.password,
    }),
  )
  expect(code).toBe(0)
  personId = out[0]!
}, 600_000)

afterAll(async () => {
  await netlify?.stop()
  await project?.remove()
})

describe('the embedded authorization server on Netlify', () => {
  it("runs the whole code + PKCE flow, with every step's state in Blobs", async () => {
    const config = await oidc.dynamicClientRegistration(
      new URL(netlify.url),
      {
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        client_name: 'Netlify test',
      },
      oidc.None(),
      insecure,
    )
    expect(config.serverMetadata().issuer).toBe(netlify.url)
    const verifier = oidc.randomPKCECodeVerifier()
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    const callback = await new UserAgent().authorize(url.href, LINDA, REDIRECT)
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    })
    expect(tokens.claims()?.sub).toBe(personId)
    expect(await oidc.fetchUserInfo(config, tokens.access_token, personId)).toEqual({
      sub: personId,
      name: LINDA.name,
      email: LINDA.email,
    })
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)

    const keys = await withBlobs(netlify, async () =>
      (await getStore({ name: BLOBS_STORE_NAME, consistency: 'strong' }).list()).blobs.map((b) => b.key),
    )
    for (const prefix of [
      'people/',
      'oidc/Client/',
      'oidc/Session/',
      'oidc/Grant/',
      'oidc/RefreshToken/',
      'oidc/AccessToken/',
    ]) {
      expect(
        keys.some((k) => k.startsWith(prefix)),
        `a ${prefix} record in Blobs`,
      ).toBe(true)
    }
  }, 180_000)

  it('gives a machine client a client_credentials token that /mcp accepts', async () => {
    const res = await fetch(`${netlify.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`netlify-machine:${machineSecret}`).toString('base64')}` },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'mcp.tools.invoke',
        resource: `${netlify.url}/mcp`,
      }),
    })
    expect(res.status).toBe(200)
    const { access_token } = (await res.json()) as { access_token: string }
    const anonymous = await fetch(`${netlify.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toContain(
      `resource_metadata="${netlify.url}/.well-known/oauth-protected-resource/mcp"`,
    )
    const mcp = await fetch(`${netlify.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'netlify-oauth', version: '1' },
        },
      }),
    })
    expect(mcp.status, netlify.log().slice(-2000)).toBe(200)
  }, 120_000)

  it('sweeps the expired records out of Blobs from the scheduled function, and keeps the rest', async () => {
    const DAY = 24 * 60 * 60 * 1000
    const keys = () =>
      withBlobs(netlify, async () =>
        (await getStore({ name: BLOBS_STORE_NAME, consistency: 'strong' }).list()).blobs.map((b) => b.key),
      )
    // A registration made now (the function writes it): a day to live.
    const registered = await fetch(`${netlify.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
      signal: AbortSignal.timeout(110_000),
    })
    expect(registered.status, netlify.log().slice(-2000)).toBe(201)
    const { client_id } = (await registered.json()) as { client_id: string }
    // Written two days ago: an abandoned sign-in (an hour) and a registration never used (a day).
    await withBlobs(netlify, async () => {
      const past = openBlobsStore({ name: BLOBS_STORE_NAME, now: () => Date.now() - 2 * DAY })
      await past.set('oidc/Interaction/abandoned', { uid: 'abandoned' }, 3600)
      await past.set('oidc/Client/reg_unused', { client_id: 'reg_unused' }, 24 * 3600)
      // Not in the store's record format (another writer's JSON with an `exp` of its own): never the sweep's.
      await getStore({ name: BLOBS_STORE_NAME, consistency: 'strong' }).setJSON('foreign/record', { exp: 1 })
    })
    const before = await keys()
    expect(before).toEqual(expect.arrayContaining(['oidc/Interaction/abandoned', 'oidc/Client/reg_unused']))
    // What must stay: every record not expired (a code of the flow above may be, by now).
    const live = await withBlobs(netlify, async () => {
      const blobs = getStore({ name: BLOBS_STORE_NAME, consistency: 'strong' })
      const expired = await Promise.all(before.map(async (k) => isExpired(await blobs.get(k, { type: 'json' }))))
      return before.filter((_, i) => !expired[i])
    })
    expect(live).not.toContain('oidc/Client/reg_unused')
    expect(live).toEqual(expect.arrayContaining([`oidc/Client/${client_id}`, `people/${personId}`, 'foreign/record']))

    const run = await fetch(`${netlify.url}/.netlify/functions/oauth-sweep-scheduled`, { method: 'POST' })
    expect(run.status, netlify.log().slice(-2000)).toBeLessThan(300)
    expect((await keys()).sort()).toEqual(live.sort())
  }, 180_000)
})
