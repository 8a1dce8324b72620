/**
 * Edits on a multilingual site are linked by difference (locale-edit.ts):
 * after each edit of an item, a translation, or a file a translation
 * relates to, and after translations are added, removed or given another
 * slug, the watch mode's compiler holds exactly the content, and emits
 * exactly the files, that a fresh compiler over the same files does (and
 * finds the same errors).
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Compiler } from '../../../../build/compiler/compiler.ts'
import type { BuildOutput } from '../../../../build/compiler/emit-schedule.ts'
import { classify } from '../../../../build/core/sources.ts'
import { copyOfLocaleFixture, type TempProject } from '../../../helpers/project.ts'

let project: TempProject
let compiler: Compiler

const etags = (output: BuildOutput) => new Map([...output.files].map(([path, file]) => [path, file.etag]))

/** The content a compiler holds, as the emitters read it (its clock aside). */
function contentOf(compiler: Compiler): string {
  const state = compiler.current()
  if (!state.ok) throw new Error(state.errors.message)
  const { collections, summaries, locales, contentUpdatedAt } = state.content
  return JSON.stringify({ collections, summaries, locales, contentUpdatedAt })
}

/**
 * A fresh compiler over the project's files, as `npm run build` opens one: every file read and
 * compiled again, with the build caches (rendered bodies and processed images, content-addressed;
 * correctness never depends on them: render-cache.test.ts, the media tests), which it keeps for
 * the next. Only the watch compiler under test runs without them.
 */
async function freshCompiler(): Promise<Compiler> {
  const fresh = await Compiler.open({ root: project.root, offThread: false })
  await fresh.saveCache()
  return fresh
}

/** Write the files (null removes one), let the watch compiler take them, and compare it with a fresh one. */
async function expectLikeFresh(files: Record<string, string | null>): Promise<void> {
  for (const [path, text] of Object.entries(files))
    if (text === null) await rm(join(project.root, path))
    else await writeFile(join(project.root, path), text)
  const update = await compiler.update(Object.keys(files).map((f) => classify(project.root, join(project.root, f))!))
  const state = update?.state
  expect(state?.ok, state && !state.ok ? state.errors.message : '').toBe(true)
  const edited = (await compiler.emit('edit'))!
  const fresh = await freshCompiler()
  expect(contentOf(compiler)).toBe(contentOf(fresh))
  // What the edit emitted at once is the fresh build's; the rest (search index, feeds) waits for the full pass.
  const full = etags((await fresh.emit('full'))!)
  const served = etags(edited)
  for (const path of edited.changed) expect(served.get(path), path).toBe(full.get(path))
}

/** Write the files (null removes one): the watch compiler finds the errors a fresh one does. */
async function expectErrorsLikeFresh(files: Record<string, string | null>): Promise<string> {
  for (const [path, text] of Object.entries(files))
    if (text === null) await rm(join(project.root, path))
    else await writeFile(join(project.root, path), text)
  const update = await compiler.update(Object.keys(files).map((f) => classify(project.root, join(project.root, f))!))
  // Errors only: images are checked, not processed (as `npm run check` does; processing is most of a fresh open here).
  const fresh = (
    await Compiler.open({ root: project.root, cache: false, offThread: false, processMedia: false })
  ).current()
  const messages = (state: typeof fresh | undefined) =>
    state && !state.ok ? state.errors.lines().join('\n') : 'no errors'
  expect(messages(update?.state)).toBe(messages(fresh))
  return messages(fresh)
}

/** A file's text with `from` replaced by `to` (which must change it). */
async function changed(path: string, from: RegExp, to: string): Promise<string> {
  const text = await readFile(join(project.root, path), 'utf8')
  const next = text.replace(from, to)
  expect(next).not.toBe(text)
  return next
}

const title = /^title: .*$/m
const publishedAt = /^published_at: .*$/m

beforeAll(async () => {
  project = await copyOfLocaleFixture()
  compiler = await Compiler.open({ root: project.root, cache: false, offThread: false })
  await compiler.emit('full')
}, 60_000)
afterAll(() => project?.remove())

