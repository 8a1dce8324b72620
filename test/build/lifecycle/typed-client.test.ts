/**
 * The typed client of docs/api-client.md: its example, taken from the page
 * as written, compiles with `tsc --strict` against the released client types
 * and runs against a real gateway (createGateway over a build of the
 * repository's content); the same types drive openapi-fetch here, and each
 * answer is checked against the OpenAPI document (test/helpers/contract.ts).
 */
import { spawn } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_TYPES_FILE } from '../../../build/lifecycle/released.ts'
import type { paths } from '../../../contract/released/content-api.d.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture, REPO_ROOT } from '../../helpers/project.ts'
import { runTsx } from '../../helpers/run-tsx.ts'

/** The example between the page's markers: one TypeScript code block. */
async function example(): Promise<string> {
  const page = await readFile(join(REPO_ROOT, 'docs/api-client.md'), 'utf8')
  const block = /<!-- example:start -->\n```ts\n([\s\S]*?)```\n<!-- example:end -->/.exec(page)
  if (!block) throw new Error('docs/api-client.md has no example between its markers')
  return block[1]!
}

function tsc(dir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir])
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('exit', (code) => resolve({ code, output }))
  })
}

describe('the typed client example', () => {
  const ctx = useBuiltGateway(copyOfBuiltFixture)
  let dir: string

  beforeAll(async () => {
    // Inside the repository, so `openapi-fetch` resolves from its node_modules, as from a client's project.
    await mkdir(join(REPO_ROOT, '.cache'), { recursive: true })
    dir = await mkdtemp(join(REPO_ROOT, '.cache', 'typed-client-'))
    await writeFile(join(dir, 'example.ts'), await example())
    await copyFile(CLIENT_TYPES_FILE, join(dir, 'content-api.d.ts'))
    const compilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(REPO_ROOT, 'node_modules/@types')],
    }
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['example.ts'] }))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('compiles with tsc --strict against the published types', async () => {
    const { code, output } = await tsc(dir)
    expect(output).toBe('')
    expect(code).toBe(0)
  }, 120_000)

  it('a mistake does not compile: an unknown path, a wrong parameter type, a missing field', async () => {
    const wrong = `${await example()}
await api.GET('/api/blog-post', {})
await api.GET('/api/events', { params: { query: { limit: 'ten' } } })
page.data[0]?.no_such_field
`
    await writeFile(join(dir, 'example.ts'), wrong)
    const { code, output } = await tsc(dir)
    await writeFile(join(dir, 'example.ts'), await example())
    expect(code).not.toBe(0)
    expect(output).toContain('"/api/blog-post"')
    expect(output).toContain("Type 'string' is not assignable to type 'number'")
    expect(output).toContain("'no_such_field'")
  }, 120_000)

  it('runs against a real gateway', async () => {
    const run = await runTsx([join(dir, 'example.ts')], { CONTENT_API_URL: ctx.gateway.url })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^API 1\.\d+\.\d+: \d+ blog posts$/)
    expect(lines.length).toBeGreaterThan(4)
  }, 60_000)

  it('the types drive openapi-fetch, and every answer matches the document', async () => {
    const checked: Response[] = []
    const api = createClient<paths>({
      baseUrl: ctx.gateway.url,
      // Each answer, before the client reads it, is checked against openapi.json.
      fetch: async (request) => {
        const response = await fetch(request)
        await assertMatchesContract(request.method, request.url.slice(ctx.gateway.url.length), response)
        checked.push(response)
        return response
      },
    })
    const list = await api.GET('/api/events', { params: { query: { limit: 2 } } })
    expect(list.data?.data.length).toBe(2)
    // An item of a list may be sparse (`fields=`): the types make every field but id and type optional.
    const slug = list.data!.data[0]!.slug!
    const item = await api.GET('/api/events/{slug}', { params: { path: { slug } } })
    expect(item.data?.slug).toBe(slug)
    const health = await api.GET('/api/health')
    expect(health.data?.status).toBe('ok')
    const changes = await api.GET('/api/changes')
    expect(changes.data?.meta.next_cursor).toEqual(expect.any(String))
    const bad = await api.GET('/api/search', { params: { query: { q: '' } } })
    expect(bad.error?.status).toBe(400)
    const missing = await api.GET('/api/case-studies/{slug}', { params: { path: { slug: 'no-such-study' } } })
    expect(missing.error?.status).toBe(404)
    expect(checked).toHaveLength(6)
  })
})
