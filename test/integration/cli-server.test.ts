import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpTarget, type HttpTarget } from '../helpers/targets.js';
import { cli } from '../helpers/cli.js';
import { catalogue, CHECKS } from '../../suites/catalogue.js';
import { countOfRun, idsOfRun, inArea } from '../helpers/catalogue-counts.js';

// How many checks of an area a 2026-07-28 run holds on a transport: from the catalogue, never typed in.
const areaChecks = (area: string, transport: 'stdio' | 'http'): number => countOfRun('server', '2026-07-28', transport, inArea(area));
const toolsChecks = (transport: 'stdio' | 'http'): number => areaChecks('tools', transport);
// The fixture's authorization server is on 127.0.0.1 in plain HTTP, which this check leaves unjudged (skip).
const AUTH_UNJUDGED = ['auth.server-https'];
const authPassing = (): number => areaChecks('auth', 'http') - AUTH_UNJUDGED.length;

const REF = ['node', 'dist/fixtures/servers/reference/main.js'];

// Side by side: each run waits mostly on the fixture's tasks and slow tools. The HTTP fixture serves
// several runs at once as it serves one run's concurrent scenarios.
describe.concurrent('mcpspec server (built CLI) against the reference fixture', () => {
  let http: HttpTarget;
  beforeAll(async () => {
    http = await startHttpTarget('reference', { env: { MCPSPEC_REFERENCE_TASK_MS: '1000', MCPSPEC_REFERENCE_SLOW_MS: '1000' } });
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('stdio: a conformant server exits 0 with a grouped console report', async () => {
    const r = await cli(['server', '--seed', '3', '--stdio', '--', ...REF]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`^tools {2}${toolsChecks('stdio')} pass$`, 'm'));
    expect(r.out).toContain('CONFORMANT: ');
    expect(r.out).toContain('seed: 3');
  });

  it('HTTP: a conformant server exits 0, era detected', async () => {
    const r = await cli(['server', '--seed', '3', '--url', http.url]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('era: modern 2026-07-28 (server/discover answered');
  });

  it('a MUST broken: exit 1, the failure shown with its evidence and spec link', async () => {
    const r = await cli(['server', '--seed', '3', '--only', 'resources.*', '--stdio', '--', ...REF, '--fault', 'resources.unknown-modern']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL resources.unknown-modern');
    expect(r.out).toContain('https://modelcontextprotocol.io/specification/2026-07-28/server/resources');
    expect(r.out).toMatch(/sent: +\{"jsonrpc":"2.0","id":\d+,"method":"resources\/read"/);
    expect(r.out).toContain('expected: {"error":{"code":-32602}}');
    expect(r.out).toContain('NONCONFORMANT');
  });

  it('a SHOULD broken: a warning, exit 0; with --strict, exit 1', async () => {
    const lenient = await cli(['server', '--seed', '3', '--only', 'prompts.*', '--stdio', '--', ...REF, '--fault', 'prompts.unknown']);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toContain('WARN prompts.unknown');
    const strict = await cli(['server', '--seed', '3', '--only', 'prompts.*', '--strict', '--stdio', '--', ...REF, '--fault', 'prompts.unknown']);
    expect(strict.code).toBe(1);
  });

  it('--only and --skip select checks by id glob', async () => {
    const r = await cli(['server', '--json', '--only', 'jsonrpc.*', '--skip', 'jsonrpc.batch', '--url', http.url]);
    const checks = r.out.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'check').map((e) => e.result.id);
    // Verdicts come in the order scenarios end: compared as sets.
    expect([...checks].sort()).toEqual(idsOfRun('server', '2026-07-28', 'http', (c) => inArea('jsonrpc')(c) && c.id !== 'jsonrpc.batch').sort());
    expect(checks.every((id: string) => id.startsWith('jsonrpc.'))).toBe(true);
    expect(checks).not.toContain('jsonrpc.batch');
  });

  it('--json prints NDJSON events ending with the summary; --out writes a report.json that matches its schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpspec-out-'));
    const r = await cli(['server', '--json', '--seed', '5', '--out', dir, '--url', http.url]);
    expect(r.code).toBe(0);
    const events = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(events[0].type).toBe('run-start');
    expect(events.at(-1)).toMatchObject({ type: 'run-end', summary: { conformant: true }, seed: 5 });
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ((addFormatsModule as any).default ?? addFormatsModule)(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync('reports/report.schema.json', 'utf8')));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.checks.length).toBe(events.filter((e) => e.type === 'check').length);
    const recording = JSON.parse(readFileSync(join(dir, 'recording.json'), 'utf8'));
    expect(recording.format).toBe('mcpspec-recording');
  });

  it('--out with --format writes the asked formats beside report.json, several at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpspec-formats-'));
    const r = await cli(['server', '--seed', '3', '--only', 'tools.*', '--out', dir, '--format', 'junit,sarif', '--format', 'badge', '--url', http.url]);
    expect(r.code, r.out + r.err).toBe(0);
    for (const f of ['report.json', 'recording.json', 'junit.xml', 'report.sarif', 'badge.svg']) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<testsuites');
    const bad = await cli(['server', '--format', 'junit', '--url', http.url]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--format needs --out DIR/);
  });

  it('a server that requires authorization and no token: the auth checks run, the rest is one line, exit 2 (1 when an auth check fails)', async () => {
    const guarded = await startHttpTarget('reference', { args: ['--auth-token', 'cli-test-token'] });
    const faulty = await startHttpTarget('reference', { args: ['--auth-token', 'cli-test-token', '--fault', 'auth.invalid-token'] });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'mcpspec-auth-'));
      const r = await cli(['server', '--seed', '3', '--out', dir, '--format', 'badge', '--url', guarded.url]);
      expect(r.code, r.out + r.err).toBe(2);
      // auth.server-https is not judged on an authorization server on this machine (plain HTTP on loopback).
      expect(r.out).toMatch(new RegExp(`^auth {2}${authPassing()} pass, ${AUTH_UNJUDGED.length} skip$`, 'm'));
      expect(r.out).toMatch(/^\d+ checks skipped, not run without a session: lifecycle|^\d+ checks skipped, not run without a session: discover/m);
      expect(r.out).toContain(`AUTHORIZATION ONLY: ${authPassing()} passed, 0 failed`);
      expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/^mcpspec: the server requires authorization \(HTTP 401 to initialize\) and mcpspec has no credentials: .*--header "Authorization: Bearer <token>"/)]);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      expect(report.limited).toContain('requires authorization');
      expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain('authorization only');
      const failing = await cli(['server', '--seed', '3', '--url', faulty.url]);
      expect(failing.code, failing.out + failing.err).toBe(1);
      expect(failing.out).toContain('FAIL auth.invalid-token');
      const withToken = await cli(['server', '--seed', '3', '--only', 'auth.*', '--only', 'tools.*', '--header', 'Authorization: Bearer cli-test-token', '--url', guarded.url]);
      expect(withToken.code, withToken.out + withToken.err).toBe(0);
      expect(withToken.out).toMatch(new RegExp(`^tools {2}${toolsChecks('http')} pass$`, 'm'));
      expect(withToken.out).toContain(`CONFORMANT: ${toolsChecks('http') + authPassing()} passed`);
    } finally {
      await Promise.all([guarded.stop(), faulty.stop()]);
    }
  });

  it('a server that crashes on some input: the crash is reported and the run goes on', async () => {
    const r = await cli(['server', '--seed', '1', '--only', 'robustness.*', '--stdio', '--', ...REF, '--fault', 'robustness.survives-near-valid']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL robustness.survives-near-valid');
    expect(r.out).toMatch(/crashed the server/);
    expect(r.out).toMatch(/crash: the target exited with code 70/);
  });
});

