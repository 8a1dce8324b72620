/** Temporary projects with their own content/, for tests that need fixture content. */
import { readFileSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { inject } from 'vitest'

export const REPO_ROOT = resolve(import.meta.dirname, '../..')

/**
 * The content model of the fixture content (its site.yaml's `collections:`,
 * the project's four), as YAML: a test's own site.yaml starts from it, as a
 * team's does, and adds or changes what the test is about.
 */
export const FIXTURE_MODEL_YAML = (() => {
  const text = readFileSync(join(REPO_ROOT, 'test/fixtures/content/site.yaml'), 'utf8')
  return text.slice(text.indexOf('\ncollections:\n') + 1)
})()

export const SITE_YAML = `name: Fixture Co
description: Fixture content for tests.
url: https://www.fixture.example
${FIXTURE_MODEL_YAML.replace('title: Customer stories', 'title: Customers')}`

export interface TempProject {
  root: string
  dist: string
  write(path: string, text: string): Promise<void>
  remove(): Promise<void>
}

/** A project with the given files under its root (content/site.yaml added unless given). */
export async function createProject(files: Record<string, string> = {}): Promise<TempProject> {
  const root = await mkdtemp(join(tmpdir(), 'content-api-'))
  const project: TempProject = {
    root,
    dist: join(root, 'dist'),
    async write(path, text) {
      await mkdir(dirname(join(root, path)), { recursive: true })
      await writeFile(join(root, path), text)
    },
    // Retried: a gateway that is still finishing a write (one stopped just before) may add a file meanwhile.
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 5 }),
  }
  await project.write('content/site.yaml', SITE_YAML)
  for (const [path, text] of Object.entries(files)) await project.write(path, text)
  return project
}

/**
 * The tests' own content: a copy of the repository's content/ as it was, kept in
 * test/fixtures/content/ so that a draft an author is working on in content/ (valid
 * or not) never changes what a test sees.
 */
export const FIXTURE_CONTENT = join(REPO_ROOT, 'test/fixtures/content')

/** The name under which test/global-setup.ts provides the fixture build: its content/, dist/ and caches. */
export const FIXTURE_BUILD_KEY = 'fixtureBuild'

/**
 * The fixture build's caches (rendered Markdown, processed images, social cards) into `root`'s
 * .cache/, for a build of the fixture content that is not a cold build's test; with `sourceIndex`,
 * the stat-keyed source index too (right only beside a copy of that build's dist/).
 */
export async function copyFixtureCaches(root: string, sourceIndex = false): Promise<void> {
  await cp(join(inject(FIXTURE_BUILD_KEY), '.cache'), join(root, '.cache'), {
    recursive: true,
    filter: (source) => sourceIndex || !basename(source).startsWith('sources-'),
  })
}

/**
 * A new project holding a copy of the fixture build's content/ and caches; with `withDist`, its
 * dist/ too and the source index beside it, which names the images that build used (the
 * no-change check hashes them with the content). Every stat the index holds differs from the
 * copy's files, so each is read and hashed again.
 */
async function copyOfFixtureBuild(withDist: boolean): Promise<TempProject> {
  const from = inject(FIXTURE_BUILD_KEY)
  const project = await createProject()
  await cp(join(from, 'content'), join(project.root, 'content'), { recursive: true })
  await copyFixtureCaches(project.root, withDist)
  if (withDist) {
    await cp(join(from, 'dist'), project.dist, { recursive: true })
    // The reviewers' preview goes with its dist/ (beside it): without it the build is not up to date.
    await cp(join(from, 'dist-preview'), `${project.dist}-preview`, { recursive: true })
  }
  return project
}

/**
 * A temporary project holding a copy of the fixture content, its build caches
 * warm (test/global-setup.ts): a build with the cache on renders and encodes
 * nothing the fixture build already did. The stat-keyed source index stays
 * behind: this copy's files are new files.
 */
export const copyOfFixtureContent = (): Promise<TempProject> => copyOfFixtureBuild(false)

/**
 * The same, built: with the dist/ test/global-setup.ts built from the same
 * files, which the copy's own build (`npm run build`'s no-change check) finds
 * up to date. For suites that serve the fixture build rather than test making it.
 */
export const copyOfBuiltFixture = (): Promise<TempProject> => copyOfFixtureBuild(true)

export const validPost = (title = 'A valid post', extra = '') => `---
title: ${title}
published_at: 2026-01-05
tags: [testing]
authors:
  - name: Zoë Tester
${extra}---
First paragraph of the post.

| a | b |
|---|---|
| 1 | 2 |
`

/** Translations and a multilingual site.yaml, laid over the fixture content (test/fixtures/locales/README.md). */
export const LOCALE_FIXTURE = join(REPO_ROOT, 'test/fixtures/locales')

/** A temporary project holding the fixture content in English, German (with fallback) and French. */
export async function copyOfLocaleFixture(): Promise<TempProject> {
  const project = await copyOfFixtureContent()
  await cp(LOCALE_FIXTURE, join(project.root, 'content'), {
    recursive: true,
    filter: (source) => !source.endsWith('README.md'),
  })
  return project
}
