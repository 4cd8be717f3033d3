// `mcpspec server --url <endpoint> --start -- <command>` (built CLI): the reference fixture started
// over HTTP once for the run, on a free {port}; a command that exits at once or never listens; a
// server that dies during the run (a reference fault); usage mistakes. Every started process
// carries a marker variable (--env), so the tests can tell that none outlives mcpspec.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const REF = 'dist/fixtures/servers/reference/main.js';
const URL_TEMPLATE = 'http://127.0.0.1:{port}/mcp';
const START_REF = ['--url', URL_TEMPLATE, '--start', '--', 'node', REF, '--http', '--port', '{port}'];
const outDir = () => mkdtempSync(join(tmpdir(), 'mcpspec-start-'));

/** A fresh marker, and the --env that gives it to the started server. */
function marker(): { mark: string; env: string[] } {
  const mark = `MCPSPEC_TEST_MARK=${randomUUID()}`;
  return { mark, env: ['--env', mark] };
}

/** Processes still running with the marker in their environment (Linux: /proc; elsewhere none can be seen). */
function marked(mark: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(mark)) found.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

function schemaValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ((addFormatsModule as any).default ?? addFormatsModule)(ajv);
  return ajv.compile(JSON.parse(readFileSync('reports/report.schema.json', 'utf8')));
}

