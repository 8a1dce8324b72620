/**
 * netlify.toml as Netlify reads it (its own redirect parser): /mcp and
 * /oauth/* go to the gateway function under Netlify's rate limiting, in the
 * shape Netlify documents, with the gateway's own quota; and no rule of the
 * generated dist/_redirects (which Netlify matches first) shadows them. The
 * local emulation ignores rate limits, so this is where their shape is held.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseAllRedirects } from '@netlify/redirect-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { FUNCTION_PREFIX, MCP_PATH, OAUTH_PREFIX, TOKEN_PATH } from '../../../contract/public-paths.ts'
import { DEFAULT_LIMITS } from '../../../gateway/http/limits.ts'
import { copyOfFixtureContent, REPO_ROOT, type TempProject } from '../../helpers/project.ts'

interface Rule {
  from: string
  to: string
  status?: number
  force?: boolean
  query?: Record<string, string>
  rate_limit?: Record<string, unknown>
}

/** The keys Netlify's rate limit rules in code take (window, limit, aggregation, and the optional action). */
const RATE_LIMIT_KEYS = ['window_limit', 'window_size', 'aggregate_by', 'action', 'to', 'algorithm']

let project: TempProject
beforeAll(async () => {
  project = await copyOfFixtureContent()
  await buildSite({ root: project.root, cache: false })
}, 60_000)
afterAll(() => project?.remove())

const parse = async (redirectsFiles: string[] = []) => {
  const { redirects, errors } = await parseAllRedirects({
    netlifyConfigPath: join(REPO_ROOT, 'netlify.toml'),
    redirectsFiles,
    configRedirects: [],
    minimal: true,
  })
  expect(errors.map(String)).toEqual([])
  return redirects as Rule[]
}

/** The first rule Netlify would apply to a request for `path` (no query). */
function firstMatch(rules: Rule[], path: string): Rule | undefined {
  return rules.find(
    (r) =>
      Object.keys(r.query ?? {}).length === 0 &&
      (r.from === path || (r.from.endsWith('/*') && path.startsWith(r.from.slice(0, -1)))),
  )
}

describe('netlify.toml', () => {
  it.each([
    [MCP_PATH, `${FUNCTION_PREFIX}${MCP_PATH}`],
    [`${OAUTH_PREFIX}/*`, `${FUNCTION_PREFIX}${OAUTH_PREFIX}/:splat`],
  ])(
    "rewrites %s to the gateway under a rate limit of the gateway's own quota, per client address",
    async (from, to) => {
      const rule = (await parse()).find((r) => r.from === from)
      expect(rule).toMatchObject({ to, status: 200, force: true })
      const limit = rule!.rate_limit!
      expect(Object.keys(limit).filter((k) => !RATE_LIMIT_KEYS.includes(k))).toEqual([])
      expect(limit).toEqual({
        window_limit: DEFAULT_LIMITS.rateLimitPerMinute,
        window_size: 60,
        aggregate_by: ['ip', 'domain'],
      })
      // Netlify's windows run from 1 to 180 seconds.
      expect(limit.window_size).toBeGreaterThanOrEqual(1)
      expect(limit.window_size).toBeLessThanOrEqual(180)
    },
  )

  it('is not shadowed by the generated dist/_redirects, whose rules Netlify matches first', async () => {
    const rules = await parse([join(project.dist, '_redirects')])
    for (const path of [MCP_PATH, TOKEN_PATH, `${OAUTH_PREFIX}/authorize`, `${OAUTH_PREFIX}/interaction/abc/login`]) {
      expect(firstMatch(rules, path)?.rate_limit, path).toBeDefined()
    }
    // The content rules still come first for what they serve.
    expect(firstMatch(rules, '/api/nope')?.to).toBe(`${FUNCTION_PREFIX}/api/:splat`)
  })

  it('keeps each [redirects.rate_limit] table the last part of its rule (a key under it would belong to it)', async () => {
    const text = await readFile(join(REPO_ROOT, 'netlify.toml'), 'utf8')
    const blocks = text.split(/^\[\[redirects\]\]\s*$/m).slice(1)
    expect(blocks).toHaveLength(2)
    for (const block of blocks) {
      const after = block.slice(block.indexOf('[redirects.rate_limit]'))
      const keys = [...after.matchAll(/^\s*([a-z_]+)\s*=/gm)].map((m) => m[1])
      expect(keys.sort()).toEqual(['aggregate_by', 'window_limit', 'window_size'])
    }
  })
})
