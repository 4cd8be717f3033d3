// `mcpspec client`: the CLI end to end on the built reference client, and bad input: one clear line,
// the right exit code, no process left behind, no port left open.
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { idsOfRun } from '../helpers/catalogue-counts.js';
import { cli } from '../helpers/cli.js';

const REF = 'dist/fixtures/clients/reference/main.js';
const BAD = resolve('test/helpers/bad-client.mjs');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portOpen(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((res) => {
    const s = connect({ host: u.hostname, port: Number(u.port) });
    s.once('connect', () => {
      s.destroy();
      res(true);
    });
    s.once('error', () => res(false));
  });
}

describe('mcpspec client', () => {
  it('judges a conformant client over stdio ({server}): exit 0, client checks only', async () => {
    // A generous timeout: this runs beside other tests on a loaded machine, and a client still running at the timeout is a hang.
    const r = await cli(['client', '--stdio', '--json', '--timeout', '30s', '--', 'node', REF, '--stdio', '{server}']);
    const bad = r.out.split('\n').filter((l) => /"type":"finding"|"status":"(fail|warn|error)"/.test(l));
    expect(r.err).toBe('');
    expect(r.code, bad.join('\n')).toBe(0);
    const events = r.out.trim().split('\n').map((l) => JSON.parse(l));
    const checks = events.filter((e) => e.type === 'check').map((e) => e.result);
    // Every client check of a 2026-07-28 stdio run (verdicts come in the order scenarios end).
    expect(checks.map((c: { id: string }) => c.id).sort()).toEqual(idsOfRun('client', '2026-07-28', 'stdio').sort());
    expect(checks.every((c: { id: string; role: string }) => c.id.startsWith('client.') && c.role === 'client')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', summary: { fail: 0 } });
  });

  it('judges a faulty client over HTTP ({url}): exit 1, the failure in the console report, report.json written', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mcpspec-client-')), 'r');
    const r = await cli(['client', '--http', '--only', 'client.http-*', '--out', out, '--', 'node', REF, '--fault', 'client.http-accept', '--http', '{url}']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL client.http-accept');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.role).toBe('client');
    expect(report.target).toMatchObject({ role: 'client', transport: 'http' });
  });

  it('verify re-runs a client report on the client named after --: the same faulty client matches (exit 0), the fixed one contradicts it (exit 1, the check named)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mcpspec-client-')), 'r');
    const faulty = ['node', REF, '--fault', 'client.http-accept', '--http', '{url}'];
    const run = await cli(['client', '--http', '--seed', '5', '--only', 'client.http-*', '--out', out, '--', ...faulty]);
    expect(run.code, run.out + run.err).toBe(1);
    const same = await cli(['verify', join(out, 'report.json'), '--', ...faulty]);
    expect(same.code, same.out + same.err).toBe(0);
    expect(same.out).toMatch(/^verified: \d+ verdicts match/m);
    const fixed = await cli(['verify', join(out, 'report.json'), '--', 'node', REF, '--http', '{url}']);
    expect(fixed.code, fixed.out + fixed.err).toBe(1);
    expect(fixed.out).toMatch(/^NOT VERIFIED: 1 verdict contradicts the report/m);
    expect(fixed.out).toContain('client.http-accept: was fail, now pass');
    const url = await cli(['verify', join(out, 'report.json'), '--url', 'http://127.0.0.1:1/mcp']);
    expect(url.code).toBe(2);
    expect(url.err).toMatch(/is a client report: name the client command after --/);
  });

  it('{server-json} gives a config-file client the scripted server as {"command","args"}', async () => {
    const r = await cli(['client', '--stdio', '--only', 'client.meta-*', '--', 'node', resolve('test/helpers/json-config-client.mjs'), resolve(REF), '{server-json}']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('PASS client.meta-required');
  });

  it('the usage text shows both transports with a real example', async () => {
    const r = await cli(['client', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('mcpspec client --http --cwd test -- npx @modelcontextprotocol/inspector-cli --cli {url}');
    expect(r.out).toContain('mcpspec client --stdio --cwd test -- npx @modelcontextprotocol/inspector-cli --cli {server}');
  });

  it.each([
    [['client', '--http', '--', 'node', REF, '--http', 'http://127.0.0.1:1/mcp'], 'contains no {url}'],
    [['client', '--stdio', '--', 'node', REF, '--http', '{url}'], 'contains no {server} or {server-json}'],
    [['client', '--', 'node', REF, '{url}'], 'say how the client connects'],
    [['client', '--http', '--stdio', '--', 'node', REF, '{url}'], 'not both'],
    [['client', '--http'], 'needs the client command after --'],
    [['client', '--http', '--only', 'tools.*', '--', 'node', REF, '{url}'], 'matches no client check'],
  ])('bad usage %#: one line, exit 2', async (args, text) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(text);
  });

  for (const [mode, transport, text] of [
    ['exit', 'stdio', 'exited with code 3 without sending anything'],
    ['silent', 'http', 'never connected'],
    ['hang', 'http', 'was still running after --timeout'],
  ] as const) {
    it(`a client that ${mode === 'exit' ? 'exits at once' : mode === 'silent' ? 'never connects' : 'connects and hangs'}: one line, exit 2, no orphan, no port left open`, async () => {
      const pidFile = join(mkdtempSync(join(tmpdir(), 'mcpspec-bad-')), 'pid.json');
      const r = await cli(['client', `--${transport}`, '--timeout', '2s', '--', 'node', BAD, mode, pidFile, transport === 'http' ? '{url}' : '{server}']);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toContain(text);
      const { pid, url } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; url: string };
      expect(alive(pid)).toBe(false);
      if (transport === 'http') expect(await portOpen(url)).toBe(false);
    });
  }
});
