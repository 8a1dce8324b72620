/**
 * The watch mode on a multilingual site: editing, adding and removing a
 * translation (beside its item, and in the item's folder) is served at once,
 * and the edit's author error names the file.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDev, type DevServer } from '../../../../gateway/dev-server.ts'
import { copyOfLocaleFixture, type TempProject } from '../../../helpers/project.ts'
import { answerAt, until } from '../../../helpers/until.ts'

const post = (title: string, extra = '') =>
  `---\ntitle: ${title}\npublished_at: 2026-01-05\nauthors:\n  - name: A\n${extra}---\nText von ${title}.\n`

describe('npm run dev with translations', () => {
  let project: TempProject
  let dev: DevServer
  const printed: string[] = []
  const served = (path: string, check: (status: number, body: string) => boolean) =>
    until(() => answerAt(`${dev.url}${path}`), {
      holds: ({ status, body }) => check(status, body),
      what: path,
      timeoutMs: 5000,
      everyMs: 20,
    })

  beforeAll(async () => {
    project = await copyOfLocaleFixture()
    dev = await startDev({ root: project.root, port: 0, print: (line) => printed.push(line) })
  })
  afterAll(async () => {
    await dev?.close()
    await project?.remove()
  })

  it('an edited translation is served in its locale, the default item untouched', async () => {
    await writeFile(
      join(project.root, 'content/blog-posts/datenqualitaet-im-mittelstand.de.md'),
      post('Datenqualität im Mittelstand, überarbeitet'),
    )
    await served('/api/blog-posts/datenqualitaet-im-mittelstand?locale=de', (_, body) => body.includes('überarbeitet'))
    const list = await (await fetch(`${dev.url}/api/blog-posts?locale=de&limit=100`)).text()
    expect(list).toContain('überarbeitet')
  })

  it('a translation asked for before and after each edit is served as edited, by its slug and its item’s', async () => {
    // Each edit makes a snapshot whose item index is the last one with the edited record in it (itemIndexAfter).
    const file = join(project.root, 'content/blog-posts/data-contracts-in-ci.de.md')
    const text = await readFile(file, 'utf8')
    for (const title of ['Datenverträge, erste Fassung', 'Datenverträge, zweite Fassung']) {
      await served('/api/blog-posts/datenvertraege-in-der-ci?locale=de', (status) => status === 200)
      await writeFile(file, text.replace(/^title: .*$/m, `title: ${title}`))
      await served('/api/blog-posts/datenvertraege-in-der-ci?locale=de', (_, body) => body.includes(title))
      const byItemSlug = await (await fetch(`${dev.url}/api/blog-posts/data-contracts-in-ci?locale=de`)).text()
      expect(byItemSlug).toContain(title)
      const english = await (await fetch(`${dev.url}/api/blog-posts/data-contracts-in-ci`)).text()
      expect(english).not.toContain(title)
    }
  })

  it('a new translation in an item folder appears, names the item, and goes when removed', async () => {
    const folder = join(project.root, 'content/blog-posts/dbt-tests-are-not-enough')
    await mkdir(folder, { recursive: true })
    await writeFile(join(folder, 'index.fr.md'), post('Les tests dbt ne suffisent pas', 'slug: tests-dbt\n'))
    await served('/api/blog-posts/tests-dbt?locale=fr', (status) => status === 200)
    await served('/api/blog-posts/dbt-tests-are-not-enough', (_, body) => body.includes('"slug":"tests-dbt"'))
    await rm(join(folder, 'index.fr.md'))
    await served('/api/blog-posts/tests-dbt?locale=fr', (status) => status === 404)
  })

  it('an unknown locale in a new file name is an author error naming the file', async () => {
    const file = join(project.root, 'content/blog-posts/data-contracts-in-ci.it.md')
    await writeFile(file, post('Contratti di dati'))
    await until(() => printed.find((l) => l.includes('content/blog-posts/data-contracts-in-ci.it.md:1:1 locale')), {
      what: 'the error line',
      timeoutMs: 5000,
      everyMs: 20,
    })
    await rm(file)
  })
})
