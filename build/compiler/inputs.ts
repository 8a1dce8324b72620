/**
 * What decides a build's output, and whether dist/ already holds it. Kept
 * apart from the compile pipeline so the no-change check (`npm run build`
 * with nothing to do) never loads unified, ajv or the emitters.
 */
import { createHash } from 'node:crypto'
import { type FileHandle, mkdir, open, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MANIFEST_FILE } from '../../contract/paths.ts'
import type { Manifest } from '../../contract/manifest.ts'
import { historyKey } from '../history/history-key.ts'
import { inBatches, listContent, signatureSync } from '../core/sources.ts'
import { readSource } from '../core/sources.ts'
import { holdsAt } from '../../contract/schedule.ts'
import type { ApiOrigin } from '../../contract/api-origin.ts'
import { settingsClock } from '../pipeline/schedule.ts'

/** What the no-change check needs of a manifest: the build and the hash of its inputs. */
export type ManifestHead = Pick<Manifest, 'format' | 'build' | 'input_hash'>

/**
 * The head of `distDir`'s manifest when it was built from exactly the current
 * inputs of `root`, as of a clock (milliseconds) no release or expiry has
 * passed since. Unchanged sources are known by their stat (the source
 * index in .cache/), so nothing is read but what changed: 10,000 files cost
 * their stats, not their bytes.
 */
export async function upToDateManifest(
  root: string,
  distDir = join(root, 'dist'),
  now?: number,
  apiOrigin?: ApiOrigin,
): Promise<ManifestHead | undefined> {
  // No dist/ (a cold build): nothing to compare, so no source is read or hashed for it.
  const head = await readManifestHead(distDir)
  if (!head) return undefined
  const inputHash = await hashInputs(root, await indexedSources(root), undefined, apiOrigin)
  return head.input_hash === inputHash && holdsAt(head.build, now ?? settingsClock()()) ? head : undefined
}

/**
 * The manifest's head without parsing the whole file (megabytes at 10,000
 * items): createManifest writes `format`, `build` and `input_hash` first,
 * then `files`.
 */
async function readManifestHead(distDir: string): Promise<ManifestHead | undefined> {
  let handle: FileHandle | undefined
  try {
    handle = await open(join(distDir, MANIFEST_FILE))
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16 * 1024), 0, 16 * 1024, 0)
    const text = buffer.subarray(0, bytesRead).toString('utf8')
    const end = text.indexOf(',"files":')
    return end < 0 ? undefined : (JSON.parse(`${text.slice(0, end)}}`) as ManifestHead)
  } catch {
    return undefined
  } finally {
    await handle?.close()
  }
}

/** Where the source index lives: each source's stat signature and content hash at the last build. */
const SOURCE_INDEX = join('.cache', 'sources-v1.json')
type SourceIndex = Record<string, [signature: string, hash: string]>

/**
 * Every source's path and hash, in build order, then the images the last
 * build used; read only where a stat differs from the index. The stats are
 * taken on this thread (signatureSync): with nothing else to do meanwhile,
 * a synchronous stat costs less than a thread-pool round trip each, the part
 * of this check that grows with the images.
 */
async function indexedSources(root: string): Promise<{ path: string; hash: string }[]> {
  const index = (await readFile(join(root, SOURCE_INDEX), 'utf8')
    .then((t) => JSON.parse(t) as SourceIndex)
    .catch(() => ({}))) as SourceIndex
  const items = listContent(root)
  // The images the last build used follow, in path order (as the compiler hashes them).
  const assets = Object.keys(index)
    .filter((path) => !path.endsWith('.md'))
    .sort()
  const all = [...items.map((p) => p.path), ...assets]
  const hashes = all.map((path) => unchanged(root, path, index))
  // Only what changed is read (and awaited): an unchanged file costs its stat alone.
  const changed = hashes.flatMap((hash, i) => (hash === undefined ? [i] : []))
  await inBatches(changed, async (i) => {
    const item = items[i]
    hashes[i] = item ? (await readSource(root, item.collection, item.name)).hash : await assetHash(root, all[i]!)
  })
  return all.map((path, i) => ({ path, hash: hashes[i]! }))
}

