import { defineConfig } from 'vitest/config'
import { LongestFirst } from './test/sequencer.ts'
import { useMemoryTmpDir } from './test/helpers/tmp-dir.ts'

// Before the workers and the global set-up start (test/helpers/tmp-dir.ts says why).
useMemoryTmpDir()

/**
 * Test files that measure wall-clock behaviour (the watch mode's one-second
 * bar, the preview's reload) run one at a time after the rest, so nothing
 * disturbs them.
 */
const SOLO = ['test/build/compiler/watch/watch.test.ts', 'test/gateway/preview/preview.test.ts']

/**
 * The Netlify emulations with tight waits run one at a time, after the rest: beside the suite the
 * webhooks test's delivery waits run out, and the OAuth flow's client gives each request 30 s, which a
 * starved function's first answer can take. (Vitest 4 runs the files of a one-worker project in a group
 * of their own, last: whatever is here adds to the run's wall.) The others (config, parity, preview,
 * redirects, schedule) wait minutes for an answer and run in the suite.
 */
const NETLIFY_EMULATIONS = ['oauth', 'webhooks'].map((name) => `test/gateway/netlify/netlify-${name}.test.ts`)

/**
 * Test files that each load their modules afresh (Vitest's isolation). They change what other files
 * would see: a mark on the route table (deprecation), the process's environment or a spy on a global
 * (each restored, but another file's module may have read it meanwhile), the watch mode's module
 * state (two watch-mode files saw another file's and failed when run unisolated).
 */
const ISOLATED = [
  'test/build/compiler/watch/*.test.ts',
  'test/gateway/http/deprecation.test.ts',
  'test/gateway/preview/schedule.test.ts',
  'test/build/emit/dist-writer.test.ts',
  'test/build/history/git-state.test.ts',
  ...['audit-trail', 'full-disk', 'runtime-data', 'runtime-move', 'state-store', 'store-update'].map(
    (name) => `test/gateway/auth/${name}.test.ts`,
  ),
]

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // The files that take minutes (own-content.test.ts, which runs the smoke bench) start first (test/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test decides its own settings: an operator's REQUIRE_HISTORY=on (CI) is not theirs. This is
    // the test files' environment (and their child processes'); the global set-up sets its own.
    // Every build is as of one instant after every date the fixtures publish (they publish items
    // into 2027), so what a test sees never depends on the day it runs; a test of scheduling sets its own.
    env: { LOG_LEVEL: 'silent', REQUIRE_HISTORY: 'off', BUILD_TIME: '2028-01-01T00:00:00Z' },
    projects: [
      {
        extends: true,
        // Test files start real servers and builds. Four at a time on two cores: most files wait on
        // another process (a server, a build, Chromium, a release time) for much of their run, and
        // three left a quarter of the processor idle.
        // own-content.test.ts (the smoke bench) runs here too. A project of one worker at a time would run after all the
        // others (Vitest runs the files of such a project in a group of their own, last), never beside them.
        // Unisolated: a worker keeps the modules it loaded for its next file, so each file does not
        // load the build and the gateway afresh. The files that change module state or the
        // environment run isolated beside them (the next project, the same four workers).
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...SOLO, ...NETLIFY_EMULATIONS, ...ISOLATED],
          isolate: false,
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, exclude: SOLO, maxWorkers: 4, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'netlify',
          include: NETLIFY_EMULATIONS,
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'solo', include: SOLO, maxWorkers: 1, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
