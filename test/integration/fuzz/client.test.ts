// `mcpspec fuzz client`: the reference client served near-valid and odd answers for a fixed budget
// reports nothing; planted client bugs (a crash on a particular near-valid tools/list, acting on an
// invalid answer as valid) are found, shrunk to one answer, saved as client repros and replayed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzzClient, replayClient, type ClientRepro } from '../../../index.js';
import type { ClientTarget } from '../../../runner/client-driver.js';
import { cli } from '../../helpers/cli.js';

const REF = join(process.cwd(), 'dist/fixtures/clients/reference/main.js');
const PLANTED = join(process.cwd(), 'dist/fixtures/clients/planted/main.js');
const dir = mkdtempSync(join(tmpdir(), 'mcpspec-fuzz-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const http = (file: string, ...bugs: string[]): ClientTarget => ({ transport: 'http', command: process.execPath, args: [file, ...bugs.flatMap((b) => ['--bug', b]), '--http', '{url}'] });
const stdio = (file: string, ...bugs: string[]): ClientTarget => ({ transport: 'stdio', command: process.execPath, args: [file, ...bugs.flatMap((b) => ['--bug', b]), '--stdio', '{server}'] });
const base = { specVersion: 'auto' as const, timeoutMs: 10_000, runs: 12 };

describe('fuzz client', () => {
  it('the reference client reports nothing for a fixed budget over both transports', async () => {
    for (const target of [http(REF), stdio(REF)]) {
      const r = await fuzzClient(target, { ...base, seed: 3 });
      expect(r.era.version).toBe('2026-07-28');
      expect(r.runs).toBe(12);
      expect(r.runs - r.unjudged).toBeGreaterThan(6);
      expect(r.findings).toEqual([]);
    }
  }, 300_000);

  it('a crash on a particular near-valid tools/list is found, shrunk to that one answer, saved with role client, and replayed', async () => {
    const out = join(dir, 'crash');
    const r = await fuzzClient(stdio(PLANTED, 'nameless-tool-crash'), { ...base, seed: 2, reproDir: out, maxShrinkEvaluations: 15 });
    const f = r.findings.find((x) => x.key === 'crash|tools/list');
    expect(f, `findings: ${r.findings.map((x) => x.key).join(', ')}`).toBeDefined();
    expect(f!.reproduced).toBe(true);
    expect(f!.message).toMatch(/uncaught exception/);
    expect(f!.answers).toHaveLength(1);
    expect(f!.answers[0]).toMatchObject({ method: 'tools/list', variant: 'near-valid' });
    const repro = JSON.parse(readFileSync(f!.repro!, 'utf8')) as ClientRepro;
    expect(repro.role).toBe('client');
    expect(repro.target).toMatchObject({ role: 'client', transport: 'stdio' });
    expect((await replayClient(repro)).reproduced).toBe(true);
    const fixed = await replayClient(repro, stdio(PLANTED));
    expect(fixed.reproduced).toBe(false);
    expect(fixed.observations).toEqual([]);
    // The CLI replays a client repro too: 1 while the bug is there, 0 on the fixed client.
    const again = await cli(['replay', f!.repro!]);
    expect(again.code, again.out + again.err).toBe(1);
    expect(again.out).toMatch(/still there/);
    const ok = await cli(['replay', f!.repro!, '--stdio', '--', process.execPath, PLANTED, '--stdio', '{server}']);
    expect(ok.code, ok.out + ok.err).toBe(0);
  }, 300_000);

  it('acting on an invalid answer as valid (a tool name from a broken tools/list passed on) is found over HTTP', async () => {
    const r = await fuzzClient(http(PLANTED, 'pass-on'), { ...base, seed: 3, maxShrinkEvaluations: 10 });
    const f = r.findings.find((x) => x.key === 'acted-on-invalid|tools/list');
    expect(f, `findings: ${r.findings.map((x) => x.key).join(', ')}`).toBeDefined();
    expect(f!.reproduced).toBe(true);
    expect(f!.answers).toHaveLength(1);
    expect(f!.message).toMatch(/invalid tools\/call/);
  }, 300_000);

  it('CLI: exit 1 with a finding and report.json; usage mistakes exit 2', async () => {
    const out = join(dir, 'cli');
    const r = await cli(['fuzz', 'client', '--seed', '2', '--runs', '12', '--out', out, '--stdio', '--', process.execPath, PLANTED, '--bug', 'nameless-tool-crash', '--stdio', '{server}']);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toMatch(/FAIL client\.near-valid-survives \(crash\) at tools\/list/);
    expect(r.out).toMatch(/rule: client\.near-valid-survives \[JR-04, EX-05\]/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.findings[0].repro).toMatch(/repro-client-crash-tools-list\.json$/);
    const a = await cli(['fuzz', 'client', '--runs', '2', '--http', '--', 'node', PLANTED]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/\{url\}/);
    const b = await cli(['fuzz', 'nobody', '--stdio', '--', 'node', PLANTED]);
    expect(b.code).toBe(2);
  }, 300_000);
});
