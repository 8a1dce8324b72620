/**
 * No SSRF through a subscription: in production (a gateway that is not on
 * loopback, or has a public URL) only https to public addresses is taken,
 * when the subscription is made and again at each delivery, on the address
 * the connection resolves; a development gateway on loopback may also call
 * loopback, over http too.
 */
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import { readSettings, type Runtime } from '../../../contract/settings.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import { openSubscriptions } from '../../../gateway/webhooks/subscriptions.ts'
import {
  AddressRefusedError,
  addressAllowed,
  guardedLookup,
  urlPolicyFrom,
} from '../../../gateway/webhooks/url-policy.ts'
import { startWebhookSite, T0, validPost, type WebhookSite } from './setup.ts'
import { startReceiver, type Receiver } from './receiver.ts'

const PRODUCTION = { PUBLIC_URL: 'https://api.example.com' }
const production = { allowLoopback: false }
const development = { allowLoopback: true }

let site: WebhookSite | undefined
let receiver: Receiver | undefined
afterAll(async () => {
  await site?.close()
  await receiver?.close()
})

describe('webhook URLs', () => {
  it('refuses private, loopback, link-local and other special ranges in production mode', async () => {
    site = await startWebhookSite(PRODUCTION)
    const refused = [
      'https://10.0.0.5/hook',
      'https://192.168.1.20/hook',
      'https://172.16.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://127.0.0.1:8443/hook',
      'https://localhost/hook',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://0.0.0.0/hook',
    ]
    for (const url of refused) {
      const result = await site.keys('webhook', 'create', '--url', url, '--events', 'all')
      expect(result.code, url).toBe(2)
      expect(result.err[0], url).toMatch(/^✗ --url must reach a public address; .* in a \w+ range/)
    }
    const http = await site.keys('webhook', 'create', '--url', 'http://93.184.216.34/hook', '--events', 'all')
    expect(http.code).toBe(2)
    expect(http.err[0]).toBe('✗ --url must use https; got http:')
    expect((await site.keys('webhook', 'list')).out).toEqual([])
  }, 60_000)

  it('takes http on loopback from a development gateway, but still no private range', async () => {
    const dev = await startWebhookSite()
    try {
      expect((await dev.keys('webhook', 'create', '--url', 'http://127.0.0.1:9/h', '--events', 'all')).code).toBe(0)
      expect((await dev.keys('webhook', 'create', '--url', 'http://localhost:9/h', '--events', 'all')).code).toBe(0)
      const lan = await dev.keys('webhook', 'create', '--url', 'https://10.1.2.3/h', '--events', 'all')
      expect(lan.code).toBe(2)
      const http = await dev.keys('webhook', 'create', '--url', 'http://10.1.2.3/h', '--events', 'all')
      expect(http.err[0]).toContain('https (http only on loopback, for development)')
    } finally {
      await dev.close()
    }
  }, 60_000)

  it('checks again at delivery: a loopback endpoint is not called by a production gateway', async () => {
    receiver = await startReceiver()
    const prod = await startWebhookSite(PRODUCTION)
    try {
      // Made while the gateway ran for development, on the same store.
      const out: string[] = []
      const code = await runKeysCli(['webhook', 'create', '--url', receiver.url, '--events', 'all'], {
        env: { ...prod.env, HOST: '127.0.0.1', PUBLIC_URL: '' },
        cwd: prod.project.root,
        out: (l) => out.push(l),
        err: () => {},
      })
      expect(code).toBe(0)
      receiver.secrets.push(out[0]!)
      await prod.webhooks.pass()
      await prod.project.write('content/blog-posts/internal.md', validPost('Internal'))
      await prod.deploy('internal', T0 + 100)
      await prod.webhooks.pass()
      expect(receiver.deliveries).toHaveLength(0)
      const id = (await prod.keys('webhook', 'list')).out[0]!.split('\t')[0]!
      const log = await prod.keys('webhook', 'deliveries', id)
      expect(log.out[0]).toContain('refused: the URL must use https')
      expect(log.err[0]).toContain('1 waiting')
    } finally {
      await prod.close()
    }
  }, 60_000)

  it('refuses a delivery while connecting when the name resolves to this host: no connection reaches it', async (ctx) => {
    // A name that resolves to this host without touching /etc/hosts or DNS: the machine's own
    // name, which resolves to a loopback or private address of its own (never one that is public
    // anywhere this test runs; where it does not resolve so, there is nothing to show).
    const name = hostname()
    const addresses = await lookup(name, { all: true }).catch(() => [])
    if (addresses.length === 0 || addresses.some((a) => addressAllowed(a.address, production)))
      return ctx.skip(`${name} does not resolve to a non-public address of this host`)
    const target = await startReceiver([], addresses[0]!.address)
    const prod = await startWebhookSite(PRODUCTION)
    try {
      // What cannot be staged offline is the name resolving to a public address when the subscription
      // was made (DNS rebinding), which is what the creation check saw then. So the record is left as
      // such a creation leaves it: made (by a development CLI on the same store) for the receiver's
      // port, then pointed at the name. Its form passes every check (https, a name that is no
      // loopback name); only the address the name resolves to at delivery is wrong.
      const out: string[] = []
      const err: string[] = []
      const port = new URL(target.url).port
      const code = await runKeysCli(
        ['webhook', 'create', '--url', `https://127.0.0.1:${port}/hooks/content`, '--events', 'all'],
        {
          env: { ...prod.env, PUBLIC_URL: '' },
          cwd: prod.project.root,
          out: (l) => out.push(l),
          err: (l) => err.push(l),
        },
      )
      expect(code).toBe(0)
      const id = /created (wh_[0-9a-f]{16})/.exec(err.join('\n'))![1]!
      const subscriptions = openSubscriptions(openFileStore(prod.env.OAUTH_STORE_DIR!))
      const url = `https://${name}:${port}/hooks/content`
      await subscriptions.save({ ...(await subscriptions.get(id)), url })
      await prod.webhooks.pass()
      await prod.project.write('content/blog-posts/rebound.md', validPost('Rebound'))
      await prod.deploy('rebound', T0 + 100)
      await prod.webhooks.pass()

      expect(target.connections).toBe(0)
      const log = await prod.keys('webhook', 'deliveries', id)
      expect(log.out).toHaveLength(1)
      expect(log.out[0]).toContain(
        `\tWEBHOOK_ADDRESS_REFUSED: ${name} resolves to ${addresses[0]!.address}, which is not a public address`,
      )
      expect(log.err[0]).toContain('failing (1 in a row')
      expect(log.err[0]).toContain('1 waiting')
      expect(prod.logs).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: 'webhooks: delivery refused: the endpoint is not a public address (SSRF guard)',
          subscription: id,
          url,
        }),
      )
    } finally {
      await prod.close()
      await target.close()
    }
  }, 60_000)

  it('refuses at connection time a name that resolves to a refused address', async () => {
    const lookup = (policy: { allowLoopback: boolean }) =>
      new Promise<unknown>((resolve) =>
        guardedLookup(policy)('localhost', { all: true }, (error, address) => resolve(error ?? address)),
      )
    expect(await lookup(production)).toBeInstanceOf(AddressRefusedError)
    expect(await lookup(development)).toEqual(expect.arrayContaining([expect.objectContaining({ family: 4 })]))
  })

  it('allows loopback on Netlify only under its local emulation, whatever else is unset', () => {
    const allows = (env: Record<string, string>, runtime: Runtime) =>
      urlPolicyFrom(readSettings({ OAUTH_ISSUER: 'https://issuer.example.com', ...env }, runtime)).allowLoopback
    // The function runtime: HOST at its loopback default, no URL or PUBLIC_URL.
    expect(allows({ LAMBDA_TASK_ROOT: '/var/task' }, 'netlify')).toBe(false)
    expect(allows({}, 'netlify')).toBe(false)
    expect(allows({ LAMBDA_TASK_ROOT: '/var/task', STATE_STORE: 'files' }, 'netlify')).toBe(false)
    expect(allows({ LAMBDA_TASK_ROOT: '/var/task', NETLIFY_LOCAL: '1' }, 'netlify')).toBe(false)
    // Netlify's local emulation marks what it runs.
    expect(allows({ LAMBDA_TASK_ROOT: '/var/task', NETLIFY_LOCAL: 'true' }, 'netlify')).toBe(true)
    // ... but a public URL still means production.
    expect(allows({ NETLIFY_LOCAL: 'true', PUBLIC_URL: 'https://api.example.com' }, 'netlify')).toBe(false)
    // The keys CLI on a site's Blobs: the same rule.
    expect(allows({ STATE_STORE: 'netlify-blobs' }, 'cli')).toBe(false)
    expect(allows({ STATE_STORE: 'netlify-blobs', NETLIFY_LOCAL: 'true' }, 'cli')).toBe(true)
    // Self-hosted: a loopback HOST without a public URL is development.
    expect(allows({}, 'start')).toBe(true)
    expect(allows({}, 'cli')).toBe(true)
    expect(allows({ PUBLIC_URL: 'https://api.example.com' }, 'start')).toBe(false)
  })

  it('classifies addresses', () => {
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])
      expect(addressAllowed(address, production), address).toBe(true)
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '::ffff:192.168.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      'fc00::1',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      'not-an-ip',
    ])
      expect(addressAllowed(address, production), address).toBe(false)
    expect(addressAllowed('127.0.0.1', development)).toBe(true)
    expect(addressAllowed('10.0.0.1', development)).toBe(false)
  })
})
