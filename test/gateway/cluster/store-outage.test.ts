/**
 * Redis killed and started again under two running gateways: while it is
 * down, what needs the store is a 503 problem, readiness says so, liveness
 * and the pre-rendered answers do not care; once it is back (its AOF
 * replayed) everything written before is there, the gateways serve again
 * without a restart, and a change made during the outage goes out as a
 * webhook once. The metrics count the errors and the reconnections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { HEALTH_PATH, LIVENESS_PATH, MCP_PATH, REGISTRATION_PATH } from '../../../contract/public-paths.ts'
import { allLogged, startCluster, T0, webhooksSettled, type Cluster } from '../../helpers/cluster.ts'
import { commitAll } from '../../helpers/git.ts'
import { validPost } from '../../helpers/project.ts'
import { freePort } from '../../helpers/redis-server.ts'
import { until } from '../../helpers/until.ts'
import { startReceiver, type Receiver } from '../webhooks/receiver.ts'

let cluster: Cluster
let receiver: Receiver
let metricsUrl: string
let key: string

beforeAll(async () => {
  const metricsPort = await freePort()
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
  receiver = await startReceiver()
  cluster = await startCluster({
    gateways: 2,
    env: { LOG_LEVEL: 'debug' },
    envOf: (i): Record<string, string> => (i === 0 ? { METRICS_PORT: String(metricsPort) } : {}),
  })
  const made = await cluster.keys(['webhook', 'create', '--url', receiver.url, '--events', 'all'])
  expect(made.code, made.stderr).toBe(0)
  receiver.secrets.push(made.stdout.trim())
  const created = await cluster.keys(['create', '--role', 'agent.mcp', '--label', 'before the outage'])
  expect(created.code, created.stderr).toBe(0)
  key = created.stdout.trim()
  await allLogged(cluster, (log) => log.includes('"msg":"webhooks: pass done"'), 'a first webhook pass everywhere')
}, 120_000)
afterAll(async () => {
  await cluster?.close()
  await receiver?.close()
})

const statusOf = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init)
  await res.body?.cancel()
  return res.status
}
const healthOf = (gateway: { url: string }) => statusOf(`${gateway.url}${HEALTH_PATH}`)
const mcp = (url: string) =>
  fetch(`${url}${MCP_PATH}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  })
const metric = async (name: string) => {
  const text = await (await fetch(metricsUrl)).text()
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN)
}

describe('Redis stopped and started mid-run', () => {
  it('answers 503 problems for what needs it, keeps the rest, then serves again without a restart', async () => {
    for (const g of cluster.gateways) {
      expect(await healthOf(g)).toBe(200)
      expect((await (await fetch(`${g.url}${HEALTH_PATH}`)).json()) as object).toMatchObject({ store: 'redis' })
      // A gateway sees a new key at its next recheck of the keys.
      await until(() => mcp(g.url).then((r) => r.status), { holds: (s) => s === 200, what: 'the key accepted' })
    }
    const pids = cluster.gateways.map((g) => g.child.pid)
    await cluster.redis.stop()

    // Readiness goes as soon as the connection does; liveness and the build's answers stay.
    for (const g of cluster.gateways) {
      await until(() => healthOf(g), { holds: (s) => s === 503, what: 'readiness refused' })
      const health = await fetch(`${g.url}${HEALTH_PATH}`)
      expect(health.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      expect(((await health.json()) as { detail: string }).detail).toMatch(/state store \(redis\) cannot be reached/)
      expect(await statusOf(`${g.url}${LIVENESS_PATH}`)).toBe(200)
      expect(await statusOf(`${g.url}/api/blog-posts`)).toBe(200)
      expect(await statusOf(`${g.url}/api/search?q=post`)).toBe(200)
      // A write that cannot be made: a 503 problem with Retry-After, never a 500.
      const registered = await fetch(`${g.url}${REGISTRATION_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
      })
      expect(registered.status).toBe(503)
      expect(registered.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      expect(Number(registered.headers.get('retry-after'))).toBeGreaterThan(0)
    }

    // A change goes live during the outage: its webhook cannot be queued yet.
    const { project } = cluster
    await project.write('content/blog-posts/during.md', validPost('During the outage'))
    await commitAll(project.root, 'during', T0 + 200)
    const build = await buildSite({ root: project.root, cache: false })
    for (const g of cluster.gateways) g.child.kill('SIGHUP')
    await allLogged(cluster, (log) => log.includes('webhooks: a pass failed'), 'a webhook pass failing for the store')

    await cluster.redis.start()
    for (const g of cluster.gateways)
      await until(() => healthOf(g), { holds: (s) => s === 200, what: 'readiness back' })
    expect(cluster.gateways.map((g) => g.child.pid)).toEqual(pids)
    // Nothing written before is lost: the key still works, and the subscription gets the change, once.
    for (const g of cluster.gateways) expect((await mcp(g.url)).status).toBe(200)
    await until(() => receiver.events.length, { holds: (n) => n >= 1, what: 'the change sent after the outage' })
    await webhooksSettled(cluster, build.manifest.build.id)
    expect(receiver.deliveries).toHaveLength(1)
    expect(receiver.events[0]).toMatchObject({ type: 'content.published', data: { slug: 'during' } })
    const listed = await cluster.keys(['list'])
    expect(listed.stdout).toContain('before the outage')

    expect(await metric('state_store_reconnects_total')).toBeGreaterThan(0)
    expect(await metric('state_store_errors_total')).toBeGreaterThan(0)
    expect(await metric('webhook_queue_depth')).toBe(0)
    // Never a 500, a stack trace or an unhandled rejection along the way.
    for (const g of cluster.gateways)
      expect(g.log()).not.toMatch(/"path":"\/api\/(search|blog-posts)[^"]*","status":5|"status":500|unhandled|\n\s+at /)
  })
})
