/**
 * Webhooks of a multilingual site, end to end: three partners subscribe
 * with the real keys CLI (one as before, one for German, one for every
 * locale), each with its own receiver that verifies every delivery. A German
 * translation is added and later removed: every event names the locale of
 * the change feed it is in and carries that feed's cursor and links; a
 * subscription made without --locales hears the default locale's feed only,
 * as it always did.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChangesEnvelope } from '../../../contract/changes.ts'
import { SITE_YAML } from '../../helpers/project.ts'
import { startReceiver, type Receiver } from './receiver.ts'
import { passUntil, startWebhookSite, T0, validPost, type WebhookSite } from './setup.ts'

const MULTILINGUAL = `${SITE_YAML}language: en\nlocales: [en, de, fr]\nlocale_fallback: [de]\n`

let site: WebhookSite
/** Receivers by subscription: none named (`default`), `de`, `all`. */
const receivers: Record<'default' | 'de' | 'all', Receiver> = {} as Record<'default' | 'de' | 'all', Receiver>

const summary = (receiver: Receiver) =>
  receiver.events.map(
    (e) => `${e.type} ${e.data.slug} ${e.data.locale} ${e.data.cursor.startsWith('de_') ? 'de_…' : '…'}`,
  )

beforeAll(async () => {
  site = await startWebhookSite({}, { 'content/site.yaml': MULTILINGUAL })
  // Each feed's first look only starts its cursor.
  await site.webhooks.pass()
  for (const [name, locales] of [
    ['default', []],
    ['de', ['--locales', 'de']],
    ['all', ['--locales', 'all']],
  ] as const) {
    const receiver = await startReceiver()
    const created = await site.keys('webhook', 'create', '--url', receiver.url, '--events', 'all', ...locales)
    expect(created.code, created.err.join('\n')).toBe(0)
    receiver.secrets.push(created.out[0]!)
    receivers[name] = receiver
  }
}, 60_000)

afterAll(async () => {
  await site?.close()
  for (const receiver of Object.values(receivers)) await receiver?.close()
})

describe('webhooks of a multilingual site', () => {
  it('lists each subscription with the locales it hears', async () => {
    const list = (await site.keys('webhook', 'list')).out.join('\n')
    expect(list).toContain('\tdefault locale\t')
    expect(list).toContain('\tde\t')
    expect(list).toContain('\tall locales\t')
  })

  it('a translation added: German hears the stand-in go and the translation come, the default feed an update', async () => {
    await site.project.write(
      'content/blog-posts/first-post.de.md',
      validPost('Erster Beitrag', 'slug: erster-beitrag\n'),
    )
    await site.deploy('translate the first post', T0 + 100)
    await passUntil(
      site,
      () => receivers.default.events.length >= 1 && receivers.de.events.length >= 2 && receivers.all.events.length >= 3,
    )
    expect(summary(receivers.default)).toEqual(['content.updated first-post en …'])
    expect(summary(receivers.de)).toEqual([
      'content.removed first-post de de_…',
      'content.published erster-beitrag de de_…',
    ])
    expect(summary(receivers.all).sort()).toEqual([...summary(receivers.default), ...summary(receivers.de)].sort())
    const [removed, published] = receivers.de.events
    // The stand-in was the English record: its page; the translation is linked in German.
    expect(removed!.data).toMatchObject({ url: 'https://www.fixture.example/blog/first-post', api_url: null })
    expect(published!.data).toMatchObject({
      url: 'https://www.fixture.example/de/blog/erster-beitrag',
      api_url: `${site.gateway.url}/api/blog-posts/erster-beitrag?locale=de`,
    })
    const record = await (await fetch(published!.data.api_url!)).json()
    expect(published!.data.id).toBe(record.id)
    // Each cursor continues its own feed.
    const after = (await (
      await fetch(`${site.gateway.url}/api/changes?locale=de&since=${published!.data.cursor}`)
    ).json()) as ChangesEnvelope
    expect(after.data).toEqual([])
    const stale = await fetch(`${site.gateway.url}/api/changes?since=${published!.data.cursor}`)
    expect(stale.status).toBe(400)
  })

  it('a translation removed: its tombstone with its page in German, then the default record standing in again', async () => {
    await rm(join(site.project.root, 'content/blog-posts/first-post.de.md'))
    await site.deploy('remove the German first post', T0 + 200)
    await passUntil(site, () => receivers.de.events.length >= 4 && receivers.default.events.length >= 2)
    expect(summary(receivers.de).slice(2)).toEqual([
      'content.removed erster-beitrag de de_…',
      'content.published first-post de de_…',
    ])
    expect(receivers.de.events[2]!.data.url).toBe('https://www.fixture.example/de/blog/erster-beitrag')
    expect(receivers.de.events[3]!.data.api_url).toBe(`${site.gateway.url}/api/blog-posts/first-post?locale=de`)
    expect(summary(receivers.default).slice(1)).toEqual(['content.updated first-post en …'])
  })

  it('refuses --locales that are no locale tags, naming the option', async () => {
    const bad = await site.keys('webhook', 'create', '--url', receivers.de.url, '--events', 'all', '--locales', 'de_DE')
    expect(bad.code).not.toBe(0)
    expect(bad.err.join('\n')).toMatch(/--locales must be all or locales of the site/)
  })
})
