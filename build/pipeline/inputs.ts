/**
 * What decides a build's output, and whether dist/ already holds it. Kept
 * apart from the compile pipeline so the no-change check (`npm run build`
 * with nothing to do) never loads unified, ajv or the emitters.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MANIFEST_FILE } from '../contract/paths.ts'
import type { Manifest } from '../contract/manifest.ts'
import { historyKey } from '../history/git-history.ts'
import { readSources, type SourceFile } from './load.ts'

/** The manifest of `distDir` when it was built from exactly the current inputs of `root`. */
export async function upToDateManifest(root: string, distDir = join(root, 'dist')): Promise<Manifest | undefined> {
  const [manifest, inputHash] = await Promise.all([readManifest(distDir), readSources(root).then((s) => hashInputs(root, s))])
  return manifest?.input_hash === inputHash ? manifest : undefined
}

export async function readManifest(distDir: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(join(distDir, MANIFEST_FILE), 'utf8')) as Manifest
  } catch {
    return undefined
  }
}

/**
 * Everything that decides the output: the sources, the site settings, the
 * build code itself and content/'s git history (the change feed reads it).
 */
export async function hashInputs(root: string, sources: SourceFile[], history?: string): Promise<string> {
  const hash = createHash('sha256')
  hash.update(await generatorFingerprint())
  hash.update(`\0${history ?? (await historyKey(root))}\0`)
  hash.update(await readFile(join(root, 'content', 'site.yaml')).catch(() => Buffer.alloc(0)))
  for (const s of sources) hash.update(`\0${s.path}\0${s.hash}`)
  return hash.digest('hex')
}

let fingerprint: Promise<string> | undefined

/**
 * Hash of the code that shapes dist/ (build/ and the locked dependency
 * versions), so a code or dependency change is never mistaken for "up to
 * date". The gateway and its runtime data (API keys, clients, people) are
 * not build input: build/ never imports them.
 */
function generatorFingerprint(): Promise<string> {
  fingerprint ??= (async () => {
    const buildDir = dirname(dirname(fileURLToPath(import.meta.url)))
    const projectDir = dirname(buildDir)
    const hash = createHash('sha256')
    const entries = await readdir(buildDir, { recursive: true, withFileTypes: true })
    const files = entries
      .filter((e) => e.isFile() && /\.(ts|js|mjs|cjs|json)$/.test(e.name))
      .map((e) => join(e.parentPath, e.name))
      // Caches are not code, and tests beside the code shape nothing in dist/.
      .filter((file) => !file.includes('/.') && !file.endsWith('.test.ts'))
      .sort()
    for (const file of files) hash.update(file.slice(projectDir.length)).update(await readFile(file))
    hash.update(await readFile(join(projectDir, 'package-lock.json')).catch(() => Buffer.alloc(0)))
    return hash.digest('hex')
  })()
  return fingerprint
}
