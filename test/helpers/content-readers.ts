/**
 * Where the code the tests run could reach the repository's content/ (where
 * authors work) instead of the tests' own fixture content: the test files and
 * every module they reach — by import, or by naming a script they run (the
 * bench, the commands) — scanned for a path into the repository's content/,
 * written any of the ways this code base writes paths. A heuristic over the
 * source (test/own-content.test.ts shows the property itself, with an invalid
 * draft in a copy of the repository), kept honest by a test of its own.
 */
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { REPO_ROOT } from './project.ts'

/** The code's folders: a script named by a path under one of them is code the tests may run. */
const CODE = '(?:bench|build|contract|gateway|test)'
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g
const SCRIPT = new RegExp(String.raw`['"\x60](?:\.\/)?(${CODE}\/[\w./-]+?\.(?:ts|mjs|sh))['"\x60]`, 'g')
const SCRIPT_SEGMENTS = new RegExp(String.raw`['"](${CODE})['"]\s*,\s*['"]([\w.-]+\.(?:ts|mjs|sh))['"]`, 'g')

/** The ways a path into the repository's content/ is written, each with what it means. */
const PATTERNS: readonly [RegExp, string][] = [
  [/\b\w*ROOT\b\s*,\s*['"`]content\b/, "the repository root joined with 'content'"],
  [/\$\{\s*\w*ROOT\s*\}\/content\b/, 'the repository root followed by /content'],
  // (Not a module of gateway/content/, which an import names by its file.)
  [/['"`](?:\.{1,2}\/)+content(?:\/(?![^'"`]*\.(?:ts|mjs|js)['"`])[^'"`]*)?['"`]/, 'a relative path to content/'],
  [/process\.cwd\(\)\s*,\s*['"`]content\b/, "the working folder joined with 'content'"],
  [/['"]--root['"]\s*,\s*\w*ROOT\b/, 'a command given the repository as its project'],
  [
    /['"](?:cli['"]\s*,\s*['"](?:build|check)|run['"]\s*,\s*['"](?:build|check|dev))['"](?![^\]]*--root)/,
    "a content command without --root (the working folder's content/)",
  ],
]
const SHELL_PATTERNS: readonly [RegExp, string][] = [
  [/(?:^|\s)["']?(?:\.\/)?content(?:\/\S*)?["']?(?=\s|$)/, 'content/ of the working folder'],
  [/\b(?:cli\.ts|run\.mjs\s+cli)\s+(?:build|check)\b(?!.*--root)/, 'a content command without --root'],
]

/** Every test file, and every module or script they reach. */
export async function filesTheTestsLoad(): Promise<string[]> {
  const tests = (await readdir(join(REPO_ROOT, 'test'), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && /\.(ts|mjs|sh)$/.test(e.name) && !e.parentPath.includes('/fixtures'))
    .map((e) => join(e.parentPath, e.name))
  const seen = new Set(tests)
  const queue = [...tests]
  while (queue.length > 0) {
    const file = queue.pop()!
    for (const next of reached(file, await readFile(file, 'utf8')))
      if (!seen.has(next) && existsSync(next)) {
        seen.add(next)
        queue.push(next)
      }
  }
  return [...seen].sort()
}

function reached(file: string, text: string): string[] {
  const code = withoutComments(text, file)
  return [
    ...[...code.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1]!)),
    ...[...code.matchAll(SCRIPT)].map((m) => join(REPO_ROOT, m[1]!)),
    ...[...code.matchAll(SCRIPT_SEGMENTS)].map((m) => join(REPO_ROOT, m[1]!, m[2]!)),
  ]
}

/** `path:line: what` for each line of `text` (the file at `path`) that writes a path into the repository's content/. */
export function pathsIntoContent(path: string, text: string): string[] {
  const patterns = path.endsWith('.sh') ? SHELL_PATTERNS : PATTERNS
  const found: string[] = []
  for (const [i, line] of withoutComments(text, path).split('\n').entries())
    for (const [pattern, what] of patterns)
      if (pattern.test(line)) found.push(`${relative(REPO_ROOT, path) || path}:${i + 1}: ${what}: ${line.trim()}`)
  return found
}

/** The code without its comments, line for line (comments say "content/" in prose). */
function withoutComments(text: string, path: string): string {
  if (path.endsWith('.sh')) return text.replace(/(^|\s)#.*$/gm, '$1')
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))
    .replace(/(^|[\s;{}(),])\/\/.*$/gm, '$1')
}
