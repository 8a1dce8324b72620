/**
 * Images: the image corpus built cold (every image processed: the ladder in
 * AVIF, WebP and a fallback, plus the placeholders), against sharp alone
 * writing the same files one call each in the same run; the no-change
 * rebuild; the cold build's peak memory.
 */
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ImageObject } from '../../contract/media.ts'
import { generateImageCorpus, type ImageCorpus } from '../corpus/images.ts'
import { REPO_ROOT, TSX_NODE_ARGS } from '../lib/paths.ts'
import { runMeasured, type ProcessResult } from '../lib/process.ts'
import { setAside } from '../lib/set-aside.ts'
import { repeat } from '../lib/stats.ts'
import type { PlannedOutput } from '../peers/sharp/baseline.ts'
import { clean, runBuild } from './build.ts'

export interface ImageSamples {
  corpus: Omit<ImageCorpus, 'root' | 'sources'>
  /** Files the build wrote (and the baseline wrote again). */
  outputs: number
  cold: ProcessResult
  baseline: ProcessResult
  noChange: ProcessResult[]
}

export async function benchImages(count: number, seed: number, shortRuns: number): Promise<ImageSamples> {
  const corpus = await generateImageCorpus(count, seed)
  try {
    await clean(corpus.root)
    const cold = await runBuild(corpus.root)
    const noChange = await repeat(shortRuns, async () => {
      const result = await runBuild(corpus.root)
      if (!/up to date/.test(result.stdout)) throw new Error(`the no-change rebuild rebuilt: ${result.stdout}`)
      return result
    })
    const plan = await plannedOutputs(corpus)
    const work = await mkdtemp(join(tmpdir(), 'content-api-bench-sharp-'))
    try {
      await writeFile(join(work, 'plan.json'), JSON.stringify(plan))
      await mkdir(join(work, 'out'))
      const baseline = await runMeasured(
        process.execPath,
        [...TSX_NODE_ARGS, 'bench/peers/sharp/baseline.ts', join(work, 'plan.json'), join(work, 'out')],
        { cwd: REPO_ROOT },
      )
      const { root: _root, sources: _sources, ...about } = corpus
      return { corpus: about, outputs: plan.length, cold, baseline, noChange }
    } finally {
      await setAside(work)
    }
  } finally {
    await setAside(corpus.root)
  }
}

/** Every file the build wrote for the images, as the source, format and width sharp is asked for. */
async function plannedOutputs(corpus: ImageCorpus): Promise<PlannedOutput[]> {
  const dir = join(corpus.root, 'dist', 'api', 'blog-posts')
  const plan: PlannedOutput[] = []
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()) {
    const record = JSON.parse(await readFile(join(dir, name), 'utf8')) as { image: ImageObject; slug: string }
    const input = corpus.sources[record.slug]!
    for (const s of record.image.sources) plan.push({ input, format: s.format, width: s.width })
  }
  return plan
}