describe.concurrent('mcpspec server: targets that cannot be tested, and usage mistakes (exit 2, one line)', () => {
  it.each([
    [['server'], /say which server to test/],
    [['server', '--stdio'], /--stdio needs the server command after --/],
    [['server', '--url', 'not a url'], /--url is not a URL/],
    [['server', '--url', 'ftp://127.0.0.1/x'], /--url must be http or https/],
    [['server', '--spec-version', '1999-01-01', '--url', 'http://127.0.0.1:9/mcp'], /unknown --spec-version 1999-01-01; choose one of auto, /],
    [['server', '--stdio', '--', 'mcpspec-no-such-command-xyz'], /cannot test the target: .*(ENOENT|not found|spawn)/i],
    [['server', '--url', 'http://127.0.0.1:9/mcp'], /cannot test the target: cannot reach http:\/\/127\.0\.0\.1:9\/mcp/],
    [['server', '--timeout', '800', '--stdio', '--', 'node', '-e', 'setInterval(() => {}, 1000)'], /cannot test the target: .*(no answer|did not answer|timed out|within)/i],
    [['server', '--stdio', '--', 'node', '-e', 'process.exit(3)'], /cannot test the target: .*(exit|code 3)/i],
    [['server', '--stdio', '--', 'node', '-e', 'process.stdin.pipe(process.stdout)'], /cannot test the target: initialize .* the target sent mcpspec's own initialize back to it, as a program that echoes its input does/],
  ])('%j', async (args, message) => {
    const r = await cli(args as string[], 30_000);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.err).toMatch(message as RegExp);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('an endpoint that answers 401 to everything, its metadata included: the authorization checks fail it, and the report says how to pass credentials', async () => {
    const server = createServer((_req, res) => res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end('{"error":"unauthorized"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const r = await cli(['server', '--url', `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`], 30_000);
      expect(r.code, r.out + r.err).toBe(1);
      expect(r.out).toContain('FAIL auth.metadata-discovery');
      expect(r.out).toMatch(/only part of the suite ran: the server requires authorization \(HTTP 401 to initialize\).*--header "Authorization: Bearer <token>"/);
      expect(r.err).toBe('');
    } finally {
      server.close();
    }
  });

  it('mcpspec list prints the catalogue', async () => {
    const r = await cli(['list', '--spec-version', '2026-07-28']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^caching\.fields +MUST +CA-01,CA-02,CA-03 /m);
    expect(r.out).not.toContain('lifecycle.ping');
    expect(r.out).toMatch(new RegExp(`\\n${catalogue('2026-07-28').length} checks\\n$`));
  });

  it('mcpspec list finds the check for a requirement, a role or an id glob', async () => {
    const byRequirement = await cli(['list', '--requirement', 'ca-02']);
    expect(byRequirement.code).toBe(0);
    // Every check citing CA-02 (matched whatever its case), then their count.
    const citing = CHECKS.filter((c) => c.requirements.includes('CA-02')).map((c) => c.id);
    const printed = byRequirement.out.trim().split('\n');
    expect(printed.slice(0, -1).map((l) => l.split(' ')[0])).toEqual(citing);
    expect(printed.at(-1)).toBe(`${citing.length} check${citing.length === 1 ? '' : 's'}`);
    expect(byRequirement.out).toMatch(/^caching\.fields +MUST +CA-01,CA-02,CA-03 /m);
    const clients = await cli(['list', '--role', 'client', '--only', 'client.http-*,client.sse-*', '--json']);
    const rows = JSON.parse(clients.out) as { id: string; role: string }[];
    expect(rows.map((r) => r.id)).toEqual(CHECKS.filter((c) => c.role === 'client' && /^client\.(http|sse)-/.test(c.id)).map((c) => c.id));
    expect(rows.every((r) => r.role === 'client' && /^client\.(http|sse)-/.test(r.id))).toBe(true);
    for (const args of [['list', '--requirement', 'XX-99'], ['list', '--format', 'md', '--role', 'client']]) {
      const r = await cli(args);
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});