describe('mcpspec server --start: the HTTP server started once for the run', () => {
  it('a conformant server: exit 0, the report names the URL and start command as given, server.log is kept, the server is stopped', async () => {
    const out = outDir();
    const { mark, env } = marker();
    // cancel-modern waits out a timeout by design: left out, so the run is short.
    const r = await cli(['server', '--seed', '3', '--only', 'jsonrpc.*', '--skip', 'cancel.*', '--out', out, ...env, ...START_REF]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain(`${URL_TEMPLATE} (server under test, http, started with node ${resolve(REF)} --http --port {port})`);
    expect(r.out).toContain(`server log: ${join(out, 'server.log')}`);
    expect(r.err).not.toContain("the started server's output"); // shown only when something failed

    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const validate = schemaValidator();
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.target).toEqual({ role: 'server', transport: 'http', url: URL_TEMPLATE, start: { command: 'node', args: [resolve(REF), '--http', '--port', '{port}'] } });
    expect(report.summary.conformant).toBe(true);
    expect(report.findings.filter((f: { kind: string }) => f.kind === 'crash')).toEqual([]);

    // One start, on one free port, stopped by mcpspec at the end.
    const events = JSON.parse(readFileSync(join(out, 'recording.json'), 'utf8')).events as { note?: string; kind?: string; data?: Record<string, unknown> }[];
    const starts = events.filter((e) => e.note === 'process-start');
    expect(starts).toHaveLength(1);
    const served = String(starts[0].data?.url);
    expect(served).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(events.filter((e) => e.kind === 'process-exit' && e.data?.pid === starts[0].data?.pid).map((e) => e.data?.expected)).toEqual([true]);
    expect(readFileSync(join(out, 'server.log'), 'utf8')).toContain(`listening ${served}`);
    expect(marked(mark)).toEqual([]);

    // verify takes the target the same way: the server started afresh for the re-run, then stopped.
    const v = await cli(['verify', join(out, 'report.json'), ...env, ...START_REF]);
    expect(v.code, v.out + v.err).toBe(0);
    expect(v.out).toMatch(/verified: \d+ verdicts match/);
    expect(marked(mark)).toEqual([]);
    const client = await cli(['verify', join(out, 'report.json'), '--start', '--', 'node', REF]);
    expect(client.code).toBe(2);
    expect(client.err).toContain('--start goes with --url');
  });

  it('a command that exits at once: exit 2, its output, then one line saying so; server.log kept, no report', async () => {
    const out = outDir();
    const r = await cli(['server', '--out', out, '--url', URL_TEMPLATE, '--start', '--', 'node', '-e', 'console.error("fatal: no config file"); process.exit(3)'], 30_000);
    expect(r.code, r.out + r.err).toBe(2);
    const lines = r.err.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^mcpspec: cannot test the target: "node -e .*" exited \(code 3, signal null\) before accepting connections on 127\.0\.0\.1:\d+$/);
    expect(lines.filter((l) => l.startsWith('mcpspec:'))).toHaveLength(1);
    expect(r.err).toContain(`the started server's output (1 line; all of it in ${join(out, 'server.log')}):\n  | fatal: no config file\n`);
    expect(readFileSync(join(out, 'server.log'), 'utf8')).toBe('fatal: no config file\n');
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  });

  it('a command that never listens: the start timeout bounds the wait, exit 2, and it is stopped', async () => {
    const { mark, env } = marker();
    const t0 = Date.now();
    const r = await cli(['server', '--start-timeout', '1s', ...env, '--url', URL_TEMPLATE, '--start', '--', 'node', '-e', 'console.log("thinking"); setInterval(() => {}, 1000)'], 30_000);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.err.trim().split('\n').at(-1)).toMatch(/^mcpspec: cannot test the target: ".*" did not accept connections on 127\.0\.0\.1:\d+ within 1000 ms \(--start-timeout gives it longer\)$/);
    expect(r.err).toContain('  | thinking');
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(marked(mark)).toEqual([]);
  });

  it('a server that dies during the run: a crash finding with its output, robustness.stays-up fails, the scenarios under way are cut short, the run goes on with it started again', async () => {
    const out = outDir();
    const { mark, env } = marker();
    const r = await cli(['server', '--seed', '1', '--out', out, ...env, ...START_REF, '--fault', 'robustness.survives-near-valid']);
    expect(r.code, r.out + r.err).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.checks.find((c: { id: string }) => c.id === 'robustness.stays-up')).toMatchObject({ status: 'fail', message: expect.stringMatching(/^the target exited with code 70\b/) });
    // The death is the one crash: the connections it broke and the scenarios it cut short are not crashes of their own.
    const crashes = report.findings.filter((f: { kind: string }) => f.kind === 'crash');
    expect(crashes).toHaveLength(1);
    expect(crashes[0].message).toBe('the target exited with code 70');
    expect(crashes[0].scenario).toBeUndefined();
    expect(crashes[0].stderrTail).toContain('reference server: exiting without an answer (a --fault)');
    const cut = report.scenarios.filter((s: { message?: string }) => s.message === 'the started server exited during this scenario (see the crash finding)');
    expect(cut.map((s: { id: string }) => s.id)).toContain('robustness.near-valid');
    // Scenarios after the death ran on the server started again: judged, not cut short.
    const log = readFileSync(join(out, 'server.log'), 'utf8');
    expect(log).toContain('[mcpspec: the server exited (code 70, signal null); starting it again]');
    expect(report.checks.filter((c: { status: string }) => c.status === 'pass').length).toBeGreaterThan(40);
    expect(r.err).toMatch(/the started server's output \(\d+ lines; all of it in .*server\.log\):\n(  \| .*\n)*  \| reference server: exiting without an answer \(a --fault\)\n/);
    expect(marked(mark)).toEqual([]);
  });
});

describe('mcpspec server --start: usage mistakes (exit 2, one line)', () => {
  it.each([
    [['server', '--start', '--', 'node', REF], /--start goes with --url: mcpspec server --url <endpoint> --start -- <command>/],
    [['server', '--stdio', '--start', '--', 'node', REF], /--start goes with --url/],
    [['server', '--url', URL_TEMPLATE, '--start'], /--start needs the server command after --/],
    [['server', '--url', 'http://127.0.0.1:9/mcp', '--', 'node', REF], /a command after -- needs --stdio \(or --start with --url\)/],
    [['server', '--url', URL_TEMPLATE], /\{port\} in --url needs --start -- <command>/],
    [['server', '--url', 'http://127.0.0.1:9/mcp', '--start', '--', 'node', REF, '--port', '{port}'], /\{port\} in the command needs \{port\} in --url too/],
    [['server', '--start-timeout', '5s', '--url', 'http://127.0.0.1:9/mcp'], /--start-timeout goes with --url <endpoint> --start -- <command>/],
    [['server', '--url', 'not a url {port}', '--start', '--', 'node', REF], /--url is not a URL/],
  ])('%j', async (args, message) => {
    const r = await cli(args as string[], 30_000);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.err).toMatch(message as RegExp);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
