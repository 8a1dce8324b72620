/**
 * The prose of the reference: the quick start and the error list, in
 * Markdown. It opens the OpenAPI document's `info.description`, so /docs/,
 * openapi.json and llms-full.txt all carry the same text.
 */
import { webhookGuide } from './webhooks.ts'
import { PROBLEM_TYPES, problemTypeUri, type ProblemName } from '../../contract/problems.ts'
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../contract/routes/parameters.ts'
import { listed, type ContentModel } from '../../contract/model/model.ts'
import type { SiteConfig } from '../core/site.ts'
import { SANDBOX_CLIENT, SANDBOX_KEY } from '../../contract/sandbox.ts'
import { MEDIA_PREFIX, TOKEN_PATH } from '../../contract/public-paths.ts'
import { IMAGE_WIDTHS, SOCIAL_CARD } from '../../contract/media.ts'
import { versionPolicy } from '../../contract/lifecycle.ts'

export function quickStart(model: ContentModel): string {
  return `## Quick start

Set \`BASE\` to the origin serving this page (locally \`http://127.0.0.1:8787\` after \`npm start\`).

1. **Is it up?** \`curl $BASE/api/health\`
2. **A list:** \`curl "$BASE/api/blog-posts?limit=5"\`: the five newest posts, with \`meta\` (total, pages) and \`links\` (next, prev). \`limit\` is 1..${MAX_LIMIT} (default ${DEFAULT_LIMIT}), \`page\` starts at 1; filters, \`sort\` and \`fields\` below (Queries). Collections: ${model.names.map((c) => `\`${c}\``).join(', ')}.
3. **One item:** \`curl $BASE/api/blog-posts/<slug>\` with a slug from the list: the full record, body as HTML, Markdown and text.
4. **Search and stay in sync:** \`curl "$BASE/api/search?q=data+contracts"\` ranks everything; \`curl $BASE/api/changes\` lists every item with a \`next_cursor\`, and \`?since=<cursor>\` later gives only what changed (deletions too). Feeds: \`/feeds/all.atom\` (also \`.xml\`, \`.json\`, per collection); calendars: \`/calendar/events.ics\`.
5. **Connect an agent (MCP):** agent hosts that speak the MCP authorization flow (ChatGPT and Claude connectors, the MCP Inspector) take just the URL \`$BASE/mcp\` and let you sign in. Any other MCP client sends \`Authorization: Bearer <credential>\`, an \`agent.mcp\` API key or an OAuth token with \`mcp.tools.invoke\`:

   \`\`\`sh
   curl -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials -d scope=mcp.tools.invoke $BASE${TOKEN_PATH}
   \`\`\`

   \`\`\`json
   { "mcpServers": { "content": { "type": "http", "url": "$BASE/mcp", "headers": { "Authorization": "Bearer <token>" } } } }
   \`\`\`
6. **Everything for a language model in one file:** \`curl $BASE/llms-full.txt\` (index: \`/llms.txt\`).

## Sandbox key

Public reads need no credential, and a credential never changes their answer. To try an authenticated call, use the public sandbox key (role \`sandbox.read\`, scope \`api.read\`, read-only):

\`\`\`sh
curl -H "Authorization: Bearer ${SANDBOX_KEY}" "$BASE/api/case-studies?limit=3"
\`\`\`

The sandbox OAuth client (\`${SANDBOX_CLIENT.id}\`, read scopes only) gets tokens from the built-in issuer:

\`\`\`sh
curl -u ${SANDBOX_CLIENT.id}:${SANDBOX_CLIENT.secret} -d grant_type=client_credentials -d scope=api.read $BASE${TOKEN_PATH}
\`\`\`
`
}