describe('an edit on a multilingual site is what a fresh compiler makes of it', () => {
  it('an item with translations: its title, then its date (it moves in every list)', async () => {
    const item = 'content/blog-posts/data-contracts-in-ci.md'
    await expectLikeFresh({ [item]: await changed(item, title, 'title: Contracts in CI, revised') })
    await expectLikeFresh({ [item]: await changed(item, publishedAt, 'published_at: 2024-01-02') })
  }, 120_000)

  it('an item a German translation relates to by fallback: the translation shows its new title', async () => {
    const item = 'content/blog-posts/dbt-tests-are-not-enough.md'
    await expectLikeFresh({ [item]: await changed(item, title, 'title: dbt tests, again') })
    const state = compiler.current()
    const german = state.ok ? state.content.locales?.de?.collections['blog-posts'] : []
    const relating = german?.find((r) => r.slug === 'datenvertraege-in-der-ci')
    expect(relating?.related?.map((r) => r.title)).toContain('dbt tests, again')
  }, 120_000)

  it('a translation: its title, a translation relating to it, and its date', async () => {
    const translation = 'content/blog-posts/tidewater-cloud-eu-region.de.md'
    await expectLikeFresh({ [translation]: await changed(translation, title, 'title: Die EU-Region, neu') })
    await expectLikeFresh({ [translation]: await changed(translation, publishedAt, 'published_at: 2023-02-03') })
    const other = 'content/blog-posts/data-contracts-in-ci.fr.md'
    await expectLikeFresh({ [other]: await changed(other, title, 'title: Contrats de données, revus') })
  }, 120_000)

  it('a post without translations, a translation added, given another slug, and removed', async () => {
    const post = 'content/blog-posts/why-freshness-slas-fail.md'
    await expectLikeFresh({ [post]: await changed(post, title, 'title: Freshness SLAs, revisited') })
    const added = 'content/blog-posts/why-freshness-slas-fail.fr.md'
    const french = (await readFile(join(project.root, post), 'utf8')).replace(title, 'title: Les SLA de fraîcheur')
    await expectLikeFresh({ [added]: french })
    await expectLikeFresh({ [added]: french.replace('---\n', '---\nslug: sla-de-fraicheur\n') })
    await expectLikeFresh({ [post]: await changed(post, title, 'title: Freshness SLAs, once more') })
    await expectLikeFresh({ [added]: null })
    await expectLikeFresh({ [post]: await changed(post, title, 'title: Freshness SLAs, at last') })
  }, 240_000)

  it('a translation taking another translation’s slug, or an untranslated item’s: the errors a fresh build finds', async () => {
    const translation = 'content/blog-posts/datenqualitaet-im-mittelstand.de.md'
    const text = await readFile(join(project.root, translation), 'utf8')
    const taking = (slug: string) => text.replace('---\n', `---\nslug: ${slug}\n`)
    expect(await expectErrorsLikeFresh({ [translation]: taking('datenvertraege-in-der-ci') })).toContain(
      'is already used by',
    )
    expect(await expectErrorsLikeFresh({ [translation]: taking('on-call-for-data-teams') })).toContain(
      'is the slug of content/blog-posts/on-call-for-data-teams.md',
    )
    expect(await expectErrorsLikeFresh({ [translation]: text })).toBe('no errors')
    await expectLikeFresh({ [translation]: text.replace(title, 'title: Datenqualität, wieder gültig') })
  }, 120_000)

  it('a translation’s links, checked by difference: the errors a fresh build finds after each edit', async () => {
    // The German post relates to a German translation and, by fallback, to an English item.
    const translation = 'content/blog-posts/data-contracts-in-ci.de.md'
    const target = 'content/blog-posts/tidewater-cloud-eu-region.de.md'
    const item = 'content/blog-posts/dbt-tests-are-not-enough.md'
    const read = (path: string) => readFile(join(project.root, path), 'utf8')
    const [own, theirs, its] = [await read(translation), await read(target), await read(item)]
    const related = /^related: .*$/m
    const drafted = (text: string) => text.replace('---\n', '---\ndraft: true\n')
    // How often the check's index of every item was made: only by the edits that change what it is keyed by.
    const made = () =>
      (compiler as unknown as { graph: { translationLinks: { made: number } } }).graph.translationLinks.made
    const start = made()
    expect(
      await expectErrorsLikeFresh({
        [translation]: await changed(translation, related, 'related: [blog-posts/gibt-es-nicht]'),
      }),
    ).toContain('blog-posts/gibt-es-nicht')
    expect(await expectErrorsLikeFresh({ [translation]: own })).toBe('no errors')
    // The item it falls back to: published later than the translation, then a draft.
    expect(await expectErrorsLikeFresh({ [item]: its.replace(publishedAt, 'published_at: 2031-01-01') })).not.toBe(
      'no errors',
    )
    expect(await expectErrorsLikeFresh({ [item]: its })).toBe('no errors')
    expect(made()).toBe(start)
    expect(await expectErrorsLikeFresh({ [item]: drafted(its) })).toContain('is a draft')
    expect(await expectErrorsLikeFresh({ [item]: its })).toBe('no errors')
    expect(made()).toBe(start + 2)
    // The translation it relates to: published later than the one relating to it, a draft, then back.
    expect(await expectErrorsLikeFresh({ [target]: theirs.replace(publishedAt, 'published_at: 2031-01-01') })).not.toBe(
      'no errors',
    )
    expect(await expectErrorsLikeFresh({ [target]: theirs })).toBe('no errors')
    expect(made()).toBe(start + 2)
    expect(await expectErrorsLikeFresh({ [target]: drafted(theirs) })).toContain('is a draft')
    expect(await expectErrorsLikeFresh({ [target]: theirs })).toBe('no errors')
    await expectLikeFresh({ [translation]: own.replace(title, 'title: Datenverträge, geprüft') })
    expect(made()).toBe(start + 4)
  }, 240_000)

  it('an item and its translation saved together', async () => {
    const item = 'content/blog-posts/data-contracts-in-ci.md'
    const translation = 'content/blog-posts/data-contracts-in-ci.de.md'
    await expectLikeFresh({
      [item]: await changed(item, title, 'title: Contracts in CI, together'),
      [translation]: await changed(translation, title, 'title: Datenverträge, gemeinsam'),
    })
  }, 120_000)

  it('after every edit, the full pass makes the files a fresh build does', async () => {
    const fresh = await freshCompiler()
    expect(etags((await compiler.emit('full'))!)).toEqual(etags((await fresh.emit('full'))!))
  }, 120_000)
})
