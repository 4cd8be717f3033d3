import { defineConfig } from 'vitest/config';

// `npm run test:e2e`, two groups one after the other:
// - integration (test/integration): mcpspec's own CLI as a user runs it, the GitHub Action's script, fuzz
//   campaigns and slow servers, all on the project's fixtures; files side by side, as in `npm test`.
// - real targets (test/e2e): real servers and clients from npm, the packed CLI, Node 22, the browser;
//   one file at a time, concurrent cases (the planted-SDK fuzz campaigns) three at a time.
export default defineConfig({
  test: {
    testTimeout: 600_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], maxWorkers: 3, testTimeout: 120_000, hookTimeout: 60_000, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'real targets', include: ['test/e2e/**/*.test.ts'], fileParallelism: false, maxConcurrency: 3, sequence: { groupOrder: 1 } } },
    ],
  },
});
