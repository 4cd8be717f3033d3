// Each planted bug is found, shrunk to its minimal sequence, saved as a repro, and replayed: the
// replay reproduces it on the buggy server and passes on the same server without the bug.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzz, replay, readRepro, type FuzzOptions, type FuzzStep } from '../../../index.js';
import type { ServerTarget } from '../../../runner/server-driver.js';

const PLANTED = join(process.cwd(), 'dist/fixtures/servers/planted/main.js');
const planted = (...bugs: string[]): ServerTarget => ({ kind: 'stdio', command: process.execPath, args: [PLANTED, ...bugs.flatMap((b) => (b.startsWith('--') ? [b] : ['--bug', b]))] });
const dir = mkdtempSync(join(tmpdir(), 'mcpspec-fuzz-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = (over: Partial<FuzzOptions>): FuzzOptions => ({ specVersion: '2025-11-25', seed: 1, runs: 30, timeoutMs: 2000, allowDestructive: false, allowOpenWorld: false, ...over });

async function findAndReplay(bug: string, opts: Partial<FuzzOptions>, key: string, features: string[] = []) {
  const out = join(dir, bug);
  const r = await fuzz(planted(...features, bug), base({ ...opts, reproDir: out }));
  // A key ending in '|' names the oracle and any method.
  const f = r.findings.find((x) => (key.endsWith('|') ? x.key.startsWith(key) : x.key === key));
  expect(f, `findings: ${r.findings.map((x) => x.key).join(', ')}`).toBeDefined();
  expect(f!.reproduced).toBe(true);
  expect(f!.repro).toBeDefined();
  const repro = readRepro(f!.repro!);
  expect(repro.finding.key).toBe(f!.key);
  expect(repro.steps).toEqual(f!.steps);
  expect(repro.sent).toHaveLength(f!.steps.length);
  const still = await replay(f!.repro!);
  expect(still.reproduced).toBe(true);
  const fixed = await replay(repro, planted(...features));
  expect(fixed.reproduced).toBe(false);
  expect(fixed.observations).toEqual([]);
  // The report file format: a path the CLI prints and JSON the repro reader accepts.
  expect(JSON.parse(readFileSync(f!.repro!, 'utf8')).reproVersion).toBe(2);
  return { r, f: f!, steps: f!.steps };
}

const call = (s: FuzzStep) => (s.kind === 'call' ? s : undefined);

// The cases run side by side: each waits mostly on its own processes and timeouts.
describe.concurrent('fuzz finds, shrinks and replays planted bugs (stdio)', () => {
  it('crash after a sequence: tools/call lookup after resources/list, shrunk to those two steps', async () => {
    const { steps, f } = await findAndReplay('crash-after-list', { seed: 2 }, 'robustness.stays-up|tools/call lookup');
    expect(f.oracle).toBe('crash');
    expect(f.evidence.stderrTail).toContain('lookup after resources/list');
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({ kind: 'request', method: 'resources/list' });
    expect(steps[1]).toMatchObject({ kind: 'call', tool: 'lookup' });
  });

  it('hang on a value: echo with text longer than 1000 characters, shrunk to one call', async () => {
    const { steps, f } = await findAndReplay('hang-long', { seed: 1, timeoutMs: 1500 }, 'robustness.keeps-answering|tools/call echo');
    expect(f.oracle).toBe('hang');
    expect(steps).toHaveLength(1);
    const text = (call(steps[0])?.arguments as { text: string }).text;
    expect(text.length).toBeGreaterThan(1000);
    expect(text.length).toBeLessThan(1100); // shrunk towards the 1001-character edge
  });

  it('invalid result for one argument shape: greet with the optional title, shrunk to one call', async () => {
    const { steps, f } = await findAndReplay('bad-optional', { seed: 1 }, 'wire.schema|tools/call greet');
    expect(f.message).toMatch(/content/);
    expect(steps).toHaveLength(1);
    expect(call(steps[0])?.arguments).toHaveProperty('title');
  });

  it('wrong id for unusual ids: a string id with spaces is echoed trimmed, shrunk to one request', async () => {
    const { r, steps, f } = await findAndReplay('trim-ids', { seed: 2, runs: 10, timeoutMs: 1000, methods: ['ping', 'tools/list'], maxShrinkEvaluations: 20 }, 'jsonrpc.id-echo|');
    expect(r.findings.every((x) => x.oracle === 'id-mismatch' || x.oracle === 'unanswered')).toBe(true);
    expect(f.message).toMatch(/"step 0"/);
    expect(steps).toHaveLength(1);
    // The spaces style came from the sequence's id theme (or the step's own style); the repro keeps it.
    const step = steps[0] as { idStyle?: string };
    expect(f.idTheme === 'spaces' || step.idStyle === 'spaces').toBe(true);
    expect(readRepro(f.repro!).idTheme).toBe(f.idTheme);
  }, 300_000);

  it('transport layer: a message written in pieces is lost by a server that cuts each read into lines by itself, shrunk to one split write', async () => {
    const { steps, f } = await findAndReplay('split-reads', { seed: 1, runs: 20, timeoutMs: 1000, maxShrinkEvaluations: 15 }, 'jsonrpc.answers-requests|');
    expect(f.method).toMatch(/^split write /);
    expect(steps).toHaveLength(1);
    expect(steps[0].kind).toBe('split');
  }, 300_000);

  it('crash after state the session model tracks: unsubscribe of a live subscription, shrunk to subscribe + unsubscribe', async () => {
    const { steps, f } = await findAndReplay('unsubscribe-crash', { seed: 3, runs: 20 }, 'robustness.stays-up|resources/unsubscribe', ['--subscriptions']);
    expect(f.evidence.stderrTail).toContain('unsubscribe of a live subscription');
    expect(steps.map((s) => s.kind)).toEqual(['subscribe', 'unsubscribe']);
  });

  it('the bug-free flag set fuzzed with the same budget reports nothing', async () => {
    const r = await fuzz(planted('--subscriptions'), base({ seed: 1, runs: 40 }));
    expect(r.profile.subscriptions).toBe(true);
    expect(r.runs).toBe(40);
    expect(r.steps).toBeGreaterThan(40);
    expect(r.findings).toEqual([]);
  });
});
