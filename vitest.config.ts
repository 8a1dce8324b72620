import { defineConfig } from 'vitest/config'

/**
 * Test files that measure wall-clock behaviour (the watch mode's one-second
 * bar, the preview's reload) run one at a time after the rest, so nothing
 * disturbs them.
 */
const SOLO = ['test/build/compiler/watch/watch.test.ts', 'test/gateway/preview/preview.test.ts']

/**
 * Netlify's emulations run one at a time beside the rest: two at once wait on each
 * other (a function's first call then takes minutes). The smoke bench (which asserts
 * no timing, only that every row yields a number) runs in the same lane: it takes
 * minutes of one process, which beside the rest costs less than after it; so does the
 * suite that runs part of it and another suite in a copy of the repository.
 */
const ONE_AT_A_TIME = ['test/gateway/netlify/**/*.test.ts', 'test/bench/**/*.test.ts', 'test/own-content.test.ts']

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
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
        // Test files start real servers and builds. Three at a time on two cores: the slowest
        // files (Netlify's emulation, the Inspector under Node 22) mostly wait on another process.
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...SOLO, ...ONE_AT_A_TIME],
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'one-at-a-time',
          include: ONE_AT_A_TIME,
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
