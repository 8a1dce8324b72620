#!/usr/bin/env node
/**
 * `npm run bench`: generate the corpus, measure our build, its peers and the
 * gateway in one run, print the table and write it to bench/results/tmp/
 * (ignored); `--record` writes bench/results/latest.{json,md} instead, the
 * committed results BENCHMARKS.md quotes. `npm run bench:smoke`: the same with
 * a few hundred items and one run each (for CI: it proves every row still
 * produces a number).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { commandArgs, defineCommand } from '../contract/cli-args.ts'
import type { Manifest } from '../contract/manifest.ts'
import { SLUG_PATTERN } from '../contract/patterns.ts'
import { generateCorpus } from './corpus/generate.ts'
import { machineInfo } from './lib/machine.ts'
import { CONTENT_SOURCES, REPO_ROOT, RESULTS_DIR } from './lib/paths.ts'
import { emptySetAside, emptyStaleSetAside } from './lib/set-aside.ts'
import { toConsole, toMarkdown, type Report } from './report/format.ts'
import type { Row } from './report/rows.ts'
import { buildRows, localesRow, type Samples } from './report/targets.ts'
import { benchBuild, benchCheck, clean, coldBuilds, runBuild } from './suites/build.ts'
import { median } from './lib/stats.ts'
import { scalePlot } from './report/plot.ts'
import { scaleRows } from './report/scale-rows.ts'
import { benchScale } from './suites/scale.ts'
import { benchGateway, type Target } from './suites/gateway.ts'
import { benchMcp, commonTag, tagsByUse } from './suites/mcp.ts'
import { benchMemory, type MemorySample } from './suites/memory.ts'
import { benchSearchIndex } from './suites/search-index.ts'
import { benchHugo, benchVelite, ensureHugo } from './suites/peers.ts'
import { distSizes } from './suites/sizes.ts'
import { benchWatch } from './suites/watch.ts'
import { benchImages } from './suites/images.ts'
import { benchLocales } from './suites/locales.ts'

const BENCH = defineCommand({
  name: 'npm run bench',
  summary:
    'Generate a corpus, measure the build, its peers and the gateway, print the table and write it to bench/results/tmp/ (BENCHMARKS.md says what each row measures).',
  options: {
    smoke: { type: 'boolean', help: 'a few hundred items and one run each (npm run bench:smoke; for CI)' },
    items: { type: 'string', value: 'N', help: 'the corpus size (default 10,000; 300 with --smoke)' },
    seed: { type: 'string', value: 'S', help: "the corpus generator's seed (default 1)" },
    'no-install': { type: 'boolean', help: 'never install Hugo (its rows are then skipped)' },
    keep: { type: 'boolean', help: 'keep the temporary corpus' },
    out: { type: 'string', value: 'DIR', help: 'write the results there' },
    record: { type: 'boolean', help: 'write bench/results/latest.{json,md}, the results BENCHMARKS.md quotes' },
    sizes: { type: 'string', value: '300,1000,…', help: "the scale curve's sizes" },
    'load-seconds': { type: 'string', value: 'S', help: "each gateway load run's length (default 3; 1 with --smoke)" },
    only: { type: 'string', value: 'scale|locales', help: 'the scale curve, or the multilingual row, alone' },
    images: { type: 'string', value: 'N', help: 'images in the corpus (default 1,000; 12 with --smoke)' },
    content: {
      type: 'string',
      value: 'DIR',
      help: 'the hand-written content the scale curve copies and npm run check runs on (default content/)',
    },
  },
})

const given = commandArgs(BENCH, process.argv.slice(2)).values
const args = {
  ...given,
  smoke: given.smoke === true,
  seed: given.seed ?? '1',
  'no-install': given['no-install'] === true,
  keep: given.keep === true,
  record: given.record === true,
}

const smoke = args.smoke
/**
 * The hand-written content the scale curve copies and `npm run check` runs on: the repository's
 * own; the smoke run's (what the tests run) the tests' fixture content (bench/lib/paths.ts).
 */
const content = args.content ? resolve(args.content) : smoke ? CONTENT_SOURCES.fixtures : CONTENT_SOURCES.repository
const items = Number(args.items ?? (smoke ? 300 : 10_000))
const config = {
  items,
  /** The small corpus (list sizes, memory): a tenth of the corpus, a third in the smoke run (100 of 300 items). */
  small_items: Math.max(1, Math.round(items / (smoke ? 3 : 10))),
  images: Number(args.images ?? (smoke ? 12 : 1_000)),
  seed: Number(args.seed),
  cold_runs: smoke ? 1 : 3,
  short_runs: smoke ? 1 : 5,
  /**
   * Saves timed per watch-mode row (edit → served). More than the other short runs: the first saves
   * after the dev server's first full pass are the slowest (20-35 ms where later ones take 12-18 at
   * 10,000 items), and with 5 one slow save moved the median by several milliseconds; the bench's
   * output lists every save.
   */
  watch_edits: smoke ? 1 : 9,
  load_runs: smoke ? 1 : 3,
  /** Unrecorded load runs first: none in the smoke run, whose numbers are thrown away. */
  load_warmups: smoke ? 0 : 1,
  load_seconds: Number(args['load-seconds'] ?? (smoke ? 1 : 3)),
  connections: smoke ? 10 : 50,
  /** The scale curve's sizes (realistic prose), each built cold `scale_runs` times by us and by Hugo. */
  scale_sizes: args.sizes ?? (smoke ? '300' : '300,1000,3000,10000,30000'),
  scale_runs: smoke ? 1 : 3,
  content: relative(REPO_ROOT, content) || '.',
}
/**
 * `--only scale`: the scale curve and the check alone (minutes instead of the whole run);
 * `--only locales`: the multilingual row alone, with the single-language cold build it is compared with.
 */
