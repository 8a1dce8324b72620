/**
 * What changed between two OpenAPI documents, as integrators see it: each
 * change of an operation (its parameters, bodies, answers and their fields)
 * classified by api-smart-diff, a maintained diff of OpenAPI 3.0 and 3.1
 * (breaking, non-breaking, deprecated, annotation), named by operation and
 * place (`GET /api/blog-posts: [Removed] property \`title\` from \`data[]\`
 * in Response 200 content`). Components are compared where operations use
 * them, so a schema change appears once per operation it reaches.
 */
import { apiCompare, type Diff } from 'api-smart-diff'

export type ChangeKind = 'added' | 'changed' | 'deprecated' | 'removed'

export interface Change {
  kind: ChangeKind
  breaking: boolean
  /** The operation, `GET /api/blog-posts`, or the document part, `info.version`. */
  subject: string
  /** What the diff tool says changed there. */
  description: string
}

export interface Comparison {
  changes: Change[]
  breaking: Change[]
}

const OPERATION_PARTS = new Set(['paths', 'webhooks'])

/** The changes from `before` to `after` (OpenAPI documents as JSON values). */
export function compareDocuments(before: unknown, after: unknown): Comparison {
  // Copies: the tool writes into the documents it compares.
  const { diffs } = apiCompare(structuredClone(before), structuredClone(after))
  const seen = new Set<string>()
  const changes: Change[] = []
  for (const diff of diffs) {
    // Operations only: a component's own diff repeats what the operations using it show (or nothing, if none does);
    // a changed description or example (an annotation) changes no client.
    if (!OPERATION_PARTS.has(String(diff.path[0])) || diff.type === 'annotation') continue
    const change = changeOf(diff)
    const key = `${change.subject}\0${change.description}`
    if (seen.has(key)) continue
    seen.add(key)
    changes.push(change)
  }
  return { changes, breaking: changes.filter((c) => c.breaking) }
}

function changeOf(diff: Diff): Change {
  const [part, path, method] = diff.path.map(String)
  const subject =
    method && part === 'paths' ? `${method.toUpperCase()} ${path}` : part === 'webhooks' ? `webhook ${path}` : path!
  return {
    kind: kindOf(diff),
    breaking: diff.type === 'breaking',
    subject,
    description: (diff.description ?? `${diff.action} ${diff.path.slice(3).join('.')}`) + removedValue(diff),
  }
}

/** The value a diff took out of a list of values (a field of `fields=`, an enum's value), which its own words leave out. */
function removedValue(diff: Diff): string {
  return diff.action === 'remove' && diff.path.includes('enum') && typeof diff.before === 'string'
    ? `: \`${diff.before}\` removed`
    : ''
}

/** Where a whole thing is added or removed: an operation, a parameter, a field, a value, a media type, an answer. */
const WHOLE = new Set(['properties', 'parameters', 'enum', 'content', 'responses'])

function kindOf(diff: Diff): ChangeKind {
  if (diff.type === 'deprecated') return 'deprecated'
  const whole = diff.path.length === 3 || WHOLE.has(String(diff.path.at(-2)))
  if (diff.action === 'add' && whole && diff.type !== 'breaking') return 'added'
  if (diff.action === 'remove' && whole) return 'removed'
  return 'changed'
}

/** One line per change, for a terminal or a CI log. */
export function describeChanges(changes: readonly Change[]): string[] {
  return changes.map((c) => `${c.subject}: ${c.description}${c.breaking ? ' (breaking)' : ''}`)
}
