/**
 * The integration reference for agents (the first half of llms-full.txt),
 * written from the OpenAPI document so endpoints, fields, scopes and errors
 * read exactly as the contract says.
 */
import { webhookGuide } from './webhooks.ts'
import type { ContentModel } from '../../contract/model/model.ts'
import { ROLES, scopesOf } from '../../contract/scopes.ts'
import type { OpenApiDocument } from './document.ts'
import { errorGuide, queryGuide, quickStart } from './guide.ts'
import { recordSchemaName } from '../../contract/routes/content.ts'
import {
  AUTHORIZATION_SERVER_PATH,
  AUTHORIZE_PATH,
  REGISTRATION_PATH,
  TOKEN_PATH,
} from '../../contract/public-paths.ts'

type Operation = {
  summary?: string
  parameters?: ({ $ref: string } | { name: string })[]
  security?: Record<string, string[]>[]
}
type Schema = {
  type?: unknown
  description?: string
  properties?: Record<string, Schema>
  anyOf?: Schema[]
  items?: Schema
  enum?: unknown[]
  const?: unknown
  format?: string
}

const METHODS = ['get', 'head', 'post', 'delete'] as const

function endpoints(doc: OpenApiDocument): string {
  const lines: string[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined
      if (!op) continue
      const params = (op.parameters ?? [])
        .map((p) => ('$ref' in p ? p.$ref.split('/').pop()! : p.name))
        .filter((p) => p !== 'ifNoneMatch')
      const anonymous = (s: Record<string, string[]>) => Object.keys(s).length === 0
      const auth =
        !op.security?.length || op.security.every(anonymous)
          ? 'public'
          : op.security.some(anonymous)
            ? 'public (credential optional)'
            : `needs ${op.security
                .map((s) =>
                  Object.entries(s)
                    .map(([k, v]) => (v.length ? `${k}: ${v.join(' ')}` : k))
                    .join(),
                )
                .join(' or ')}`
      lines.push(
        `- \`${method.toUpperCase()} ${path}\`${params.length ? ` (${params.join(', ')})` : ''}: ${op.summary ?? ''}; ${auth}`,
      )
    }
  }
  return lines.join('\n')
}

function typeOf(schema: Schema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ')
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any')
  if (type.startsWith('array') && schema.items) return `${typeOf(schema.items)}[]`
  if (type.startsWith('object') && schema.properties)
    return `{${Object.keys(schema.properties).join(', ')}}${type.includes('null') ? ' | null' : ''}`
  return schema.format ? `${type} (${schema.format})` : type
}

function fields(doc: OpenApiDocument, model: ContentModel): string {
  const schemas = doc.components.schemas as Record<string, Schema>
  return model.names
    .map((name) => {
      const collection = model.collections[name]!
      const schema = schemas[recordSchemaName(collection)]!
      const rows = Object.entries(schema.properties ?? {}).map(
        ([name, s]) => `- \`${name}\`: ${typeOf(s)}${s.description ? `. ${s.description}` : ''}`,
      )
      return `### ${name} (\`${recordSchemaName(collection)}\`)\n\n${rows.join('\n')}`
    })
    .join('\n\n')
}

function credentials(model: ContentModel): string {
  const scopes = Object.entries(scopesOf(model))
    .map(([s, d]) => `- \`${s}\`: ${d}`)
    .join('\n')
  const roles = Object.entries(ROLES)
    .map(
      ([r, { description, scopes: granted }]) =>
        `- \`${r}\` grants ${granted.map((s) => `\`${s}\``).join(', ')}: ${description}`,
    )
    .join('\n')
  return `## Credentials

Public reads (lists, items, documents) need no credential, and sending one never changes the answer. \`/mcp\` needs one.
Send \`Authorization: Bearer <credential>\`: an OAuth access token (JWT) or an API key (\`tw_live_…\`, \`tw_sandbox_…\`).
Agent hosts that speak the MCP authorization flow (ChatGPT and Claude connectors, the MCP Inspector) get a token on their own: the 401 from \`/mcp\` names
\`/.well-known/oauth-protected-resource/mcp\` (the API's is \`/.well-known/oauth-protected-resource\`), which names the issuer; its metadata is at \`${AUTHORIZATION_SERVER_PATH}\`. With the embedded issuer they register
(Dynamic Client Registration at \`${REGISTRATION_PATH}\`, or a Client ID Metadata Document as \`client_id\`), send a person to sign in and consent
(authorization code with PKCE S256 at \`${AUTHORIZE_PATH}\`), and get a token for \`resource=<origin>/mcp\` with \`mcp.tools.invoke\` from \`POST ${TOKEN_PATH}\`.
Machine clients use the client credentials grant at \`POST ${TOKEN_PATH}\`.
Missing or bad credential: 401 with \`WWW-Authenticate: Bearer resource_metadata="…"\`; valid but lacking the scope: 403 \`error="insufficient_scope"\`.

OAuth scopes:

${scopes}

API key roles:

${roles}`
}

