/**
 * Watch mode: append a line to one item's Markdown and poll the dev server
 * (gateway/dev-server.ts `startDev`, in its own process) until that item's JSON
 * carries it. The time from the write to the first answer with the new bytes.
 *
 * Saves come 1.5 s apart, as an author saving again soon after: the dev
 * server starts its full pass (whole-content outputs) 1 s after a save, and at
 * 10,000 items that pass takes seconds, so each measured save lands while the
 * previous save's full pass is still running and must not wait for it.
 *
 * Before the measured saves, the warm-up save's full pass must have completed
 * once: for large content it runs on a worker thread whose own compiler first
 * opens every file (a minute at 30,000 items), and that start is not an edit.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Corpus } from '../corpus/generate.ts'
import { REPO_ROOT, TSX_NODE_ARGS } from '../lib/paths.ts'
import { startChildServer } from '../lib/server.ts'

const TIMEOUT_MS = 30_000
/** How long the first full pass may take (the worker opening its compiler at 30,000 items included). */
const FIRST_PASS_MS = 600_000
/** Time between one save being served and the next save. */
const SAVE_INTERVAL_MS = 1500

export async function benchWatch(corpus: Corpus, runs: number): Promise<number[]> {
  const file = join(corpus.root, corpus.sample['blog-posts']!)
  const url = (base: string) => `${base}/api/blog-posts/${basename(file, '.md')}`
  const original = await readFile(file, 'utf8')
  let printed = ''
  let onPrinted = () => {}
  const dev = await startChildServer(
    [...TSX_NODE_ARGS, 'bench/servers/dev.ts', corpus.root],
    /"url":"(http:\/\/[^"]+)"/,
    {
      cwd: REPO_ROOT,
      // The first build of 30,000 items takes minutes on a busy machine.
      startMs: FIRST_PASS_MS,
      follow: (text) => {
        printed = (printed + text).slice(-10_000)
        onPrinted()
      },
    },
  )
  const fullPass = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no full pass within 10 minutes')), FIRST_PASS_MS)
      onPrinted = () => {
        if (!/✓ full build/.test(printed)) return
        clearTimeout(timer)
        resolve()
      }
      onPrinted()
    })
  try {
    const times: number[] = []
    // One unrecorded edit warms the incremental path.
    for (let run = -1; run < runs; run++) {
      const marker = `Benchmark edit ${run + 2} ${Date.now()}.`
      const started = performance.now()
      await writeFile(file, `${original}\n${marker}\n`)
      for (;;) {
        // A keep-alive connection the server closed (or reset while its thread was busy) fails the
        // next request on it: ask again.
        const body = await fetch(url(dev.url)).then(
          (r) => r.text(),
          () => '',
        )
        if (body.includes(marker)) break
        if (performance.now() - started > TIMEOUT_MS) throw new Error(`the edit was not served within ${TIMEOUT_MS} ms`)
        await new Promise((r) => setTimeout(r, 2))
      }
      if (run >= 0) times.push(performance.now() - started)
      else await fullPass()
      // The next save 1.5 s later: inside the previous save's full pass (see above), on purpose.
      await new Promise((r) => setTimeout(r, SAVE_INTERVAL_MS))
    }
    return times
  } finally {
    await writeFile(file, original)
    await dev.stop()
  }
}
