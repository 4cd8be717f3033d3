// Repeatable verdicts: the same run twice (same seed, same target) judges the same checks the same
// way, what could be judged included. Each case runs the suite once with --out, then
// `mcpspec verify --strict` re-runs the report's options on the same target: exit 0 means no verdict
// contradicts it and no check was judged in one run only. Real servers send things on their own
// timers (server-everything: roots/list 350 ms after initialization, a log message every 5 s), and
// real clients do their work at their own pace; neither may decide a verdict.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { ENTRY, startHttpTarget, type HttpTarget } from '../helpers/targets.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpspec-repeat-'));
const started: HttpTarget[] = [];
afterAll(async () => {
  for (const t of started) await t.stop();
  rmSync(dir, { recursive: true, force: true });
});

const SDK2 = resolve('test/e2e/clients/sdk2-client.mjs');
const SDK1 = resolve('test/e2e/clients/sdk1-client.mjs');

/** Run once, verify strictly once; both exit codes and the verify output. */
async function twice(name: string, run: string[], target: string[]): Promise<void> {
  const out = join(dir, name);
  const first = await cli([...run, '--seed', '1', '--out', out, ...target], 300_000);
  expect([0, 1], first.out + first.err).toContain(first.code);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { checks: { status: string }[] };
  expect(report.checks.filter((c) => ['pass', 'fail', 'warn'].includes(c.status)).length).toBeGreaterThan(10);
  const again = await cli(['verify', join(out, 'report.json'), '--strict', ...target], 300_000);
  expect(again.out + again.err, again.out + again.err).toMatch(/^verified: \d+ verdicts match; digest sha256:/m);
  expect(again.code, again.out + again.err).toBe(0);
}

describe.concurrent('the same run twice gives the same verdicts (verify --strict)', () => {
  it('server-everything over stdio', { timeout: 600_000 }, async () => {
    await twice('everything-stdio', ['server'], ['--stdio', '--', process.execPath, ENTRY.everything(), 'stdio']);
  });

  it('server-everything over Streamable HTTP (one server for both runs)', { timeout: 600_000 }, async () => {
    const t = await startHttpTarget('everything');
    started.push(t);
    await twice('everything-http', ['server'], ['--url', t.url]);
  });

  it('the reference fixture as a 2025-11-25 server over stdio', { timeout: 600_000 }, async () => {
    await twice('reference-legacy', ['server', '--spec-version', '2025-11-25'], ['--stdio', '--', process.execPath, ENTRY.reference()]);
  });

  for (const [client, file] of [['@modelcontextprotocol/client 2.4.0', SDK2], ['@modelcontextprotocol/sdk 1.32.2', SDK1]] as const) {
    it(`${client} over stdio`, { timeout: 600_000 }, async () => {
      await twice(`${client.replace(/\W+/g, '-')}-stdio`, ['client', '--stdio', '--timeout', '20s'], ['--', process.execPath, file, '--stdio', '{server}']);
    });
    it(`${client} over HTTP`, { timeout: 600_000 }, async () => {
      await twice(`${client.replace(/\W+/g, '-')}-http`, ['client', '--http', '--timeout', '20s'], ['--', process.execPath, file, '--http', '{url}']);
    });
  }
});