const REACH = `## Search, changes, feeds and calendars

- Search: \`GET /api/search?q=<words>\` (\`collection\`, the filters of the lists, \`limit\`, \`page\`) answers the list envelope; each hit has \`score\`, \`snippet\`, \`matched_terms\`, \`href\` (the full record) and \`section\` (\`{id, text, url}\`: the section of the body the match is in, \`url\` with its \`#id\` anchor to cite; or null). No or empty \`q\` is a 400.
- Only what changed: \`GET /api/{collection}?updated_since=2026-03-01T00:00:00Z\` (or a date, \`2026-03-01\`: its midnight UTC) lists items updated after that instant; send an offset's \`+\` as \`%2B\`.
- Tags match without regard to case: \`tag=DBT\` is \`tag=dbt\` (tags are published lowercase).
- Change feed: \`GET /api/changes\` lists every published item once and \`meta.next_cursor\`; later \`GET /api/changes?since=<cursor>\` lists each item that changed after it, once: \`created\`, \`updated\` (fetch \`href\`) or \`deleted\` (a tombstone: its file was removed, made a draft or expired). While \`meta.has_more\`, ask again with the new cursor. \`meta.history\` is \`none\` or \`shallow\` when the build lacked git history (then deletions are missing). A multilingual site has a feed per locale, \`?locale=<tag>\` only (never Accept-Language), with cursors of its own.
- Feeds: \`/feeds/{collection|all}.xml\` (RSS 2.0), \`.atom\` (Atom 1.0), \`.json\` (JSON Feed 1.1): the newest items with full HTML.
- Calendars: \`/calendar/events.ics\`, \`/calendar/webinars.ics\` and \`/calendar/{collection}/{slug}.ics\` (iCalendar, times in the item's zone, STATUS from \`event_status\`).`

const MCP = `## MCP (agents)

\`POST /mcp\`: Model Context Protocol, Streamable HTTP transport, stateless, JSON responses (GET and DELETE answer 405).
Protocol revision 2026-07-28 (no handshake: \`_meta\` envelope plus the \`MCP-Protocol-Version\`, \`Mcp-Method\` and
\`Mcp-Name\` headers on every request; \`server/discover\`) and the 2025 revisions (\`initialize\` handshake) on the same endpoint.
Needs the \`mcp.tools.invoke\` scope or an \`agent.mcp\` API key. Send \`Accept: application/json, text/event-stream\`.
Lists and reads say how long they stay fresh (\`ttlMs\`, \`cacheScope: "public"\`); nothing changes until the next build.

Tools (all read-only, with input and output schemas; \`tools/list\` has the details):

- \`describe_content_model\`: the collections and their fields (type, description, allowed values, references) and the filters of each list: call it first.
- \`search_content\`: ranked full-text search across all collections, with snippets and the section of each match (its anchor url); the filters of the lists.
- \`list_content\`: one collection with the REST options (limit, page, the filters, sort, fields) and the same envelope.
- \`get_content\`: one item by collection and slug: metadata and the Markdown body (with \`section\`, a heading id from a search hit or the toc: only that section). An old slug (a renamed file, a changed \`slug:\`, an alias) finds the item and says it moved; a deleted item's is an error that says so.
- \`list_upcoming\`: events and webinars that have not started yet, soonest first (computed at request time); by region and days, the filters of the lists (tag, speaker, published dates, updated_since, exclude) and fields.
- \`list_tags\`: every tag with its label, description and item counts per collection and in total (\`collection\`, \`locale\`), most used first; as \`GET /api/tags\`.
- \`get_person\`: one author or speaker by slug: the profile and the items naming them in a field of type person, as \`GET /api/people/{slug}\`.
- \`search\`: one string \`query\` → \`{"results": [{"id", "title", "url", "section"}]}\` (the connector contract hosts such as ChatGPT call by name).
- \`fetch\`: one string \`id\` from \`search\` ("collection/slug"), optionally a \`section\` id → \`{"id", "title", "text", "url", "metadata"}\` with the full Markdown text, or only that section's (\`url\` then with its anchor).

Resources: every published item as \`content://{collection}/{slug}\` (a template with list and completion), the content model as \`model://content-model\` (JSON, what \`describe_content_model\` gives), and this reference.
Prompts: ready-made tasks such as turning a case study into an outreach email or a brief on upcoming events (\`prompts/list\`).`

export function agentReference(doc: OpenApiDocument, model: ContentModel): string {
  const info = doc.info as { title: string; summary: string; description: string }
  const intro = info.description.split('\n\n')[0]!
  return `# ${info.title}: full reference for agents

> ${info.summary}

${intro}

${quickStart(model)}
${queryGuide()}
## Endpoints

Relative to the origin serving this file. The OpenAPI 3.1 description at \`/openapi.json\` is the contract.

${endpoints(doc)}

Lists answer \`{data, meta: {limit, page, count, total, pages}, links: {self, next, prev}}\`; \`data\` holds records without \`body\`, \`reading_time_minutes\` and \`word_count\` (with \`fields\`, only those fields and \`id\` and \`type\`).
A bad value of a list parameter (\`limit\` 0, 101, -1, 1.5, abc; an empty or repeated parameter; a date that is not one; a sort key or field the collection does not have; \`author\` on case studies, \`when\` on posts and case studies) is a 400 naming the parameter and what it takes; unknown parameters are ignored; unknown collection or slug is a 404; other methods 405.

${REACH}

## Record fields

${fields(doc, model)}

${credentials(model)}

${MCP}

${webhookGuide()}
${errorGuide()}`
}
