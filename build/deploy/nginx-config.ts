#!/usr/bin/env node
/**
 * `npm run nginx`: an nginx configuration for dist/ served from any disk,
 * CDN origin or object store with the gateways behind it, written from the
 * route table (contract/routes/) as the Netlify rules are
 * (build/emit/netlify.ts), for the http context (conf.d/):
 *
 * - The routes the build answers with a file (`served: 'file'`: feeds,
 *   calendars, documents, problem pages, images, the editor) straight from
 *   dist/, with the headers the gateway sends with them: its media types, its
 *   cache policies, CORS, no sniffing, its Content-Security-Policy. A file
 *   that is not there, and a method other than GET and HEAD, goes to the
 *   gateway, which answers its JSON problem.
 * - Every route of the gateway (`served: 'gateway'`: the API, /mcp, OAuth,
 *   the metadata, health) to the gateways, streamed (MCP answers are event
 *   streams), with the public Host and the client's address in
 *   X-Forwarded-For (TRUST_PROXY=x-forwarded-for); anything else too, for
 *   the gateway's 404s, the build's internal files included.
 *
 * The configuration depends on the route table only, not on the content: a
 * new build needs no new configuration. What it cannot do is what the
 * gateway does with the clock: before a scheduled release, a file it serves
 * keeps its full lifetime (the gateway shortens it); docs/self-hosting.md says
 * to purge a CDN when a release is built.
 *
 *   npm run nginx -- --upstream 10.0.0.1:8787,10.0.0.2:8787 [--root /srv/dist] [--listen 8080]
 */
import { defineCommand, parseCommand, printHelp } from '../../contract/cli-args.ts'
import { runCli } from '../../contract/cli.ts'
import { baseHeaderRecord, CACHE, CONTENT_TYPES, HTML_CSP } from '../../contract/headers.ts'
import { DOCUMENT_HEADERS, documentType } from '../../contract/documents.ts'
import { ROUTES } from '../../contract/routes/index.ts'
import type { Route } from '../../contract/routes/route.ts'
import { templateSource } from '../../contract/regexp.ts'
import { ALL_FEED } from '../../contract/public-paths.ts'
import { SETTINGS } from '../../contract/settings.ts'
import { UsageError } from '../../contract/errors.ts'

export interface NginxOptions {
  /** The gateways, as host:port. */
  upstreams: readonly string[]
  /** The build's folder, as nginx sees it. */
  root: string
  /** What nginx listens on (a port, or address:port). */
  listen: string
}

export const NGINX_USAGE =
  'usage: npm run nginx -- --upstream <host:port>[,<host:port>…] [--root <dist folder>] [--listen <port>]'

const UPSTREAM = 'content_api_gateways'
const CSP_VARIABLE = '$content_api_csp'
/** The CSP of everything but pages: as contract/headers.ts sets it. */
const DOCUMENT_CSP = baseHeaderRecord('', CONTENT_TYPES['.json']!, CACHE.none)['content-security-policy']!
/** The largest body the gateway reads (MCP_MAX_BODY_BYTES at its most): it answers 413 itself below that. */
const MAX_BODY = /to (\d+)$/.exec(SETTINGS.MCP_MAX_BODY_BYTES.accepts)![1]!

const quote = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`

/** The nginx location of a route's path: exact, or a regex where it has `{parameters}`. */
function locationOf(route: Route): string {
  if (!route.path.includes('{')) return `= ${route.path}`
  return `~ ^${templateSource(route.path)}$`
}

/** The headers the gateway's static route sends with a route's files, but the media type and the CSP. */
function fileHeaders(route: Route): [string, string][] {
  const headers = baseHeaderRecord('', 'text/plain', CACHE[route.cache ?? 'document'])
  const extra = DOCUMENT_HEADERS[route.path] ?? {}
  const csp = extra['content-security-policy'] === undefined ? CSP_VARIABLE : quote(extra['content-security-policy'])
  return [
    ...Object.entries(headers)
      .filter(([name]) => !['content-type', 'x-request-id', 'content-security-policy'].includes(name))
      .map(([name, value]): [string, string] => [name, quote(value)]),
    ...Object.entries(extra)
      .filter(([name]) => name !== 'content-security-policy')
      .map(([name, value]): [string, string] => [name, quote(value)]),
    ['content-security-policy', csp],
  ]
}

function fileLocation(route: Route): string[] {
  // Where the path does not tell the media type (feeds, the API catalog), the route's own.
  const type = documentType(route.path.replace(/\{[^}]+\}/g, ALL_FEED))
  // As the gateway's static route looks: the path, then `.json` and `.html` documents; a folder's index.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: nginx's own variable syntax, not a template
  const tries = route.path.endsWith('/') ? '${uri}index.html' : '$uri $uri.json $uri.html'
  return [
    `  location ${locationOf(route)} {`,
    ...(type ? ['    types { }', `    default_type ${quote(type)};`] : []),
    `    try_files ${tries} @gateway;`,
    ...fileHeaders(route).map(([name, value]) => `    add_header ${name} ${value};`),
    '  }',
  ]
}

const PROXY = [
  `proxy_pass http://${UPSTREAM};`,
  'proxy_http_version 1.1;',
  'proxy_set_header Connection "";',
  'proxy_set_header Host $http_host;',
  'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  'proxy_set_header X-Forwarded-Proto $scheme;',
  // MCP answers are event streams, sent as they are written; request bodies are small and bounded by the gateway.
  'proxy_buffering off;',
  'proxy_request_buffering off;',
  'proxy_read_timeout 1h;',
  // The gateway's own answers, errors included, reach the client as they are.
  'proxy_intercept_errors off;',
]

