// A campaign ends by its own clock: --time bounds the whole run (shrinking included), findings are
// reported the moment they are found (before shrinking), SIGINT ends it at once with what was found,
// written, and no target process left; a correct server that takes 2 s per answer gives no finding.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzz, type FuzzEvent } from '../../../index.js';

const REF = join(process.cwd(), 'dist/fixtures/servers/reference/main.js');
const PLANTED = join(process.cwd(), 'dist/fixtures/servers/planted/main.js');
const DELAY = join(process.cwd(), 'test/helpers/delay-proxy.mjs');
const dir = mkdtempSync(join(tmpdir(), 'mcpspec-fuzz-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Processes whose command line holds all of these words (the planted server, run with a marker). */
function alive(...words: string[]): string[] {
  const lines = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n');
  return lines.filter((l) => words.every((w) => l.includes(w)) && !l.includes('mcpspec.js'));
}

describe.concurrent('the campaign clock', () => {
  it('--time bounds the whole run: findings come as they are found, shrinking shares what is left, nothing outlives it', async () => {
    const events: FuzzEvent[] = [];
    const started = Date.now();
    const r = await fuzz(
      { kind: 'stdio', command: process.execPath, args: [PLANTED, '--bug', 'crash-after-list', '--bug', 'hang-long', '--bug', 'trim-ids'] },
      { specVersion: '2025-11-25', seed: 1, timeMs: 10_000, timeoutMs: 1_500, allowDestructive: false, allowOpenWorld: false, reproDir: join(dir, 'time'), onEvent: (e) => events.push(e) },
    );
    const took = Date.now() - started;
    expect(took).toBeLessThan(10_000 + 3_000);
    expect(r.findings.length).toBeGreaterThan(0);
    // Each finding was reported (with its repro) before any shrinking began.
    const firstShrink = events.findIndex((e) => e.type === 'shrinking');
    const found = events.filter((e, i) => e.type === 'finding' && !e.finding.shrunk && !e.finding.shrinkNote && (firstShrink < 0 || i < firstShrink));
    expect(found.length).toBe(r.findings.length);
    for (const f of r.findings) {
      expect(f.repro && existsSync(f.repro)).toBe(true);
      expect(f.check).toMatch(/^[a-z]+\.[a-z-]+$/);
      expect(f.shrunk || /not shrunk|cut short/.test(f.shrinkNote ?? '')).toBe(true);
    }
    expect(alive(PLANTED, 'hang-long', 'trim-ids')).toEqual([]);
  }, 60_000);

  it('SIGINT ends the CLI within 2 s with what was found reported and written, and no target left', async () => {
    const out = join(dir, 'sigint');
    const child = spawn('node', ['dist/bin/mcpspec.js', 'fuzz', '--seed', '1', '--time', '60s', '--timeout', '2s', '--json', '--out', out, '--stdio', '--', 'node', PLANTED, '--bug', 'crash-after-list', '--subscriptions'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Wait for the first finding (or 20 s), then interrupt.
    for (let t = 0; t < 200 && !text.includes('"type":"finding"'); t++) await new Promise((r) => setTimeout(r, 100));
    expect(text).toContain('"type":"finding"');
    const sent = Date.now();
    child.kill('SIGINT');
    const code = await exited;
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const crash = report.findings.find((f: { kind: string }) => f.kind === 'crash');
    expect(crash?.repro && existsSync(crash.repro)).toBe(true);
    expect(report.findings.some((f: { message: string }) => /interrupted/.test(f.message))).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(PLANTED, 'crash-after-list', '--subscriptions')).toEqual([]);
  }, 60_000);

  it('a correct server that takes 2 s to answer anything gives no finding (timeout 5 s)', async () => {
    const r = await fuzz(
      { kind: 'stdio', command: process.execPath, args: [DELAY, '--delay-ms', '2000', '--', process.execPath, REF] },
      { specVersion: '2025-11-25', seed: 2, runs: 4, maxLength: 3, timeoutMs: 5_000, allowDestructive: false, allowOpenWorld: false },
    );
    expect(r.runs).toBe(4);
    expect(r.findings.map((f) => `${f.check} ${f.method}: ${f.message}`)).toEqual([]);
  }, 120_000);
});
