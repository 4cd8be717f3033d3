import { defineConfig } from 'vitest/config';

// `npm run test:e2e`: real servers from npm, the packed CLI, Node 22.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // Concurrent cases (the planted-SDK fuzz campaigns) three at a time: each runs two targets at once.
    maxConcurrency: 3,
  },
});
