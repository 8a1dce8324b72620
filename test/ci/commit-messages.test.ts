/**
 * Commit messages people can scan (`git log --oneline`): every commit since
 * the rule was made has a subject of at most 72 characters, written in the
 * imperative and without a closing full stop, and, unless it is a merge, a
 * body after a blank line with the details. The history before stays as it is.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/project.ts'

const git = (...args: string[]) => promisify(execFile)('git', args, { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 })

/** The first commit made under the rule. */
const SINCE = 'be058ff'
/** Commits that went in with a subject only (two of the rule's first day, eight of merged branches); history is not rewritten. */
const WITHOUT_BODY = new Set([
  'b0e9047',
  'b120591',
  '8da7202',
  '1dd2502',
  '68026dc',
  'b0ed3a4',
  'fb03479',
  '6e3ff3c',
  'e13676a',
  'a23ef10',
])
/** Subjects in the past tense or a gerund, not the imperative ("Added …", "Fixing …"). */
const NOT_IMPERATIVE =
  /^(?:Add|Fix|Updat|Remov|Chang|Mov|Renam|Test|Document|Keep|Mak|Show|Refactor)(?:ed|ing)\b|^Made\b|^Kept\b/

interface Commit {
  hash: string
  subject: string
  body: string
  merge: boolean
}

async function commitsSince(base: string): Promise<Commit[]> {
  const { stdout } = await git('log', '--format=%h%x00%s%x00%b%x00%p%x01', `${base}^..HEAD`)
  return stdout
    .split('\x01')
    .map((entry) => entry.replace(/^\n/, ''))
    .filter(Boolean)
    .map((entry) => {
      const [hash = '', subject = '', body = '', parents = ''] = entry.split('\x00')
      return { hash, subject, body: body.trim(), merge: parents.trim().split(' ').length > 1 }
    })
}

describe('commit messages', () => {
  it('since the rule: a subject of at most 72 characters in the imperative, then a body', async () => {
    // A shallow clone lacks the history this reads: CI clones in full (REQUIRE_HISTORY=on needs it too).
    await expect(git('cat-file', '-e', `${SINCE}^{commit}`), `${SINCE} is not in this clone`).resolves.toBeDefined()
    const commits = await commitsSince(SINCE)
    expect(commits.length).toBeGreaterThan(10)
    const wrong = commits.flatMap((c) => {
      const problems: string[] = []
      if (c.subject.length > 72) problems.push(`a subject of ${c.subject.length} characters`)
      if (c.subject.endsWith('.')) problems.push('a subject ending in a full stop')
      if (!/^[A-Z]/.test(c.subject)) problems.push('a subject not starting with a capital')
      if (NOT_IMPERATIVE.test(c.subject) && !c.merge) problems.push('a subject not in the imperative')
      if (!c.merge && !c.body && !WITHOUT_BODY.has(c.hash.slice(0, 7))) problems.push('no body')
      return problems.map((p) => `${c.hash} "${c.subject}": ${p}`)
    })
    expect(wrong).toEqual([])
  })
})