/** The hash the index has for `path` when its stat is still the one recorded, else undefined. */
function unchanged(root: string, path: string, index: SourceIndex): string | undefined {
  const known = index[path]
  return known && known[0] === signatureSync(join(root, path)) ? known[1] : undefined
}

/** The hash of an image's bytes; `missing` when it is gone. */
async function assetHash(root: string, path: string): Promise<string> {
  const bytes = await readFile(join(root, path)).catch(() => undefined)
  return bytes ? createHash('sha256').update(bytes).digest('hex') : 'missing'
}

/** Record each source's stat and hash after a build, for the next no-change check. */
export async function writeSourceIndex(
  root: string,
  entries: Iterable<[path: string, signature: string, hash: string]>,
): Promise<void> {
  const index: SourceIndex = {}
  for (const [path, sig, hash] of entries) index[path] = [sig, hash]
  await mkdir(join(root, '.cache'), { recursive: true })
  const tmp = join(root, `${SOURCE_INDEX}.${process.pid}.tmp`)
  await writeFile(tmp, JSON.stringify(index))
  await rename(tmp, join(root, SOURCE_INDEX))
}

/**
 * Everything that decides the output: the sources, the site settings, the
 * origin the records' URLs name, the build code itself and content/'s git
 * history (the change feed reads it).
 */
export async function hashInputs(
  root: string,
  sources: readonly { path: string; hash: string }[],
  history?: string,
  apiOrigin?: ApiOrigin,
): Promise<string> {
  const hash = createHash('sha256')
  hash.update(await generatorFingerprint())
  hash.update(`\0${history ?? (await historyKey(root))}\0`)
  // Site.yaml's own api_url is in its bytes below; another origin is another output.
  if (apiOrigin !== undefined) hash.update(`origin\0${apiOrigin ?? ''}\0`)
  hash.update(await readFile(join(root, 'content', 'site.yaml')).catch(() => Buffer.alloc(0)))
  for (const s of sources) hash.update(`\0${s.path}\0${s.hash}`)
  return hash.digest('hex')
}

let fingerprint: Promise<string> | undefined

/** Set by the bundler (build/bundle/prebuilt.ts): the fingerprint of the sources the bundle was made from. */
declare const __GENERATOR_FINGERPRINT__: string | undefined

/**
 * Hash of the code that shapes dist/ (build/, the shared contract/ and the
 * locked dependency versions), so a code or dependency change is never
 * mistaken for "up to date". The gateway and its runtime data (API keys,
 * clients, people) are not build input: build/ never imports them. The
 * prebuilt commands carry the hash of their sources, computed when bundled.
 */
function generatorFingerprint(): Promise<string> {
  if (typeof __GENERATOR_FINGERPRINT__ === 'string') return Promise.resolve(__GENERATOR_FINGERPRINT__)
  fingerprint ??= sourceFingerprint(dirname(dirname(dirname(fileURLToPath(import.meta.url)))))
  return fingerprint
}

/** The generator fingerprint of the project at `projectDir`, from its build/ and contract/ sources. */
export async function sourceFingerprint(projectDir: string): Promise<string> {
  const hash = createHash('sha256')
  const entries = (
    await Promise.all(
      ['build', 'contract'].map((dir) => readdir(join(projectDir, dir), { recursive: true, withFileTypes: true })),
    )
  ).flat()
  const files = entries
    .filter((e) => e.isFile() && /\.(ts|js|mjs|cjs|json)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    // Caches are not code, and tests beside the code shape nothing in dist/.
    .filter((file) => !file.includes('/.') && !file.endsWith('.test.ts'))
    .sort()
  for (const file of files) hash.update(file.slice(projectDir.length)).update(await readFile(file))
  hash.update(await readFile(join(projectDir, 'package-lock.json')).catch(() => Buffer.alloc(0)))
  return hash.digest('hex')
}
