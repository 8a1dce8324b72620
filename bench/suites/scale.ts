/**
 * The scale curve: at each size, a corpus of realistic prose (copies of
 * hand-written content with reshuffled sections, corpus/realistic.ts), cold
 * builds of ours and Hugo's on the same files, run in turn so both see the
 * same load, and the watch mode's edit → new bytes served; from 10,000
 * items on, search end to end too (prose has a wider vocabulary than the
 * generated corpus, which once hid a slower search).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Manifest } from '../../contract/manifest.ts'
import { generateRealisticCorpus } from '../corpus/realistic.ts'
import type { ProcessResult } from '../lib/process.ts'
import { setAside } from '../lib/set-aside.ts'
import { benchHugo } from './peers.ts'
import { clean, runBuild } from './build.ts'
import { benchWatch } from './watch.ts'
import { benchMcp, commonTag, type McpSamples } from './mcp.ts'

/** From this size on, search is measured on the corpus too. */
export const SEARCH_FROM = 10_000

export interface ScaleSample {
  items: number
  ours: ProcessResult[]
  /** Hugo's runs, or why there are none. */
  hugo: ProcessResult[] | string
  /** Edit → served times, or why there are none. */
  watch: number[] | string
  /** Search end to end (from SEARCH_FROM items), or why there is none. */
  search?: McpSamples | string
}

export interface ScaleOptions {
  sizes: readonly number[]
  /** Cold builds per size (each of ours and Hugo's). */
  runs: number
  /** Measured edits per size. */
  edits: number
  seed: number
  /** Runs of the search measurement (SEARCH_FROM items and more). */
  searchRuns: number
  /** The content folder the corpus copies (bench/lib/paths.ts, CONTENT_SOURCES). */
  source: string
  /** Why Hugo cannot run, when it cannot. */
  hugoMissing: string | undefined
  keep: boolean
  say: (line: string) => void
}

export async function benchScale(options: ScaleOptions): Promise<ScaleSample[]> {
  const samples: ScaleSample[] = []
  for (const items of options.sizes) {
    const corpus = await generateRealisticCorpus({ items, seed: options.seed, source: options.source })
    try {
      const ours: ProcessResult[] = []
      const hugo: ProcessResult[] = []
      let hugoFailed = options.hugoMissing
      for (let run = 0; run < options.runs; run++) {
        await clean(corpus.root)
        ours.push(await runBuild(corpus.root))
        if (hugoFailed) continue
        try {
          hugo.push(...(await benchHugo(corpus.root, 1)))
        } catch (error) {
          hugoFailed = `failed: ${(error as Error).message.split('\n')[0]}`
        }
      }
      const median = (runs: ProcessResult[]) => [...runs].sort((a, b) => a.wallMs - b.wallMs)[runs.length >> 1]
      options.say(
        `  ${items} items: ours ${Math.round(median(ours)!.wallMs)} ms, Hugo ${hugoFailed ?? `${Math.round(median(hugo)!.wallMs)} ms`}`,
      )
      let watch: number[] | string
      try {
        watch = await benchWatch(corpus, options.edits)
        options.say(`  ${items} items: edit → served ${watch.map((t) => Math.round(t)).join(', ')} ms`)
      } catch (error) {
        watch = `failed: ${(error as Error).message.split('\n')[0]}`
      }
      const search = items >= SEARCH_FROM ? await searchOn(corpus.root, options.searchRuns) : undefined
      samples.push({ items, ours, hugo: hugoFailed ?? hugo, watch, ...(search !== undefined && { search }) })
    } finally {
      // Set aside, not deleted: the next size's builds would make their files among its freed inodes.
      if (!options.keep) await setAside(corpus.root)
    }
  }
  return samples
}

/** MCP and REST search on the corpus's last build, or why they did not run. */
async function searchOn(root: string, runs: number): Promise<McpSamples | string> {
  try {
    const manifest = JSON.parse(await readFile(join(root, 'dist', '_build', 'manifest.json'), 'utf8')) as Manifest
    return await benchMcp(root, runs, commonTag(manifest))
  } catch (error) {
    return `failed: ${(error as Error).message.split('\n')[0]}`
  }
}