/** The list queries a site makes, by example: the same on every list, in search (filters) and in the MCP tools. */
export function queryGuide(): string {
  return `## Queries

Every list takes filters (they combine: all must hold), an order and a sparse fieldset; \`meta.total\`, \`X-Total-Count\`, \`Link\` and \`links\` count and carry what they keep. Page 1 of a whole list is a file on the CDN; anything else is computed by the gateway from the same build with the same renderer, the same bytes either way, cacheable (ETag, 304).

| a site asks for | request |
|---|---|
| the three newest posts by one author (by slug or by name) | \`/api/blog-posts?author=jose-nunez&limit=3\` |
| upcoming webinars, soonest first | \`/api/webinars?when=upcoming&sort=starts_at\` |
| past events, the latest first | \`/api/events?when=past\` |
| case studies tagged finops or financial-services | \`/api/case-studies?tag=finops,financial-services\` |
| posts from the first quarter of 2026 | \`/api/blog-posts?published_after=2025-12-31&published_before=2026-04-01\` |
| a card: only title, slug and image | \`/api/blog-posts?fields=title,slug,image&limit=3\` |
| "more like this" under a post | \`/api/blog-posts?tag=lineage&exclude=lineage-graph-at-scale&limit=3\` |
| by title, A to Z, then the newest update | \`/api/case-studies?sort=title,-updated_at\` |
| one item, a few fields | \`/api/events/tidewater-roadshow-zurich-2027?fields=title,starts_at,location\` |

- \`tag\`: one tag or several separated by commas (any of them), in any case.
- \`author\`: a person's \`slug\` (every author and speaker has one) or their name; blog posts (authors), webinars and events (speakers).
- \`published_after\`, \`published_before\`: a date is a whole day, UTC (after 2026-03-31 is from 1 April on; before 2026-04-01 is up to the end of 31 March), a date-time an instant. \`updated_since\` takes a date-time, or a date meaning its midnight UTC (\`updated_since=2026-03-01\`: updated after 2026-03-01T00:00:00Z).
- \`when\`: \`upcoming\` (not started) or \`past\` (started), by \`starts_at\` at the moment of the request; events and webinars. Such an answer is cached no longer than until the next start, so a CDN never shows a started event as upcoming.
- \`sort\`: keys separated by commas, \`-\` for descending: \`published_at\`, \`updated_at\`, \`title\`, and \`starts_at\` (webinars, events), \`ends_at\` (events). Without it, newest first.
- \`fields\`: field names separated by commas; \`id\` and \`type\` always come. On items too.
- \`exclude\`: a slug to leave out.

Search takes the same filters: \`/api/search?q=lineage&when=upcoming\`, \`/api/search?q=contracts&author=jose-nunez\`. So do the MCP tools \`list_content\` (with \`sort\` and \`fields\`), \`search_content\` and \`list_upcoming\` (every filter but \`when\`, which it is, and \`fields\`). A bad value is a 400 \`/problems/invalid-parameter\` whose \`errors\` name the parameter and what it takes.
`
}

/** Images by example: what the build makes of an image file and how a page uses it. */
export function imageGuide(): string {
  return `## Images

An item's \`image\` (and a person's \`avatar\`) kept beside its Markdown is processed by the build: \`width\` and \`height\`, a ThumbHash \`placeholder\` (base64) to paint while it loads, and \`sources\`, every file by format (AVIF, WebP, then JPEG or PNG) and width (${IMAGE_WIDTHS.join(', ')}, never wider than the original), ready for \`srcset\`:

\`\`\`html
<picture>
  <source type="image/avif" srcset="…-480.avif 480w, …-960.avif 960w" sizes="(min-width: 800px) 800px, 100vw">
  <img src="{image.url}" srcset="…-480.jpg 480w, …-960.jpg 960w" width="{image.width}" height="{image.height}" alt="{image.alt}" loading="lazy">
</picture>
\`\`\`

The files live under \`${MEDIA_PREFIX}/\` with names that change whenever their bytes do, served \`Cache-Control: immutable\`. Images in \`body.html\` already come as such a \`<picture>\`. An external image keeps its URL, with null sizes and no sources. \`social_image\` is what a shared link to the item shows (\`og:image\`): its image, or a generated ${SOCIAL_CARD.width}×${SOCIAL_CARD.height} card.
`
}

export function errorGuide(): string {
  const rows = (Object.keys(PROBLEM_TYPES) as ProblemName[]).map(
    (name) =>
      `| [\`${problemTypeUri(name)}\`](${problemTypeUri(name)}) | ${PROBLEM_TYPES[name].status} | ${PROBLEM_TYPES[name].description} |`,
  )
  return `## Errors

Every error is an RFC 9457 \`application/problem+json\` body \`{type, title, status, detail, instance?, errors?}\`; \`errors\` lists each invalid parameter. Each \`type\` is a page describing it.

| type | status | meaning |
|---|---|---|
${rows.join('\n')}
`
}

