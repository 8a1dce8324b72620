/**
 * The API's lifecycle, published: the changelog page (docs/changelog.html:
 * the versioning policy, the deprecations in force with their sunset and
 * replacement, every release's additions, changes, deprecations and
 * removals), the same as JSON (docs/changelog.json), and the client types
 * generated from the released document (docs/content-api.d.ts). The
 * changelog and the types are written by `npm run api:release`
 * (contract/released/); the deprecations come from the document itself.
 */
import { readFileSync } from 'node:fs'
import MarkdownIt from 'markdown-it'
import { page } from '../../contract/html.ts'
import {
  API_VERSION,
  CHANGELOG_JSON_PATH,
  CHANGELOG_PAGE_PATH,
  CLIENT_TYPES_PATH,
  versionPolicy,
} from '../../contract/lifecycle.ts'
import type { DeprecationNotice } from '../../contract/routes/deprecation.ts'
import { CLIENT_TYPES_FILE, readChangelog, type Release } from '../lifecycle/released.ts'
import { documentDeprecations } from '../openapi/lifecycle.ts'
import { createOpenApiDocument } from '../openapi/document.ts'
import type { Emitter } from './types.ts'

const STYLE =
  '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f2f2f2;padding:0 .2em}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}</style>\n'

// No raw HTML: a line of the changelog that holds `<` shows it.
const markdown = new MarkdownIt({ html: false, linkify: false })

const KINDS = ['breaking', 'added', 'changed', 'deprecated', 'removed'] as const

/** The changelog as Markdown: policy, deprecations in force, releases newest first. */
export function changelogMarkdown(deprecations: readonly DeprecationNotice[], releases: readonly Release[]): string {
  const inForce =
    deprecations.length === 0
      ? 'Nothing is deprecated in this version.'
      : `| what | deprecated since | may be removed after | use instead |\n|---|---|---|---|\n${deprecations
          .map((d) => `| ${cell(d.subject)} | ${d.since} | ${d.sunset ?? '—'} | ${cell(d.replacement ?? '—')} |`)
          .join('\n')}`
  const history = releases.map((r) => {
    const sections = KINDS.filter((kind) => (r[kind]?.length ?? 0) > 0).map(
      (kind) => `**${kind[0]!.toUpperCase()}${kind.slice(1)}**\n\n${r[kind]!.map((line) => `- ${line}`).join('\n')}`,
    )
    return `### ${r.version} (${r.date})\n\n${sections.join('\n\n') || 'No change to operations.'}`
  })
  return `# API changelog

The API serves version **${API_VERSION}**. This page as JSON: [${CHANGELOG_JSON_PATH}](${CHANGELOG_JSON_PATH}); TypeScript types of the released version: [${CLIENT_TYPES_PATH}](${CLIENT_TYPES_PATH}).

${versionPolicy()}
## Deprecations {#deprecations}

${inForce}

## Releases

${history.join('\n\n')}
`
}

/** A table cell: no line breaks, no pipes. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|')

function changelogPage(source: string): string {
  // `{#id}` after a heading names its anchor (the deprecation Link header points at #deprecations).
  const html = markdown
    .render(source)
    .replace(/<h2>(.*?) \{#([a-z-]+)\}<\/h2>/g, (_, title: string, id: string) => `<h2 id="${id}">${title}</h2>`)
  return page(
    'API changelog',
    `<main>\n${html}<p><a href="/docs/">API reference</a> · <a href="/openapi.json">OpenAPI description</a></p>\n</main>`,
    STYLE,
  )
}

export const emitLifecycle = {
  name: 'lifecycle',
  input: 'site',
  emit(content) {
    const deprecations = documentDeprecations(createOpenApiDocument(content.site))
    const { releases } = readChangelog()
    const json = { version: API_VERSION, deprecations, releases }
    return {
      [CHANGELOG_PAGE_PATH.slice(1)]: changelogPage(changelogMarkdown(deprecations, releases)),
      [CHANGELOG_JSON_PATH.slice(1)]: `${JSON.stringify(json, null, 2)}\n`,
      [CLIENT_TYPES_PATH.slice(1)]: readFileSync(CLIENT_TYPES_FILE, 'utf8'),
    }
  },
} satisfies Emitter
