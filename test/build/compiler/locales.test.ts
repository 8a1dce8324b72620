/**
 * The content model of a multilingual site: site.yaml's locales, a
 * translation beside its item (`x.de.md`, `x/index.de.md`), validated on its
 * own, and the author errors of translations with file:line:col. Through the
 * real compiler (`checkContent`, `buildSite`) and `npm run new --translate`.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { runCommand } from '../../helpers/commands.ts'
import { createProject, SITE_YAML, validPost, type TempProject } from '../../helpers/project.ts'

const MULTILINGUAL = `${SITE_YAML}language: en\nlocales: [en, de, fr]\nlocale_fallback: [de]\n`

const post = (title: string, extra = '') =>
  `---\ntitle: ${title}\npublished_at: 2026-01-05\nauthors:\n  - name: A\n${extra}---\nBody of ${title}.\n`

let project: TempProject | undefined
afterEach(async () => {
  await project?.remove()
  project = undefined
})

async function errorsOf(files: Record<string, string>): Promise<string[]> {
  project = await createProject(files)
  const error = await checkContent(project.root).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ContentErrors)
  return (error as ContentErrors).errors.map((e) => e.message)
}

describe('author errors of translations', () => {
  it('a locale the site does not list, with the file name it probably meant', async () => {
    expect(
      await errorsOf({
        'content/site.yaml': MULTILINGUAL,
        'content/blog-posts/launch.md': post('Launch'),
        'content/blog-posts/launch.dee.md': post('Start'),
      }),
    ).toEqual([
      'content/blog-posts/launch.dee.md:1:1 locale: "dee" in the file name launch.dee.md is not a locale of the site (locales in site.yaml: en, de, fr); did you mean launch.de.md?',
    ])
  })

  it('a translation on a single-language site names the setting to add', async () => {
    const errors = await errorsOf({
      'content/blog-posts/launch.md': post('Launch'),
      'content/blog-posts/launch.de.md': post('Start'),
    })
    expect(errors).toEqual([
      'content/blog-posts/launch.de.md:1:1 locale: "de" in the file name launch.de.md is not a locale of the site (locales in site.yaml: en)',
    ])
  })

  it('two files claiming one locale of an item: the file beside it and the one in its folder', async () => {
    expect(
      await errorsOf({
        'content/site.yaml': MULTILINGUAL,
        'content/blog-posts/launch.md': post('Launch'),
        'content/blog-posts/launch.de.md': post('Start', 'slug: start\n'),
        'content/blog-posts/launch/index.de.md': post('Start again', 'slug: start-again\n'),
      }),
    ).toEqual([
      'content/blog-posts/launch/index.de.md:1:1 locale: is a second de file of the item "launch": content/blog-posts/launch.de.md already is; an item has one file per locale (remove or rename one)',
    ])
  })

  it('related across locales: the English slug of a translated item, and an English item French lacks', async () => {
    const errors = await errorsOf({
      'content/site.yaml': MULTILINGUAL,
      'content/blog-posts/launch.md': post('Launch'),
      'content/blog-posts/launch.de.md': post('Start', 'slug: start\n'),
      'content/blog-posts/other.md': post('Other'),
      'content/blog-posts/other.de.md': post(
        'Anderes',
        'slug: anderes\nrelated: [blog-posts/launch, blog-posts/strat]\n',
      ),
      'content/blog-posts/other.fr.md': post('Autre', 'slug: autre\nrelated:\n  - blog-posts/launch\n'),
    })
    expect(errors).toEqual([
      'content/blog-posts/other.de.md:7:11 related[0]: "blog-posts/launch" is the en item; a de translation relates to de items: write blog-posts/start',
      'content/blog-posts/other.de.md:7:30 related[1]: "blog-posts/strat" is not a de item (did you mean blog-posts/start?)',
      'content/blog-posts/other.fr.md:8:5 related[0]: "blog-posts/launch" is a en item with no fr translation: a fr translation relates to fr items (or set locale_fallback for fr in site.yaml)',
    ])
  })

  it('each translation is validated on its own, slugs unique per locale', async () => {
    const errors = await errorsOf({
      'content/site.yaml': MULTILINGUAL,
      'content/blog-posts/launch.md': post('Launch'),
      'content/blog-posts/launch.de.md': '---\npublished_at: 2026-01-05\nauthors:\n  - name: A\n---\nKein Titel.\n',
      'content/blog-posts/other.md': post('Other'),
      'content/blog-posts/other.fr.md': post('Autre', 'slug: lancement\n'),
      'content/blog-posts/launch.fr.md': post('Lancement', 'slug: lancement\n'),
    })
    expect(errors).toEqual([
      'content/blog-posts/launch.de.md:2:1 title: is required',
      'content/blog-posts/other.fr.md:6:7 slug: "lancement" is already used by content/blog-posts/launch.fr.md',
    ])
  })

  it("in a locale that falls back, a translation's slug that an untranslated item has: both would answer it", async () => {
    const errors = await errorsOf({
      'content/site.yaml': MULTILINGUAL,
      'content/blog-posts/launch.md': post('Launch'),
      'content/blog-posts/pricing.md': post('Pricing'),
      'content/blog-posts/pricing.de.md': post('Preise', 'slug: launch\n'),
      // French does not fall back: the English item is never listed there, so the slug is free.
      'content/blog-posts/pricing.fr.md': post('Tarifs', 'slug: launch\n'),
    })
    expect(errors).toEqual([
      'content/blog-posts/pricing.de.md:6:7 slug: "launch" is the slug of content/blog-posts/launch.md, which has no de translation: de falls back to en, so it lists both and /api/blog-posts/launch?locale=de could answer only one; give this translation another slug (or translate content/blog-posts/launch.md into de)',
    ])
  })

  it('no clash once the item with that slug is translated, or for a translation keeping its own item’s slug', async () => {
    project = await createProject({
      'content/site.yaml': MULTILINGUAL,
      'content/blog-posts/launch.md': post('Launch'),
      'content/blog-posts/launch.de.md': post('Start', 'slug: start\n'),
      'content/blog-posts/pricing.md': post('Pricing'),
      'content/blog-posts/pricing.de.md': post('Preise', 'slug: launch\n'),
      'content/blog-posts/news.md': post('News'),
      'content/blog-posts/news.de.md': post('Neues'),
    })
    await checkContent(project.root)
  })

  it('site.yaml: locales, the default among them, fallbacks among the others', async () => {
    const errors = await errorsOf({
      'content/site.yaml': `${SITE_YAML}language: en\nlocales: [de, fr, d_e]\nlocale_fallback: [it]\n`,
    })
    // The lines after SITE_YAML's (its settings and the fixture's content model).
    const line = SITE_YAML.split('\n').length + 1
    expect(errors).toEqual([
      `content/site.yaml:${line}:10 locales: must include the default locale, language: en`,
      `content/site.yaml:${line}:19 locales[2]: must be a BCP 47 language tag, like de or pt-BR`,
      `content/site.yaml:${line + 1}:19 locale_fallback[0]: must be one of the other locales (de, fr)`,
    ])
  })
})

describe('translations in the build', () => {
  it('a folder item (index.md, index.fr.md) is an item like a file, and a translation may have its own slug', async () => {
    project = await createProject({
      'content/site.yaml': MULTILINGUAL,
      'content/blog-posts/launch/index.md': post('Launch'),
      'content/blog-posts/launch/index.fr.md': post('Lancement', 'slug: lancement\n'),
    })
    await buildSite({ root: project.root })
    const en = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/launch.json'), 'utf8'))
    const fr = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/_locales/fr/lancement.json'), 'utf8'))
    expect(en).toMatchObject({ slug: 'launch', locale: 'en', url: 'https://www.fixture.example/blog/launch' })
    expect(en.translations).toEqual([
      { locale: 'fr', slug: 'lancement', url: 'https://www.fixture.example/fr/blog/lancement' },
    ])
    expect(fr).toMatchObject({ slug: 'lancement', locale: 'fr', title: 'Lancement' })
    expect(fr.translations).toEqual([{ locale: 'en', slug: 'launch', url: 'https://www.fixture.example/blog/launch' }])
  })

  it('a single-language site publishes the same bytes as before: no locale fields', async () => {
    project = await createProject({ 'content/blog-posts/a-valid-post.md': validPost() })
    await buildSite({ root: project.root })
    const record = JSON.parse(await readFile(join(project.dist, 'api/blog-posts/a-valid-post.json'), 'utf8'))
    expect(record).not.toHaveProperty('locale')
    expect(record).not.toHaveProperty('translations')
    const manifest = JSON.parse(await readFile(join(project.dist, '_build/manifest.json'), 'utf8'))
    expect(manifest).not.toHaveProperty('locales')
  })
})

describe('npm run new --translate', () => {
  const scaffold = (root: string, ...args: string[]) => runCommand('new', [...args, '--root', root])

  it('starts a draft translation beside the item, its related items mapped to their translations', async () => {
    project = await createProject({
      'content/site.yaml': MULTILINGUAL,
      'content/blog-posts/launch.md': post('Launch'),
      'content/blog-posts/launch.de.md': post('Start', 'slug: start\n'),
      'content/blog-posts/other.md': post('Other', 'related: [blog-posts/launch]\n'),
    })
    const result = await scaffold(
      project.root,
      '--translate',
      'blog-posts/other',
      '--locale',
      'DE',
      '--slug',
      'anderes',
    )
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe('content/blog-posts/other.de.md')
    const text = await readFile(join(project.root, 'content/blog-posts/other.de.md'), 'utf8')
    expect(text).toMatch(/^slug: anderes$/m)
    expect(text).toMatch(/^draft: true$/m)
    expect(text).toMatch(/^related: \[blog-posts\/start\]$/m)
    // A draft translation passes the check; published as it is, it is the item's German version.
    await checkContent(project.root)
    const again = await scaffold(project.root, '--translate', 'blog-posts/other', '--locale', 'de')
    expect(again.code).not.toBe(0)
    expect(again.stderr).toMatch(/already exists; nothing was written/)
    const unknown = await scaffold(project.root, '--translate', 'blog-posts/othr', '--locale', 'fr')
    expect(unknown.stderr).toMatch(/did you mean blog-posts\/other\?/)
    const locale = await scaffold(project.root, '--translate', 'blog-posts/other', '--locale', 'it')
    expect(locale.stderr).toMatch(/not one of the site's other locales \(de, fr/)
  })
})
