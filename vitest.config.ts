import { defineConfig } from 'vitest/config';

// `npm test`: the units, the checks' judges and every check's fault in the reference fixtures. The CLI
// run as a process, fuzz campaigns, slow servers (test/integration) and real npm targets, the packed
// CLI, Node 22 and the browser (test/e2e) are `npm run test:e2e`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/integration/**', 'node_modules/**'],
    // The tests mostly wait on child processes and sockets: more files at once than cores keeps the
    // wall time down (vitest's default on a 2-core machine is one file at a time).
    maxWorkers: 4,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
