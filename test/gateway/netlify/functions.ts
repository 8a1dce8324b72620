/**
 * The project's Netlify functions (build/deploy/netlify-function.ts) for a test's
 * project: bundled once per version of the sources and copied from there,
 * instead of five tsup bundles of the whole gateway in every Netlify test
 * file. The bundles are bundleFunction's own, made from the repository as
 * `npm run build:netlify` makes them; only where they are made differs.
 *
 * The cache is `.cache/netlify-functions/<key>/` in the repository (git-ignored),
 * where the key hashes the contents of every file the bundles are made of:
 * the TypeScript, JavaScript and CSS of build/, contract/ and gateway/ (the
 * folders build/run.mjs keys its own bundles by), the lockfile and
 * tsconfig.json. Contents, not modification times: a fresh clone keys as the
 * working tree it came from. A change to any of them makes a new key, and the
 * next Netlify test bundles again.
 */
import { createHash } from 'node:crypto'
import { cp, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { bundleFunction, FUNCTIONS_DIR } from '../../../build/deploy/netlify-function.ts'
import { REPO_ROOT } from '../../helpers/project.ts'

const SOURCE_DIRS = ['build', 'contract', 'gateway']
const SOURCE_FILES = ['package-lock.json', 'tsconfig.json']
const CACHE = join(REPO_ROOT, '.cache', 'netlify-functions')
/** Bundles kept besides the current one (another branch's sources, say). */
const KEEP = 3

/** Put the project's Netlify functions into `<projectRoot>/netlify-functions/`, as bundleFunction(REPO_ROOT, projectRoot) does. */
export async function bundledFunctions(projectRoot: string): Promise<void> {
  const made = await bundleForSources()
  await rm(join(projectRoot, FUNCTIONS_DIR), { recursive: true, force: true })
  await cp(join(made, FUNCTIONS_DIR), join(projectRoot, FUNCTIONS_DIR), { recursive: true })
}

/** The folder holding the bundles of the current sources, made now when missing. */
async function bundleForSources(): Promise<string> {
  const dir = join(CACHE, await sourcesKey())
  if (await exists(join(dir, FUNCTIONS_DIR))) return dir
  // Made apart and moved in whole: a test file that finds the folder finds every bundle in it.
  const apart = `${dir}.tmp-${process.pid}`
  await rm(apart, { recursive: true, force: true })
  await bundleFunction(REPO_ROOT, apart)
  await rm(join(apart, '.cache'), { recursive: true, force: true })
  await rename(apart, dir).catch(async () => {
    // Another test process made the same bundles meanwhile: theirs serve.
    await rm(apart, { recursive: true, force: true })
  })
  await prune(dir)
  return dir
}

/** A hash of the contents of the files the bundles are made of. */
async function sourcesKey(): Promise<string> {
  const files: string[] = []
  for (const dir of SOURCE_DIRS)
    for (const entry of await readdir(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true }))
      if (entry.isFile() && /\.(ts|js|css)$/.test(entry.name) && !entry.parentPath.includes('/.'))
        files.push(join(entry.parentPath, entry.name))
  files.sort()
  files.push(...SOURCE_FILES.map((file) => join(REPO_ROOT, file)))
  const hash = createHash('sha256')
  for (const file of files) hash.update(`${relative(REPO_ROOT, file)}\0`).update(await readFile(file))
  return hash.digest('hex').slice(0, 16)
}

/** Remove all but the newest bundles, and half-made ones older than an hour. */
async function prune(current: string): Promise<void> {
  const dirs = await Promise.all(
    (await readdir(CACHE))
      .map((name) => join(CACHE, name))
      .filter((dir) => dir !== current)
      // Another test process may remove one meanwhile: then it counts as old.
      .map(async (dir) => ({ dir, mtime: (await stat(dir).catch(() => undefined))?.mtimeMs ?? 0 })),
  )
  dirs.sort((a, b) => b.mtime - a.mtime)
  const hourAgo = Date.now() - 3_600_000
  for (const [i, { dir, mtime }] of dirs.entries())
    if ((i >= KEEP && !dir.includes('.tmp-')) || (dir.includes('.tmp-') && mtime < hourAgo))
      await rm(dir, { recursive: true, force: true })
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )
