import { defineConfig } from 'vitest/config';

// `npm test`: everything but real npm targets, the packed CLI, Node 22 and the browser (those are `npm run test:e2e`).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
