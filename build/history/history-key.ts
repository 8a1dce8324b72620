/**
 * What decides content/'s history, without reading it: kept apart from
 * git-history.ts so the no-change check (build/compiler/inputs.ts) loads
 * neither the replay nor a YAML parser.
 */
import { git, type GitResult } from './git.ts'

export const CONTENT = 'content/'

/**
 * What decides the history: the last commit that touched content/ (its
 * first-parent ancestry is the rest) and whether the clone is shallow. Part
 * of the build's input hash, so a commit makes the next build run again.
 */
export async function historyKey(root: string, shallowAnswer = askShallow(root)): Promise<string> {
  const [last, shallow] = await Promise.all([
    git(root, ['log', '-1', '--first-parent', '--format=%H', '--', CONTENT]),
    shallowAnswer,
  ])
  if (!last.ok) return `none:${last.reason}`
  if (!shallow.ok) return `none:${shallow.reason}`
  return `git:${last.stdout.toString().trim()}:${shallow.stdout.toString().trim()}`
}

/** Whether the clone is shallow, as git answers: the key's and the history's (asked once for both). */
export function askShallow(root: string): Promise<GitResult> {
  return git(root, ['rev-parse', '--is-shallow-repository'])
}
