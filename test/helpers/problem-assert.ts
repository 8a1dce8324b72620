/** Checks shared by the reliability tests: what every error answer and every body must look like. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROBLEM_TYPES } from '../../contract/problems.ts'
import { REPO_ROOT } from './project.ts'

const KNOWN_TYPES = new Set(Object.keys(PROBLEM_TYPES).map((n) => `/problems/${n}`))

/** Why `text` is not a valid RFC 9457 problem of this project for `status`, or undefined when it is. */
export function problemDefect(status: number, contentType: string | null, text: string): string | undefined {
  if (!contentType?.startsWith('application/problem+json')) return `content-type ${contentType}`
  let body: Record<string, unknown>
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    return `not JSON: ${text.slice(0, 120)}`
  }
  if (typeof body.type !== 'string' || !KNOWN_TYPES.has(body.type)) return `unknown type ${String(body.type)}`
  if (body.status !== status) return `status ${String(body.status)} in the body, ${status} on the wire`
  if (typeof body.title !== 'string' || typeof body.detail !== 'string') return 'title or detail missing'
  if (/\.(ts|js|mjs|cjs):\d+:\d+|\n\s+at |\(node:/.test(text)) return 'stack trace in the body'
  return undefined
}

/**
 * Markers of files that must never be served: the repository's package.json,
 * the system's passwd file and the project's own source. A body containing any
 * of them means a path escaped dist/.
 */
export const FORBIDDEN_MARKERS: string[] = [
  '"devDependencies"',
  'root:x:0:0',
  'export function createApp',
  readFileSync(join(REPO_ROOT, 'tsconfig.json'), 'utf8').slice(0, 60),
]

export function leakedMarker(text: string): string | undefined {
  return FORBIDDEN_MARKERS.find((m) => text.includes(m))
}
