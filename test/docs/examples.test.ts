/**
 * Every local example a reader is shown works on the repository's own
 * content: the curl commands and links against 127.0.0.1:8787 in the README
 * and docs/, the concrete `GET` rows of docs/api.md, the curl lines of the
 * generated /docs/ guide, and the ids, slugs and tags the MCP tools' own
 * descriptions give as examples. A list or search example must find something:
 * an empty answer is what a reader who copies it would call broken.
 */
import { cp, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDev, type DevServer } from '../../gateway/dev-server.ts'
import { startBuiltGateway, type BuiltGateway } from '../helpers/gateway.ts'
import { createProject, REPO_ROOT } from '../helpers/project.ts'

const LOCAL = 'http://127.0.0.1:8787'
/** Pages only `npm run dev` serves (the README says so where it shows them). */
const DEV_ONLY = ['/admin/', '/preview/']

interface Example {
  source: string
  method: 'GET' | 'HEAD' | 'POST'
  path: string
  headers: Record<string, string>
  body?: URLSearchParams
}

/** Split a shell command line into words (quotes honoured, a `#` comment dropped). */
function words(line: string): string[] {
  const out: string[] = []
  let word: string | undefined
  let quote: string | undefined
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = undefined
      else word += ch
    } else if (ch === "'" || ch === '"') {
      quote = ch
      word ??= ''
    } else if (/\s/.test(ch)) {
      if (word !== undefined) out.push(word)
      word = undefined
    } else if (ch === '#' && word === undefined) break
    else word = (word ?? '') + ch
  }
  if (word !== undefined) out.push(word)
  return out
}

/** A curl command as a request, or undefined when it has a placeholder the reader fills in. */
function fromCurl(source: string, line: string): Example | undefined {
  const args = words(line)
  const headers: Record<string, string> = {}
  const form = new URLSearchParams()
  let method: Example['method'] = 'GET'
  let url: string | undefined
  for (let i = args.indexOf('curl') + 1; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '-I') method = 'HEAD'
    else if (arg === '-d') {
      const [k, ...v] = args[++i]!.split('=')
      form.append(k!, v.join('='))
      method = 'POST'
    } else if (arg === '-u') headers.authorization = `Basic ${Buffer.from(args[++i]!).toString('base64')}`
    else if (arg === '-H') {
      const [k, ...v] = args[++i]!.split(':')
      headers[k!.toLowerCase()] = v.join(':').trim()
    } else if (arg.startsWith('http') || arg.startsWith('$BASE')) url = arg
  }
  if (!url || /[<…]|\$(?!BASE)/.test(line)) return undefined
  const path = url.replace(/^\$BASE/, '').replace(LOCAL, '')
  return { source, method, path, headers, ...(method === 'POST' && { body: form }) }
}

/** The examples of one Markdown file: its curl commands, its other local links, its concrete `GET` rows. */
function examplesOf(source: string, markdown: string): Example[] {
  const out: Example[] = []
  const joined = markdown.replace(/\\\n\s*/g, ' ')
  const curled = new Set<string>()
  for (const line of joined.split('\n')) {
    const at = line.indexOf('curl ')
    if (at < 0 || !line.includes(LOCAL)) continue
    const example = fromCurl(source, line.slice(at).replace(/`.*$/, ''))
    if (example) out.push(example)
    for (const m of line.matchAll(/http:\/\/127\.0\.0\.1:8787(\/[^\s'"`)<>]*)/g)) curled.add(m[1]!)
  }
  for (const m of joined.matchAll(/http:\/\/127\.0\.0\.1:8787(\/[^\s'"`)<>\]]*)/g)) {
    const path = m[1]!.replace(/[.,;:]+$/, '')
    if (!curled.has(path) && path !== '/' && !/[<…{]/.test(path) && !['/mcp', '/oauth/token'].includes(path))
      out.push({ source, method: 'GET', path, headers: {} })
  }
  for (const m of joined.matchAll(/^\| `GET (\/[^`\s]+)`/gm))
    if (!/[<…{]/.test(m[1]!)) out.push({ source, method: 'GET', path: m[1]!, headers: {} })
  return out
}

let project: Awaited<ReturnType<typeof createProject>>
let gateway: BuiltGateway
let dev: DevServer
let mcp: Client

beforeAll(async () => {
  project = await createProject()
  await cp(join(REPO_ROOT, 'content'), join(project.root, 'content'), { recursive: true })
  gateway = await startBuiltGateway({ project, keys: { agent: 'agent.mcp' } })
  dev = await startDev({ root: project.root, port: 0, distDir: false, print: () => {} })
  mcp = new Client({ name: 'examples', version: '1.0.0' })
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${gateway.keys.agent}` } },
    }),
  )
}, 180_000)

