/**
 * What a crawler of the public paths reaches on a running gateway: it starts
 * from the documents clients look for first (the catalog, llms.txt, the
 * OpenAPI document, the feeds, the lists, the change feed, search) and
 * follows every link to this gateway it finds in what it gets. MCP is not
 * crawled here (its answers come through an MCP client).
 */
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { encodeCursor } from '../../../contract/changes.ts'
import { escapeRegExp } from '../../../contract/regexp.ts'
import {
  ADMIN_CONFIG_PATH,
  API_CATALOG_PATH,
  CHANGES_PATH,
  DOCS_PATH,
  feedPath,
  HEALTH_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  OPENAPI_PATH,
} from '../../../contract/public-paths.ts'

/** Paths under this gateway a crawler follows (not the OAuth flow or /mcp, which take POSTs and credentials). */
const FOLLOWED = /^\/(?:api|feeds|calendar|media|docs|problems|\.well-known|llms|openapi|admin\/config)/
const MAX_REQUESTS = 3000

/**
 * Every answer reached from the seeds (and `extra` paths, such as searches): path → status, headers and body.
 * `headers`: sent with every request (an Accept-Language, to crawl as a reader of that language).
 */
export async function crawl(
  base: string,
  origins: readonly string[],
  extra: readonly string[] = [],
  headers: Record<string, string> = {},
): Promise<Map<string, string>> {
  const seeds = [
    '/',
    API_CATALOG_PATH,
    LLMS_PATH,
    LLMS_FULL_PATH,
    OPENAPI_PATH,
    DOCS_PATH,
    HEALTH_PATH,
    ADMIN_CONFIG_PATH,
    CHANGES_PATH,
    `${CHANGES_PATH}?since=${encodeCursor({ time: 0, seq: 0 })}`,
    `/api/search?q=a`,
    ...COLLECTION_NAMES.flatMap((c) => [
      `/api/${c}?limit=100`,
      `/api/${c}?updated_since=1970-01-01`,
      feedPath(c, 'rss'),
      feedPath(c, 'atom'),
      feedPath(c, 'json'),
    ]),
    feedPath('all', 'rss'),
    feedPath('all', 'atom'),
    feedPath('all', 'json'),
    '/calendar/events.ics',
    '/calendar/webinars.ics',
    ...extra,
  ]
  const answers = new Map<string, string>()
  const queue = [...seeds]
  while (queue.length && answers.size < MAX_REQUESTS) {
    const path = queue.shift()!
    if (answers.has(path)) continue
    const response = await fetch(`${base}${path}`, { headers: { accept: '*/*', ...headers } })
    const bytes = Buffer.from(await response.arrayBuffer())
    const type = response.headers.get('content-type') ?? ''
    const text = bytes.toString('utf8')
    answers.set(
      path,
      `${response.status}\n${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${text}`,
    )
    if (/javascript|image|wasm|octet-stream/.test(type)) continue
    for (const link of linksIn(text, [base, ...origins])) if (!answers.has(link)) queue.push(link)
  }
  return answers
}

/** Paths of this gateway named in a body: absolute under one of `origins`, or root-relative in quotes, parentheses or angle brackets. */
function linksIn(text: string, origins: readonly string[]): string[] {
  const out = new Set<string>()
  const plain = text.replaceAll('\\/', '/').replaceAll('&amp;', '&')
  for (const origin of origins) {
    for (const m of plain.matchAll(new RegExp(`${escapeRegExp(origin)}(/[^"'\\s<>)\\]]*)`, 'g'))) out.add(m[1]!)
  }
  for (const m of plain.matchAll(/["'(<](\/[^"'\s<>)]*)/g)) out.add(m[1]!)
  return [...out].filter((path) => FOLLOWED.test(path) && !path.includes('{'))
}