function gatewayLocation(location: string): string[] {
  return [`  location ${location} {`, ...PROXY.map((line) => `    ${line}`), '  }']
}

export function nginxConfig(options: NginxOptions): string {
  if (options.upstreams.length === 0) throw new UsageError('at least one --upstream is needed', NGINX_USAGE)
  const routes = Object.entries(ROUTES) as [string, Route][]
  const types = Object.entries(CONTENT_TYPES).map(([ext, type]) => `    ${quote(type)} ${ext.slice(1)};`)
  return `${[
    '# Generated by build/deploy/nginx-config.ts from the route table (npm run nginx); do not edit.',
    '# For the http context: the build from disk, every route of the gateway to the gateways.',
    `map $sent_http_content_type ${CSP_VARIABLE} {`,
    `  ~^text/html ${quote(HTML_CSP)};`,
    `  default ${quote(DOCUMENT_CSP)};`,
    '}',
    '',
    `upstream ${UPSTREAM} {`,
    ...options.upstreams.map((u) => `  server ${u};`),
    '  keepalive 16;',
    '}',
    '',
    'server {',
    `  listen ${options.listen};`,
    `  root ${options.root};`,
    '  server_tokens off;',
    '  charset off;',
    '  index index.html;',
    `  client_max_body_size ${MAX_BODY};`,
    '  types {',
    ...types,
    '  }',
    '  default_type application/octet-stream;',
    '  # Another method than GET and HEAD on a file: the gateway answers its 405.',
    '  error_page 405 = @gateway;',
    '',
    '  # The routes the build answers with a file.',
    ...routes.filter(([, r]) => r.served === 'file').flatMap(([id, r]) => [`  # ${id}`, ...fileLocation(r)]),
    '',
    "  # The gateway's routes.",
    ...routes
      .filter(([, r]) => r.served === 'gateway')
      .flatMap(([id, r]) => [`  # ${id}`, ...gatewayLocation(locationOf(r))]),
    '',
    "  # Anything else, for the gateway's 404s (the build's internal files among them).",
    ...gatewayLocation('/'),
    ...gatewayLocation('@gateway'),
    '}',
  ].join('\n')}\n`
}

const NGINX = defineCommand({
  name: 'npm run nginx',
  summary: 'Print an nginx configuration for dist/ and the gateways behind it, from the route table.',
  options: {
    upstream: { type: 'string', value: 'HOST:PORT,…', help: 'the gateways nginx sends the dynamic routes to' },
    root: { type: 'string', value: 'DIR', help: 'where nginx finds dist/ (default /srv/content-api/dist)' },
    listen: { type: 'string', value: 'PORT', help: 'the port or address:port nginx listens on (default 8080)' },
  },
})

/** The options of the command line. */
export function nginxOptions(argv: string[]): NginxOptions {
  const { values } = parseCommand(NGINX, argv)
  const upstreams = (values.upstream ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
  for (const u of upstreams)
    if (!/^[\w.[\]:-]+:\d{1,5}$/.test(u)) throw new UsageError(`--upstream must be host:port, got "${u}"`, NGINX_USAGE)
  const listen = values.listen ?? '8080'
  if (!/^[\w.[\]:-]*\d{1,5}$/.test(listen)) throw new UsageError(`--listen must be a port or address:port`, NGINX_USAGE)
  const root = values.root ?? '/srv/content-api/dist'
  if (/[\s;{}"']/.test(root)) throw new UsageError('--root must be a path without spaces, quotes or ;{}', NGINX_USAGE)
  return { upstreams, root, listen }
}

if (process.argv[1] === import.meta.filename) {
  await runCli(async () => {
    if (parseCommand(NGINX, process.argv.slice(2)).help) return printHelp(NGINX)
    process.stdout.write(nginxConfig(nginxOptions(process.argv.slice(2))))
    return 0
  })
}
