import { defineConfig } from 'vitest/config'

/**
 * Test files that measure wall-clock behaviour (the watch mode's one-second
 * bar, the preview's reload) or load the machine (the smoke bench) run one at
 * a time after the rest, so neither slows or disturbs the other.
 */
const SOLO = [
  'test/build/compiler/watch/watch.test.ts',
  'test/gateway/preview/preview.test.ts',
  'test/bench/**/*.test.ts',
]

/**
 * Netlify's emulations run one at a time beside the rest: two at once wait on each
 * other (a function's first call then takes minutes).
 */
const NETLIFY = ['test/gateway/netlify/**/*.test.ts']

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test decides its own settings: an operator's REQUIRE_HISTORY=on (CI) is not theirs.
    env: { LOG_LEVEL: 'silent', REQUIRE_HISTORY: 'off' },
    projects: [
      {
        extends: true,
        // Test files start real servers and builds. Three at a time on two cores: the slowest
        // files (Netlify's emulation, the Inspector under Node 22) mostly wait on another process.
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...SOLO, ...NETLIFY],
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'netlify',
          include: NETLIFY,
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
