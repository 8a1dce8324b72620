/**
 * openapi.json, and one page per problem type so every `type` URI of a
 * problem answer (`/problems/<name>`) dereferences to its description.
 */
import { PROBLEM_TYPES, problemTypeUri, type ProblemName } from '../../contract/problems.ts'
import { createOpenApiDocument } from '../openapi/document.ts'
import { codeSpans, escapeHtml, page } from '../../contract/html.ts'
import type { Emitter } from './types.ts'

const OPENAPI_FILE = 'openapi.json'

const STYLE =
  '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f2f2f2;padding:0 .2em}</style>\n'

function problemPage(name: ProblemName): string {
  const { status, title, description } = PROBLEM_TYPES[name]
  return page(
    `${title} (${status}) — problem type`,
    `<main>
<h1>${escapeHtml(title)}</h1>
<p>Problem type <code>${problemTypeUri(name)}</code>, HTTP status ${status}.</p>
<p>${codeSpans(description)}</p>
<p>Answers with this type are RFC 9457 <code>application/problem+json</code> bodies: <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> (what went wrong with this request), <code>instance</code> and, for invalid parameters, <code>errors</code>.</p>
<p><a href="/docs/">API reference</a> · <a href="/openapi.json">OpenAPI description</a></p>
</main>`,
    STYLE,
  )
}

export const emitOpenApi = {
  name: 'openapi',
  input: 'site',
  emit(content) {
    const files: Record<string, string> = {
      [OPENAPI_FILE]: `${JSON.stringify(createOpenApiDocument(content.site), null, 2)}\n`,
    }
    for (const name of Object.keys(PROBLEM_TYPES) as ProblemName[]) files[`problems/${name}.html`] = problemPage(name)
    return files
  },
} satisfies Emitter
