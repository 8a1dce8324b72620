/**
 * Releases and expiries in the change feed, over a real git history: an item
 * committed before its published_at enters the log at its release time, and
 * only in a build whose clock has passed it; an item whose expires_at passes
 * leaves a tombstone at that time. A cursor from an earlier build sees each
 * once, later builds keep them, and a build as of a clock before the history
 * logs nothing its content does not publish.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANGE_LOG_FILE, type ChangeLog, changesEnvelope, decodeCursor } from '../../../contract/changes.ts'
import { DEFAULT_CHANGES_LIMIT } from '../../../contract/routes/search-changes-parameters.ts'
import type { Manifest } from '../../../contract/manifest.ts'
import { MANIFEST_FILE } from '../../../contract/paths.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { createProject, type TempProject } from '../../helpers/project.ts'

const T0 = Date.parse('2026-02-01T00:00:00Z') / 1000
const RELEASE = '2026-03-01T09:00:00Z'
const EXPIRY = '2026-03-15T00:00:00Z'

const post = (title: string, fields = '') => `---
title: ${title}
published_at: 2026-01-05
${fields}authors:
  - name: Zoë Tester
---
The body of ${title}.
`

let project: TempProject

/** Build as of `clock` and read the change log and the manifest it wrote. */
async function buildAsOf(clock: string): Promise<{ log: ChangeLog; manifest: Manifest }> {
  await buildSite({ root: project.root, cache: false, clock: () => Date.parse(clock) })
  const read = async <T>(file: string) => JSON.parse(await readFile(join(project.dist, file), 'utf8')) as T
  return { log: await read<ChangeLog>(CHANGE_LOG_FILE), manifest: await read<Manifest>(MANIFEST_FILE) }
}

const entries = (log: ChangeLog) => log.changes.map(([time, , change, , slug]) => `${change} ${slug} ${iso(time)}`)
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')
const since = (log: ChangeLog, cursor: string) =>
  changesEnvelope(log, () => undefined, { since: decodeCursor(cursor), limit: DEFAULT_CHANGES_LIMIT }).data.map(
    (e) => `${e.change} ${e.slug} ${e.changed_at}`,
  )
const cursorOf = (log: ChangeLog) =>
  changesEnvelope(log, () => undefined, { since: undefined, limit: DEFAULT_CHANGES_LIMIT }).meta.next_cursor

beforeAll(async () => {
  project = await createProject({
    'content/blog-posts/alpha.md': post('Alpha'),
    'content/blog-posts/launch.md': post('Launch', `published_at: ${RELEASE}\n`).replace(
      'published_at: 2026-01-05\n',
      '',
    ),
    'content/blog-posts/replay.md': post('Replay', `expires_at: ${EXPIRY}\n`),
  })
  await initAndCommit(project.root, T0)
})
afterAll(() => project?.remove())

describe('releases and expiries in the change feed', () => {
  it('logs a scheduled item at its release, in the first build whose clock passed it, and an expiry as a tombstone at its time', async () => {
    const before = await buildAsOf('2026-02-10T00:00:00Z')
    expect(entries(before.log)).toEqual(['created alpha 2026-02-01T00:00:00Z', 'created replay 2026-02-01T00:00:00Z'])
    expect(before.manifest.build).toMatchObject({
      next_release_at: RELEASE,
      last_release_at: '2026-01-05T00:00:00Z',
      counts: { 'blog-posts': 2 },
    })
    const afterCommit = cursorOf(before.log)

    const released = await buildAsOf('2026-03-05T00:00:00Z')
    expect(entries(released.log)).toEqual([
      'created alpha 2026-02-01T00:00:00Z',
      'created replay 2026-02-01T00:00:00Z',
      `created launch ${RELEASE}`,
    ])
    expect(released.manifest.build).toMatchObject({ next_release_at: EXPIRY, last_release_at: RELEASE })
    // A client that synced before the release learns of it, once.
    expect(since(released.log, afterCommit)).toEqual([`created launch ${RELEASE}`])
    const afterRelease = cursorOf(released.log)

    const expired = await buildAsOf('2026-03-20T00:00:00Z')
    expect(entries(expired.log)).toEqual([
      'created alpha 2026-02-01T00:00:00Z',
      'created replay 2026-02-01T00:00:00Z',
      `created launch ${RELEASE}`,
      `deleted replay ${EXPIRY}`,
    ])
    expect(expired.manifest.build).toMatchObject({ next_release_at: null, counts: { 'blog-posts': 2 } })
    expect(since(expired.log, afterRelease)).toEqual([`deleted replay ${EXPIRY}`])
    expect(since(expired.log, afterCommit)).toEqual([`created launch ${RELEASE}`, `deleted replay ${EXPIRY}`])
    // Positions only ever grow: every cursor handed out before stays before what came after it.
    const positions = expired.log.changes.map(([time, seq]) => time * 1e6 + seq)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
  })

  it('keeps the release and the tombstone when later commits come, and logs an uncommitted scheduled file at its release', async () => {
    await project.write('content/blog-posts/alpha.md', post('Alpha, edited'))
    await commitAll(project.root, 'edit alpha', T0 + 60 * 86_400)
    await project.write(
      'content/blog-posts/encore.md',
      post('Encore', 'published_at: 2026-05-01T12:00:00Z\n').replace('published_at: 2026-01-05\n', ''),
    )
    const { log, manifest } = await buildAsOf('2026-05-02T00:00:00Z')
    expect(entries(log)).toEqual([
      'created alpha 2026-02-01T00:00:00Z',
      'created replay 2026-02-01T00:00:00Z',
      `created launch ${RELEASE}`,
      `deleted replay ${EXPIRY}`,
      'updated alpha 2026-04-02T00:00:00Z',
      'created encore 2026-05-01T12:00:00Z',
    ])
    expect(manifest.build.next_release_at).toBeNull()
    const { log: earlier } = await buildAsOf('2026-04-20T00:00:00Z')
    expect(entries(earlier).at(-1)).toBe('updated alpha 2026-04-02T00:00:00Z')
  })

  it('logs an uncommitted edit (npm run dev) of an item released since the last commit as an update after every cursor', async () => {
    await commitAll(project.root, 'encore', T0 + 68 * 86_400)
    const { log } = await buildAsOf('2026-05-02T00:00:00Z')
    expect(entries(log).at(-1)).toBe('created encore 2026-05-01T12:00:00Z')
    const cursor = cursorOf(log)
    const path = 'content/blog-posts/encore.md'
    await project.write(path, (await readFile(join(project.root, path), 'utf8')).replace('Encore', 'Encore, edited'))
    const { log: edited } = await buildAsOf('2026-05-03T00:00:00Z')
    expect(since(edited, cursor)).toEqual(['updated encore 2026-05-01T12:00:00Z'])
  })

  it('logs nothing the content does not publish when built as of a clock before the history', async () => {
    // Alpha is published 2026-01-05 but was committed 2026-02-01: as of 2026-01-01 it is scheduled.
    const { log, manifest } = await buildAsOf('2026-01-01T00:00:00Z')
    expect(manifest.build.counts['blog-posts']).toBe(0)
    expect(manifest.build.next_release_at).toBe('2026-01-05T00:00:00Z')
    expect(log.changes).toEqual([])
  })
})
