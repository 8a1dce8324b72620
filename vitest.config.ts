import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files start real servers and builds; two cores, so two at a time.
    maxWorkers: 2,
    env: { LOG_LEVEL: 'silent' },
  },
})