afterAll(async () => {
  await mcp?.close()
  await dev?.close()
  await gateway?.close()
  await project?.remove()
})

async function run(example: Example): Promise<void> {
  const base = DEV_ONLY.some((p) => example.path.startsWith(p)) ? dev.url : gateway.url
  const res = await fetch(`${base}${example.path}`, {
    method: example.method,
    headers: example.headers,
    ...(example.body && { body: example.body }),
  })
  const what = `${example.source}: ${example.method} ${example.path}`
  expect(res.status, what).toBeLessThan(400)
  if (example.method === 'HEAD' || !res.headers.get('content-type')?.includes('json')) return
  const json = (await res.json()) as { data?: unknown[] }
  if (Array.isArray(json.data)) expect(json.data.length, `${what} finds nothing`).toBeGreaterThan(0)
}

describe("the examples readers are shown, on the repository's own content", () => {
  it('every local curl command and link of the README and docs/ answers, and finds something', async () => {
    const files = ['README.md', ...(await readdir(join(REPO_ROOT, 'docs'))).map((f) => `docs/${f}`)]
    const examples: Example[] = []
    for (const file of files.filter((f) => f.endsWith('.md')))
      examples.push(...examplesOf(file, await readFile(join(REPO_ROOT, file), 'utf8')))
    // The README's tour alone has five; a parser that found none would pass everything.
    expect(examples.length).toBeGreaterThan(20)
    expect(examples.map((e) => e.path)).toContain('/api/search?q=Datenresidenz&locale=de')
    for (const example of examples) await run(example)
  }, 60_000)

  it('every curl command of the generated API guide (/docs/) answers, and finds something', async () => {
    const guide = await (await fetch(`${gateway.url}/docs/`)).text()
    const text = guide
      .replace(/<[^>]+>/g, '')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/\\u003c/g, '<')
      // The guide sits in the page as a JSON string.
      .replace(/\\n/g, '\n')
      .replace(/\\"/g, '"')
    const examples = text
      .split('\n')
      .filter((line) => line.includes('curl '))
      .flatMap((line) => line.split('curl ').slice(1))
      .map((cmd) => fromCurl('/docs/', `curl ${cmd.split('`')[0]}`))
      .filter((e): e is Example => e?.path.startsWith('/') === true)
    expect(examples.length).toBeGreaterThan(6)
    for (const example of examples) await run(example)
  }, 60_000)

  it('every id, slug and tag the MCP tools give as an example exists', async () => {
    const { tools } = await mcp.listTools()
    const text = JSON.stringify(tools)
    const ids = [...text.matchAll(/\\"([a-z][a-z-]*\/[a-z0-9-]+(?:\?locale=[a-z]+)?)\\"/g)].map((m) => m[1]!)
    expect(ids.length).toBeGreaterThan(1)
    // "collection/slug" is the format itself, not an example.
    for (const id of new Set(ids.filter((i) => i !== 'collection/slug'))) {
      const result = await mcp.callTool({ name: 'fetch', arguments: { id } })
      expect(result.isError, `fetch ${id}`).toBeFalsy()
    }
    const slugs = [...text.matchAll(/slug, e\.g\. \\"([a-z0-9-]+)\\"/g)].map((m) => m[1]!)
    expect(slugs.length).toBeGreaterThan(0)
    for (const slug of slugs) {
      const found = await fetch(`${gateway.url}/api/search?q=${slug.replaceAll('-', '+')}&limit=20`)
      const hits = ((await found.json()) as { data: { slug: string }[] }).data
      expect(
        hits.map((h) => h.slug),
        `slug ${slug}`,
      ).toContain(slug)
    }
    // A person's slug (get_person's): a person some published item names.
    const people = [...text.matchAll(/person's slug, like \\"([a-z0-9-]+)\\"/g)].map((m) => m[1]!)
    expect(people.length).toBeGreaterThan(0)
    for (const slug of people) expect((await fetch(`${gateway.url}/api/people/${slug}`)).status, slug).toBe(200)
  }, 60_000)
})
