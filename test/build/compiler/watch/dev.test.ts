/**
 * `npm run dev` keeps feeds, calendars and the change feed current: an edit
 * and a removal in a git project are served once edits settle, from the same
 * compiler as `npm run build` (and dist/ then holds the same bytes).
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChangesEnvelope } from '../../../../contract/changes.ts'
import { buildSite } from '../../../../build/compiler/build.ts'
import { startDev, type DevServer } from '../../../../gateway/dev-server.ts'
import { hashTree } from '../../../helpers/files.ts'
import { initAndCommit } from '../../../helpers/git.ts'
import { copyOfFixtureContent, type TempProject } from '../../../helpers/project.ts'
import { answerAt, until } from '../../../helpers/until.ts'

const EVENT = 'content/events/contracts-hackathon-2027.md'
const WEBINAR = 'content/webinars/lineage-for-incident-response.md'

describe('npm run dev: feeds, calendars and changes', () => {
  let project: TempProject
  let dev: DevServer
  const printed: string[] = []
  const text = async (path: string) => (await fetch(`${dev.url}${path}`)).text()
  const changes = async (query = '') => JSON.parse(await text(`/api/changes${query}`)) as ChangesEnvelope
  /**
   * Wait until `check` holds for what `path` serves (file events and the full pass take their
   * time on a loaded machine; settled() alone can return between an event and its pass).
   */
  async function served(path: string, check: (status: number, body: string) => boolean): Promise<void> {
    await until(
      async () => {
        await dev.settled()
        return answerAt(`${dev.url}${path}`)
      },
      { holds: ({ status, body }) => check(status, body), what: path },
    )
  }

  beforeAll(async () => {
    project = await copyOfFixtureContent()
    await initAndCommit(project.root, 1_767_225_600)
    dev = await startDev({ root: project.root, port: 0, settleMs: 50, print: (line) => printed.push(line) })
    await dev.settled()
  })
  afterAll(async () => {
    await dev?.close()
    await project?.remove()
  })

  it('serves an edited event in its calendars, its feed and the change feed', async () => {
    const cursor = (await changes()).meta.next_cursor
    const source = await readFile(join(project.root, EVENT), 'utf8')
    await writeFile(join(project.root, EVENT), source.replace(/^title: .*$/m, 'title: Hackathon (edited live)'))
    await served(`/api/changes?since=${cursor}`, (_, body) => body.includes('contracts-hackathon-2027'))
    await served('/feeds/events.atom', (_, body) => body.includes('Hackathon (edited live)'))
    expect(await text('/calendar/events/contracts-hackathon-2027.ics')).toContain('SUMMARY:Hackathon (edited live)')
    expect(await text('/calendar/events.ics')).toContain('SUMMARY:Hackathon (edited live)')
    expect(await text('/feeds/events.atom')).toContain('<title>Hackathon (edited live)</title>')
    const since = await changes(`?since=${cursor}`)
    expect(since.data.map((e) => `${e.change} ${e.slug}`)).toEqual(['updated contracts-hackathon-2027'])
    expect(since.meta.history).toBe('git')
  })

  it('serves a removed webinar as a tombstone and drops it from its calendar; dist/ is what npm run build writes', async () => {
    const cursor = (await changes()).meta.next_cursor
    const title = /^title: (.*)$/m.exec(await readFile(join(project.root, WEBINAR), 'utf8'))![1]!
    expect(await text('/calendar/webinars.ics')).toContain(`SUMMARY:${title}`)
    await rm(join(project.root, WEBINAR))
    await served(`/api/changes?since=${cursor}`, (_, body) => body.includes('lineage-for-incident-response'))
    expect((await fetch(`${dev.url}/calendar/webinars/lineage-for-incident-response.ics`)).status).toBe(404)
    expect(await text('/calendar/webinars.ics')).not.toContain(`SUMMARY:${title}`)
    const since = await changes(`?since=${cursor}`)
    expect(since.data.map((e) => `${e.change} ${e.slug}`)).toEqual(['deleted lineage-for-incident-response'])
    await dev.settled()
    const written = await hashTree(project.dist)
    const fresh = { ...project, dist: join(project.root, 'fresh-dist') }
    await buildSite({ root: project.root, distDir: fresh.dist, cache: false, force: true, apiOrigin: dev.apiOrigin })
    expect(await hashTree(fresh.dist)).toEqual(written)
    expect(printed.filter((line) => line.startsWith('!'))).toEqual([])
  })
})
