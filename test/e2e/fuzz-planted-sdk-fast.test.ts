// The fast planted-SDK cases (the 60 s campaigns are in fuzz-planted-sdk.test.ts; real SDK servers, so end-to-end): a bug in a
// real SDK server found with a fixed seed and a few sequences, shrunk, replayed on it and on its twin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzz, replay, type FuzzOptions } from '../../index.js';
import type { ServerTarget } from '../../runner/server-driver.js';

const SDK2 = join(process.cwd(), 'dist/fixtures/servers/planted-sdk/sdk2.js');
const SDK1 = join(process.cwd(), 'dist/fixtures/servers/planted-sdk/sdk1.js');
const dir = mkdtempSync(join(tmpdir(), 'mcpspec-planted-sdk-fast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const server = (file: string, bug?: string): ServerTarget => ({ kind: 'stdio', command: process.execPath, args: [file, ...(bug ? ['--bug', bug] : [])] });
const base = (over: Partial<FuzzOptions>): FuzzOptions => ({ specVersion: 'auto', seed: 1, runs: 12, timeoutMs: 3_000, allowDestructive: false, allowOpenWorld: false, maxShrinkEvaluations: 20, ...over });

describe.concurrent('planted bugs in real SDK servers (fast cases)', () => {
  const cases = [
    { name: 'SDK 2.x: the same notification twice crashes it', file: SDK2, bug: 'repeat-notification', key: 'robustness.stays-up|notifications/progress', steps: 2 },
    { name: 'SDK 2.x: a resources/read result without text or blob', file: SDK2, bug: 'bad-read', key: 'wire.schema|resources/read', steps: 1 },
    { name: 'SDK 1.x: a very long string crashes it', file: SDK1, bug: 'long-string', key: 'robustness.stays-up|tools/call echo', steps: 1 },
  ];
  for (const c of cases) {
    it(`${c.name}: found, shrunk to ${c.steps} step(s), replayed (bug: reproduced; twin: not)`, async () => {
      const r = await fuzz(server(c.file, c.bug), base({ reproDir: join(dir, c.bug) }));
      const f = r.findings.find((x) => x.key === c.key);
      expect(f, r.findings.map((x) => x.key).join(', ')).toBeDefined();
      expect(f!.shrunk).toBe(true);
      expect(f!.steps).toHaveLength(c.steps);
      expect(f!.check).toBe(c.key.split('|')[0]);
      expect(f!.requirements.length).toBeGreaterThan(0);
      expect((await replay(f!.repro!)).reproduced).toBe(true);
      expect((await replay(f!.repro!, server(c.file))).reproduced).toBe(false);
    }, 180_000);
  }
});