const only = args.only
if (only !== undefined && only !== 'scale' && only !== 'locales') {
  process.stderr.write(`--only: scale or locales, not ${JSON.stringify(only)}\n`)
  process.exit(2)
}
const onlyScale = only === 'scale'
const outDir = args.out ?? (args.record && !smoke ? RESULTS_DIR : join(RESULTS_DIR, 'tmp'))
const say = (line: string) => process.stderr.write(`${line}\n`)
const step = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
  const started = performance.now()
  say(`… ${label}`)
  const result = await fn()
  say(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return result
}
/** Run a peer or optional suite; its failure becomes the row's note instead of ending the run. */
const optional = async <T>(fn: () => Promise<T>): Promise<T | string> => {
  try {
    return await fn()
  } catch (error) {
    return `failed: ${(error as Error).message.split('\n')[0]}`
  }
}

const machine = await machineInfo()
await emptyStaleSetAside()
try {
  await benchAll()
} finally {
  await emptySetAside()
}

/** The run `only` asks for: the multilingual row, the scale curve, or everything. */
async function benchAll(): Promise<void> {
  if (only === 'locales') return benchLocalesAlone()
  const hugoMissing = await ensureHugo(!args['no-install'], say)
  const checked =
    content === CONTENT_SOURCES.repository
      ? "the repository's own content"
      : content === CONTENT_SOURCES.fixtures
        ? "the tests' fixture content"
        : `the content of ${config.content}`
  const check = await step(`npm run check on ${checked}`, () => benchCheck(content, config.short_runs))
  const sizes = config.scale_sizes.split(',').map(Number)
  const scale = await step(
    `scale curve: ${sizes.join(', ')} items of real prose, ours and Hugo, then edit → served`,
    () =>
      benchScale({
        sizes,
        runs: config.scale_runs,
        edits: config.watch_edits,
        seed: config.seed,
        source: content,
        searchRuns: config.short_runs,
        hugoMissing,
        keep: args.keep,
        say,
      }),
  )
  const curve = scaleRows(scale, check, checked)
  if (onlyScale) await writeReport(curve)
  else await benchEverything(curve, hugoMissing)
}