export function apiDescription(site: SiteConfig): string {
  const intro =
    `Read-only API over the published marketing content of ${site.name}: ${listed(site.model.names.map((c) => c.replaceAll('-', ' ')))}, ` +
    'as JSON lists and items for sites and apps, and as MCP tools for agents. ' +
    'Responses carry strong ETags (send `If-None-Match` for a 304), `Cache-Control`, and lists `Link` and `X-Total-Count`; CORS is open for reads.'
  const locales = site.locales.length > 1 ? `${localeGuide(site)}\n` : ''
  return `${intro}\n\n${quickStart(site.model)}\n${locales}${queryGuide()}\n${imageGuide()}\n${errorGuide()}\n${webhookGuide()}\n${versionPolicy()}`
}

/** A multilingual site's languages: how to read each, and what its records say about the others. */
export function localeGuide(site: SiteConfig): string {
  const [first, ...others] = site.locales
  const other = others[0]!
  const fallback = site.fallback.length
    ? `${site.fallback.map((l) => `\`${l}\``).join(', ')} ${site.fallback.length === 1 ? 'falls' : 'fall'} back to \`${first}\`: where an item has no translation, its lists, search and feeds show the \`${first}\` item (saying \`locale: ${first}\`), and its item URL answers it with \`Content-Language: ${first}\`. The other locales show only what was translated.`
    : `No locale falls back: each shows only what was translated into it.`
  return `## Languages

This site publishes in ${site.locales.map((l) => `\`${l}\``).join(', ')} (\`${first}\` is the default). Every record says its \`locale\` and lists its \`translations\` (each other locale's \`locale\`, \`slug\` and page \`url\`, for \`hreflang\` links).

- \`curl "$BASE/api/blog-posts?locale=${other}"\`: the list in \`${other}\` (pre-rendered like the default lists); \`/api/blog-posts/<slug>?locale=${other}\` the item in \`${other}\`, found by its slug in any locale; \`/api/search?q=…&locale=${other}\` searches the \`${other}\` content, words stemmed in its language.
- Without \`locale\`, \`Accept-Language\` chooses among them (\`Content-Language\` says which; \`Vary: Accept-Language\`).
- ${fallback}
- A change feed per locale: \`curl "$BASE/api/changes?locale=${other}"\` lists what \`${other}\` readers get (its translations${site.fallback.includes(other) ? `, and the \`${first}\` items standing in for missing ones` : ''}), each entry naming its record's \`locale\`, its \`href\` keeping \`locale=${other}\`. Only \`locale\` chooses the feed, never \`Accept-Language\`: a sync client's feed must not switch under its cursor. Each feed has its own cursors, which name their locale (\`${other}_…\`); another locale's cursor is a 400 naming \`since\`, so keep one cursor per locale you follow. A translation removed, made a draft or expired is a \`deleted\` tombstone of its own id${site.fallback.length ? ', followed where the locale falls back by `created` for the item that stands in (and the reverse when a translation appears)' : ''}; a translation appearing, going or changing its slug changes the \`translations\` of the item's other records, which are then \`updated\` in their feeds. The default feed and its cursors are the ones a single-language site has (no \`locale\`).
- Webhooks carry the \`locale\` of the feed an event is in (its \`cursor\` and \`api_url\` are that feed's); a subscription hears the \`${first}\` feed unless it was made with \`--locales ${other}\` or \`--locales all\`.
- Feeds per locale under \`/feeds/${other}/\` (announced to the WebSub hub like the default ones), calendars under \`/calendar/${other}/\`, the agent reference with its content at \`/llms-full.${other}.txt\`. The MCP tools take a \`locale\` argument (\`list_content\`, \`get_content\`, \`search_content\`, \`list_upcoming\`); the connector pair keeps its one argument each: \`search\` searches every locale in its own language, a translation's id names its locale (\`blog-posts/<slug>?locale=${other}\`), which \`fetch\` reads; resources name it the same way (\`content://blog-posts/<slug>?locale=${other}\`, \`reference://llms-full.${other}.txt\`).
- \`fields=locale,translations\` selects a record's locale fields, e.g. for \`hreflang\` links.
`
}
