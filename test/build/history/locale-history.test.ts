/**
 * The change logs per locale over a real git history: translations beside
 * an item (`alpha.de.md`) and in an item's folder (`bravo/index.de.md`) are
 * added, edited, given a new slug, removed and made a draft in later commits;
 * each locale's log (and the default's, whose records name their
 * translations) says what its readers saw change, and the first page of each
 * is pre-rendered.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { recordId } from '../../../build/pipeline/derive.ts'
import { CHANGE_LOG_FILE, CHANGES_FILE, type ChangeLog, type ChangesEnvelope } from '../../../contract/changes.ts'
import { localeChangeLogFile, localeChangesFile } from '../../../contract/paths.ts'
import { commitAll, git, initAndCommit } from '../../helpers/git.ts'
import { createProject, SITE_YAML, validPost, type TempProject } from '../../helpers/project.ts'

const T1 = 1_769_904_000 // 2026-02-01T00:00:00Z, after the posts' published_at
const T2 = T1 + 86_400
const T3 = T2 + 86_400
const T4 = T3 + 86_400
const MULTILINGUAL = `${SITE_YAML}language: en\nlocales: [en, de, fr]\nlocale_fallback: [de]\n`

let project: TempProject
const logs: Record<string, ChangeLog> = {}

/** A log as `<time> <change> <slug>@<locale>` lines (the default log's records are all the default locale's). */
const lines = (log: ChangeLog) =>
  log.changes.map(
    ([time, , change, , slug, , locale]) =>
      `T${[T1, T2, T3, T4].indexOf(time) + 1} ${change} ${slug}@${locale ?? 'en'}`,
  )
const read = async <T>(file: string) => JSON.parse(await readFile(join(project.dist, file), 'utf8')) as T

beforeAll(async () => {
  project = await createProject({
    'content/site.yaml': MULTILINGUAL,
    'content/blog-posts/alpha.md': validPost('Alpha'),
    'content/blog-posts/bravo/index.md': validPost('Bravo'),
  })
  await initAndCommit(project.root, T1)
  await project.write('content/blog-posts/alpha.de.md', validPost('Alpha auf Deutsch', 'slug: alpha-de\n'))
  await project.write('content/blog-posts/alpha.fr.md', validPost('Alpha en français', 'slug: alpha-fr\n'))
  await project.write('content/blog-posts/bravo/index.de.md', validPost('Bravo auf Deutsch'))
  await commitAll(project.root, 'translate alpha (de, fr) and bravo (de)', T2)
  await project.write(
    'content/blog-posts/alpha.de.md',
    validPost('Alpha auf Deutsch, überarbeitet', 'slug: alpha-de\n'),
  )
  await project.write('content/blog-posts/bravo/index.de.md', validPost('Bravo auf Deutsch', 'slug: bravo-neu\n'))
  await commitAll(project.root, 'edit alpha.de, a new slug for bravo.de', T3)
  await git(project.root, ['rm', '-q', 'content/blog-posts/alpha.de.md'])
  await project.write(
    'content/blog-posts/bravo/index.de.md',
    validPost('Bravo auf Deutsch', 'slug: bravo-neu\ndraft: true\n'),
  )
  await commitAll(project.root, 'remove alpha.de, bravo.de back to a draft', T4)
  const { warnings } = await buildSite({ root: project.root, cache: false })
  expect(warnings).toEqual([])
  logs.en = await read<ChangeLog>(CHANGE_LOG_FILE)
  for (const locale of ['de', 'fr']) logs[locale] = await read<ChangeLog>(localeChangeLogFile(locale))
}, 120_000)
afterAll(() => project?.remove())

describe('change logs per locale over a git history', () => {
  it('German (falls back to English): each translation replaces the English record it stood for, and back', () => {
    expect(logs.de!.locale).toBe('de')
    expect(lines(logs.de!)).toEqual([
      'T1 created alpha@en',
      'T1 created bravo@en',
      'T2 deleted alpha@en',
      'T2 deleted bravo@en',
      'T2 created alpha-de@de',
      'T2 created bravo@de',
      'T3 deleted bravo@de',
      'T3 updated alpha-de@de',
      'T3 created bravo-neu@de',
      'T4 deleted alpha-de@de',
      'T4 deleted bravo-neu@de',
      'T4 created alpha@en',
      'T4 created bravo@en',
    ])
  })

  it("French (no fallback): only its translation, updated when the item's German version comes and goes", () => {
    expect(lines(logs.fr!)).toEqual(['T2 created alpha-fr@fr', 'T4 updated alpha-fr@fr'])
  })

  it('English: its records are updated whenever their translations (hreflang data) change, and only then', () => {
    expect(logs.en!.locale).toBeUndefined()
    expect(lines(logs.en!)).toEqual([
      'T1 created alpha@en',
      'T1 created bravo@en',
      'T2 updated alpha@en',
      'T2 updated bravo@en',
      'T3 updated bravo@en',
      'T4 updated alpha@en',
      'T4 updated bravo@en',
    ])
  })

  it("names a translation by its own id (the locale's), a stand-in by the default record's", () => {
    const ids = new Map(logs.de!.changes.map(([, , , , slug, id, locale]) => [`${slug}@${locale}`, id]))
    expect(ids.get('alpha-de@de')).toBe(recordId('blog-posts', 'de/alpha-de'))
    expect(ids.get('alpha@en')).toBe(recordId('blog-posts', 'alpha'))
  })

  it("pre-renders each locale's first page: its records, their locale, links in the locale", async () => {
    const de = await read<ChangesEnvelope>(localeChangesFile('de'))
    expect(de.data.map((e) => [e.change, e.slug, e.locale, e.href])).toEqual([
      ['created', 'alpha', 'en', '/api/blog-posts/alpha?locale=de'],
      ['created', 'bravo', 'en', '/api/blog-posts/bravo?locale=de'],
    ])
    expect(de.meta.next_cursor).toMatch(/^de_/)
    expect(de.links).toEqual({
      self: '/api/changes?locale=de',
      next: `/api/changes?since=${de.meta.next_cursor}&locale=de`,
    })
    const en = await read<ChangesEnvelope>(CHANGES_FILE)
    expect(en.data.map((e) => [e.slug, e.locale, e.href])).toEqual([
      ['alpha', 'en', '/api/blog-posts/alpha'],
      ['bravo', 'en', '/api/blog-posts/bravo'],
    ])
    expect(en.meta.next_cursor).not.toMatch(/_/)
  })
})