/** Print the table and write it (and the scale curve's plot) into outDir. */
async function writeReport(rows: Row[]): Promise<void> {
  const report: Report = { generated_at: new Date().toISOString(), smoke, config, machine, rows }
  await mkdir(outDir, { recursive: true })
  const name = smoke ? 'smoke' : (only ?? 'latest')
  await writeFile(join(outDir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`)
  await writeFile(join(outDir, `${name}.md`), toMarkdown(report))
  const plot = scalePlot(rows)
  if (plot) await writeFile(join(outDir, smoke ? 'smoke-scale.svg' : 'scale.svg'), plot)
  console.log(toConsole(report))
  say(`\nwritten to ${join(outDir, `${name}.json`)} and ${name}.md`)
}

/** The multilingual cold build against the single-language one of the same items, as the whole run measures them. */
async function benchLocalesAlone(): Promise<void> {
  const corpus = await step(`generating ${config.items} items (seed ${config.seed})`, () =>
    generateCorpus({ items: config.items, seed: config.seed }),
  )
  try {
    const single = await step('our build: cold', () => coldBuilds(corpus.root, config.cold_runs))
    const locales = await step(`our build of ${config.items} items, a third translated twice (cold)`, () =>
      optional(() => benchLocales(config.items, { seed: config.seed, runs: config.cold_runs, keep: args.keep })),
    )
    await writeReport([localesRow(locales, median(single.map((r) => r.wallMs)), config.items)])
  } finally {
    if (!args.keep) await rm(corpus.root, { recursive: true, force: true })
  }
}

/** The 10,000-item run: builds, peers, the gateway, MCP, memory, sizes; then the table with the scale curve's rows. */
async function benchEverything(curve: Row[], hugoMissing: string | undefined): Promise<void> {
  const corpus = await step(`generating ${config.items} items (seed ${config.seed})`, () =>
    generateCorpus({ items: config.items, seed: config.seed }),
  )
  const small = await step(`generating ${config.small_items} items`, () =>
    generateCorpus({ items: config.small_items, seed: config.seed }),
  )
  const large = await step(`generating ${config.items * 2} items (memory growth)`, () =>
    generateCorpus({ items: config.items * 2, seed: config.seed }),
  )
  say(`  corpus at ${corpus.root}`)
  try {
    const build = await step('our build: cold, no-change, forced with cache', () =>
      benchBuild(corpus.root, { cold: config.cold_runs, short: config.short_runs }),
    )
    const locales = await step(`our build of ${config.items} items, a third translated twice (cold)`, () =>
      optional(() => benchLocales(config.items, { seed: config.seed, runs: config.cold_runs, keep: args.keep })),
    )
    const sizes = await distSizes(join(corpus.root, 'dist'))
    await step(`our build of ${config.small_items} items (list sizes)`, async () => {
      await clean(small.root)
      await runBuild(small.root)
    })
    const smallSizes = await distSizes(join(small.root, 'dist'))
    const hugo = hugoMissing ?? (await step('Hugo', () => optional(() => benchHugo(corpus.root, config.short_runs))))
    const velite = await step('Velite', () => optional(() => benchVelite(corpus.root, config.cold_runs)))
    const watch = await step('watch: edit → served', () => optional(() => benchWatch(corpus, config.watch_edits)))
    const manifest = JSON.parse(
      await readFile(join(corpus.root, 'dist', '_build', 'manifest.json'), 'utf8'),
    ) as Manifest
    const gateway = await step('gateway under load', () =>
      benchGateway(join(corpus.root, 'dist'), loadTargets(manifest), {
        runs: config.load_runs,
        warmups: config.load_warmups,
        load: { connections: config.connections, seconds: config.load_seconds },
        workDir: corpus.root,
      }),
    )
    const mcp = await step('MCP tools/call search', () =>
      optional(() => benchMcp(corpus.root, config.short_runs, commonTag(manifest))),
    )
    const searchIndex = await step('search index build', () =>
      benchSearchIndex(join(corpus.root, 'dist'), manifest, config.short_runs),
    )
    await step(`our build of ${config.items * 2} items (memory growth)`, async () => {
      await clean(large.root)
      await runBuild(large.root)
    })
    const images = await step(`images: ${config.images} processed cold, against sharp alone`, () =>
      optional(() => benchImages(config.images, config.seed, config.short_runs)),
    )
    const memory: MemorySample[] = []
    for (const c of [small, corpus, large]) {
      const dist = join(c.root, 'dist')
      const m = JSON.parse(await readFile(join(dist, '_build', 'manifest.json'), 'utf8')) as Manifest
      memory.push(
        await step(`gateway memory, ${c.items} items`, () =>
          benchMemory(dist, m, c.items, {
            seconds: config.load_seconds,
            connections: config.connections,
            workDir: c.root,
          }),
        ),
      )
    }
    const samples: Samples = {
      items: config.items,
      smallItems: config.small_items,
      build,
      watch,
      hugo,
      velite,
      sizes,
      smallSizes,
      gateway,
      mcp,
      searchIndex,
      memory,
      images,
      locales,
    }
    const rows = buildRows(samples)
    // The scale curve after the build rows it extends.
    const at = rows.findIndex((r) => r.section !== 'build')
    rows.splice(at < 0 ? rows.length : at, 0, ...curve)
    await writeReport(rows)
  } finally {
    if (!args.keep) {
      await rm(corpus.root, { recursive: true, force: true })
      await rm(small.root, { recursive: true, force: true })
      await rm(large.root, { recursive: true, force: true })
    }
  }
}

/**
 * The benchmarked requests: a pre-rendered list, an item, a long-tail query,
 * the list queries a site makes (filters, order and fields; `when`, whose
 * answer the fast path repeats only while its Cache-Control stays the full
 * content lifetime, up to the next start less that lifetime) and health.
 */
function loadTargets(manifest: Manifest): Target[] {
  // The most used tags, so page 3 of the first has items at any corpus size.
  const [tag, second] = tagsByUse(manifest)
  // Some generated files are named with capitals (reverse-ETL-…), a slug the API does not serve.
  const servable = manifest.collections['blog-posts']!.filter((p) => new RegExp(SLUG_PATTERN).test(p.slug))
  return [
    { id: 'list', label: 'pre-rendered list (limit=10)', path: '/api/blog-posts?limit=10' },
    { id: 'item', label: 'item', path: `/api/blog-posts/${servable[Math.floor(servable.length / 2)]!.slug}` },
    { id: 'long-tail', label: `long-tail (page 3, tag)`, path: `/api/blog-posts?limit=10&page=3&tag=${tag}` },
    {
      id: 'filtered',
      label: 'computed filtered list (tags, sort, fields)',
      path: `/api/blog-posts?limit=10&page=2&tag=${tag},${second ?? tag}&sort=-updated_at,title&fields=title,slug,image`,
    },
    {
      id: 'upcoming',
      label: 'computed list by the clock (when=upcoming)',
      path: '/api/events?when=upcoming&sort=starts_at&limit=10&fields=title,starts_at,location',
    },
    { id: 'health', label: 'health', path: '/api/health' },
  ]
}
