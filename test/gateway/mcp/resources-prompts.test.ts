/** Resources, completion and prompts through the SDK's clients over real HTTP, in both protocol eras. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { etagOf } from '../../../contract/etag.ts'
import { Snapshot, type FileSource, type StoredFile } from '../../../gateway/artifacts.ts'
import { connectClient, ERAS, startMcpGateway, type McpClient, type McpTestGateway } from './setup.ts'
import { HEALTH_PATH } from '../../../contract/public-paths.ts'

const TEMPLATE = 'content://{collection}/{slug}'
const NOW = new Date('2026-11-01T12:00:00Z')

let t: McpTestGateway
beforeAll(async () => {
  t = await startMcpGateway({ now: () => NOW })
})
afterAll(() => t?.close())

const rest = async <T>(path: string): Promise<T> => (await (await fetch(`${t.url}${path}`)).json()) as T
const textOf = (contents: unknown[]) => (contents[0] as { text: string }).text

describe.each(ERAS)('$protocol ($client)', ({ era }) => {
  let client: McpClient
  beforeAll(async () => {
    client = await connectClient(t.url, t.agentKey, era)
  })
  afterAll(() => client?.close())

  describe('resources', () => {
    it('lists every published item as content://{collection}/{slug}, and the template', async () => {
      const { resources } = await client.listResources()
      const health = await rest<{ build: { counts: Record<string, number> } }>(HEALTH_PATH)
      const items = resources.filter((r) => r.uri.startsWith('content://'))
      expect(items).toHaveLength(Object.values(health.build.counts).reduce((a, b) => a + b, 0))
      expect(items).toContainEqual(
        expect.objectContaining({
          uri: 'content://case-studies/meridian-mutual-ledger-reconciliation',
          name: 'case-studies/meridian-mutual-ledger-reconciliation',
          mimeType: 'text/markdown',
        }),
      )
      const { resourceTemplates } = await client.listResourceTemplates()
      expect(resourceTemplates).toContainEqual(
        expect.objectContaining({ uriTemplate: TEMPLATE, mimeType: 'text/markdown' }),
      )
    })

    it('reads an item as Markdown with its metadata as frontmatter', async () => {
      const uri = 'content://blog-posts/data-contracts-in-ci'
      const { contents } = await client.readResource({ uri })
      const { body, ...metadata } = await rest<{ body: { markdown: string } }>('/api/blog-posts/data-contracts-in-ci')
      expect(contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' })
      const [, frontmatter, markdown] = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(textOf(contents))!
      expect(parse(frontmatter!)).toEqual(metadata)
      expect(markdown).toBe(`${body.markdown}\n`)
    })

    it('answers an unknown item with the resource-not-found error (-32602, the URI in data) and a hint', async () => {
      const uri = 'content://case-studies/no-such-study'
      await expect(client.readResource({ uri })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('list_content'),
        data: { uri },
      })
    })

    it('completes slugs (within the chosen collection) and collections', async () => {
      const slugs = await client.complete({
        ref: { type: 'ref/resource', uri: TEMPLATE },
        argument: { name: 'slug', value: 'me' },
        context: { arguments: { collection: 'case-studies' } },
      })
      expect(slugs.completion.values).toEqual(['meridian-mutual-ledger-reconciliation'])
      const collections = await client.complete({
        ref: { type: 'ref/resource', uri: TEMPLATE },
        argument: { name: 'collection', value: 'we' },
      })
      expect(collections.completion.values).toEqual(['webinars'])
    })

    it('serves the agent reference llms-full.txt when the build has it, and omits it when not', async () => {
      // A new connection for each build: a 2026-07-28 client keeps a list for its ttlMs, as it should.
      const fresh = async <T>(use: (c: McpClient) => Promise<T>): Promise<T> => {
        const c = await connectClient(t.url, t.agentKey, era)
        try {
          return await use(c)
        } finally {
          await c.close()
        }
      }
      const current = t.store.current()!
      // The same build's files, but for llms-full.txt: none, then other bytes.
      const withReference = (reference: StoredFile | undefined): FileSource => ({
        etag: (path) => (path === 'llms-full.txt' ? reference?.etag : current.source.etag(path)),
        peek: (path) => (path === 'llms-full.txt' ? reference : current.source.peek(path)),
        read: (path) => (path === 'llms-full.txt' ? Promise.resolve(reference!) : current.source.read(path)),
      })
      try {
        t.store.swap(new Snapshot(current.manifest, withReference(undefined)))
        expect(await fresh(async (c) => (await c.listResources()).resources.map((r) => r.uri))).not.toContain(
          'reference://llms-full.txt',
        )
        const reference = Buffer.from('# Agent reference\n\nEverything an agent needs.\n')
        t.store.swap(new Snapshot(current.manifest, withReference({ body: reference, etag: etagOf(reference) })))
        await fresh(async (c) => {
          expect((await c.listResources()).resources).toContainEqual(
            expect.objectContaining({ uri: 'reference://llms-full.txt' }),
          )
          const { contents } = await c.readResource({ uri: 'reference://llms-full.txt' })
          expect(textOf(contents)).toBe('# Agent reference\n\nEverything an agent needs.\n')
        })
      } finally {
        t.store.swap(current)
      }
    })
  })

  describe('prompts', () => {
    it('offers prompts a marketing or sales user would pick, with their arguments', async () => {
      const { prompts } = await client.listPrompts()
      const byName = new Map(prompts.map((p) => [p.name, p]))
      expect(byName.get('case_study_outreach_email')?.arguments).toContainEqual(
        expect.objectContaining({ name: 'slug', required: true }),
      )
      expect(byName.get('upcoming_events_brief')?.arguments).toContainEqual(
        expect.objectContaining({ name: 'region', required: false }),
      )
      expect(byName.get('topic_roundup')?.arguments).toContainEqual(
        expect.objectContaining({ name: 'tag', required: true }),
      )
      for (const p of prompts) expect(p.title && p.description).toBeTruthy()
    })

    it('completes the case-study slug, the region and the tag arguments', async () => {
      const slug = await client.complete({
        ref: { type: 'ref/prompt', name: 'case_study_outreach_email' },
        argument: { name: 'slug', value: 'nord' },
      })
      expect(slug.completion.values).toEqual(['nordlicht-energie-lineage'])
      const region = await client.complete({
        ref: { type: 'ref/prompt', name: 'upcoming_events_brief' },
        argument: { name: 'region', value: 'em' },
      })
      expect(region.completion.values).toContain('EMEA')
      const tag = await client.complete({
        ref: { type: 'ref/prompt', name: 'topic_roundup' },
        argument: { name: 'tag', value: 'data-con' },
      })
      expect(tag.completion.values).toEqual(['data-contracts'])
    })

    it('rounds up a topic whatever the case of its tag, as REST and list_content match it', async () => {
      const lower = await client.getPrompt({ name: 'topic_roundup', arguments: { tag: 'data-contracts' } })
      const upper = await client.getPrompt({ name: 'topic_roundup', arguments: { tag: 'Data-Contracts' } })
      expect(upper.messages).toEqual(lower.messages)
    })

    it('builds the outreach email prompt around the case study itself', async () => {
      const item = await rest<{ url: string; body: { markdown: string } }>(
        '/api/case-studies/meridian-mutual-ledger-reconciliation',
      )
      const prompt = await client.getPrompt({
        name: 'case_study_outreach_email',
        arguments: { slug: 'meridian-mutual-ledger-reconciliation', recipient: 'a CFO' },
      })
      expect(prompt.messages[0]!.content).toMatchObject({
        type: 'resource',
        resource: { uri: 'content://case-studies/meridian-mutual-ledger-reconciliation', text: item.body.markdown },
      })
      expect(prompt.messages[1]!.content).toMatchObject({ type: 'text', text: expect.stringContaining(item.url) })
      await expect(
        client.getPrompt({ name: 'case_study_outreach_email', arguments: { slug: 'nope' } }),
      ).rejects.toThrow(/list_content/)
    })

    it('briefs on the upcoming events of a region as of the request time', async () => {
      const prompt = await client.getPrompt({
        name: 'upcoming_events_brief',
        arguments: { region: 'EMEA', days: '120' },
      })
      const { text } = prompt.messages[0]!.content as { text: string }
      expect(text).toContain('Today is 2026-11-01')
      expect(text).toContain('Tidewater Data Reliability Meetup Kraków')
      expect(text).not.toContain('Tokyo')
    })
  })
})
