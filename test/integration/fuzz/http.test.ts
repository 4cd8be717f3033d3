// Fuzzing over Streamable HTTP: with `--start` every sequence and every shrink candidate runs on a
// freshly started server (a planted crash that needs two steps in one process is found, shrunk to
// them and replayed); without it sequences share one server, and the run says so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzz, readRepro, replay, type FuzzOptions } from '../../../index.js';
import { liveCount } from '../../../runner/reaper.js';
import { cli } from '../../helpers/cli.js';
import { startHttpTarget } from '../../helpers/targets.js';

const REF = join(process.cwd(), 'dist/fixtures/servers/reference/main.js');
const PLANTED = join(process.cwd(), 'dist/fixtures/servers/planted/main.js');
const URL_TEMPLATE = 'http://127.0.0.1:{port}/mcp';
const http = { kind: 'http' as const, url: URL_TEMPLATE };
const startPlanted = (...bugs: string[]) => ({ command: process.execPath, args: [PLANTED, '--http', '--port', '{port}', ...bugs.flatMap((b) => ['--bug', b])] });
const dir = mkdtempSync(join(tmpdir(), 'mcpspec-fuzz-http-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = (over: Partial<FuzzOptions>): FuzzOptions => ({ specVersion: 'auto', seed: 5, runs: 12, timeoutMs: 5000, allowDestructive: false, allowOpenWorld: false, ...over });

describe('replay over HTTP keeps the x-mcp-header declarations found at discovery', () => {
  // The reference fixture's echo declares x-mcp-header "Text" and refuses a call without the header.
  const repro = (toolHeaders?: Record<string, { header: string; path: string[] }[]>) => ({
    reproVersion: 2,
    tool: { name: 'mcpspec', version: 'test' },
    target: { role: 'server', transport: 'http', url: URL_TEMPLATE },
    specVersion: '2026-07-28',
    era: 'modern',
    seed: 1,
    path: '0',
    finding: { key: 'wire.schema|tools/call', oracle: 'schema', check: 'wire.schema', requirements: ['JR-01'], spec: 'https://example.invalid', level: 'MUST', method: 'tools/call', message: 'made up', title: 'schema' },
    shrunk: true,
    steps: [{ kind: 'call', tool: 'echo', arguments: { text: 'hi there' }, variant: 'valid', idStyle: 'counter' }],
    sent: [],
    resources: [],
    evidence: {},
    timeoutMs: 5000,
    start: { command: process.execPath, args: [REF, '--http', '--port', '{port}'] },
    ...(toolHeaders ? { toolHeaders } : {}),
  });

  it('a campaign writes them into its repros', async () => {
    const out = join(dir, 'tool-headers');
    const start = { command: process.execPath, args: [REF, '--http', '--port', '{port}', '--fault', 'robustness.rejects-near-valid'] };
    const r = await fuzz(http, base({ runs: 6, start, reproDir: out }));
    const f = r.findings.find((x) => x.oracle === 'near-valid-served');
    expect(f?.repro, `findings: ${r.findings.map((x) => x.key).join(', ')}`).toBeDefined();
    expect(readRepro(f!.repro!).toolHeaders).toEqual({ echo: [{ header: 'Text', path: ['text'] }] });
  });

  it('the call carries Mcp-Param-Text and is served; without the declarations it is refused with -32020', async () => {
    const served = await replay(repro({ echo: [{ header: 'Text', path: ['text'] }] }) as never);
    expect((served.outcome.records[0].response as any)?.result?.content?.[0]?.text).toBe('hi there');
    const refused = await replay(repro() as never);
    expect((refused.outcome.records[0].response as any)?.error?.code).toBe(-32020);
  });
});

describe('fuzz over HTTP with --start (a fresh server per sequence)', () => {
  it('the reference fixture reports nothing for a fixed budget, and no started server outlives the run', async () => {
    const r = await fuzz(http, base({ runs: 8, start: { command: process.execPath, args: [REF, '--http', '--port', '{port}'] } }));
    expect(r.era.version).toBe('2026-07-28');
    expect(r.runs).toBe(8);
    expect(r.startFailures).toBe(0);
    expect(r.steps).toBeGreaterThan(8);
    expect(r.notes.join('\n')).toMatch(/freshly started server/);
    expect(r.findings).toEqual([]);
    expect(liveCount()).toBe(0);
  });

  it('a planted crash after resources/list + lookup is found, shrunk to those two steps on fresh servers, and replayed', async () => {
    const out = join(dir, 'crash');
    const r = await fuzz(http, base({ specVersion: '2025-11-25', seed: 1, runs: 30, timeoutMs: 2000, start: startPlanted('crash-after-list'), reproDir: out }));
    const f = r.findings.find((x) => x.key === 'robustness.stays-up|tools/call lookup');
    expect(f, `findings: ${r.findings.map((x) => x.key).join(', ')}`).toBeDefined();
    expect(f!.reproduced).toBe(true);
    expect(f!.evidence.stderrTail).toContain('lookup after resources/list');
    expect(f!.steps).toHaveLength(2);
    expect(f!.steps[0]).toMatchObject({ kind: 'request', method: 'resources/list' });
    expect(f!.steps[1]).toMatchObject({ kind: 'call', tool: 'lookup' });
    const repro = readRepro(f!.repro!);
    expect(repro.start?.args).toContain('{port}');
    // The repro's own start command, then the same sequence on a server without the bug.
    expect((await replay(f!.repro!)).reproduced).toBe(true);
    const fixed = await replay(repro, http, { start: startPlanted() });
    expect(fixed.reproduced).toBe(false);
    expect(fixed.observations).toEqual([]);
    expect(liveCount()).toBe(0);
  });

  it('transport layer: an unsupported MCP-Protocol-Version served as valid (HL-08) is found, shrunk to one headers step, and replayed', async () => {
    const out = join(dir, 'lax');
    const r = await fuzz(http, base({ specVersion: '2025-11-25', seed: 1, runs: 20, timeoutMs: 2000, start: startPlanted('lax-version-header'), reproDir: out }));
    const f = r.findings.find((x) => x.key === 'robustness.rejects-near-valid|headers bad-protocol-version');
    expect(f, `findings: ${r.findings.map((x) => x.key).join(', ')}`).toBeDefined();
    expect(r.findings).toHaveLength(1);
    expect(f!.level).toBe('SHOULD');
    expect(f!.message).toMatch(/HL-08/);
    expect(f!.reproduced).toBe(true);
    expect(f!.steps).toHaveLength(1);
    expect(f!.steps[0]).toMatchObject({ kind: 'headers', variant: 'bad-protocol-version' });
    expect((await replay(f!.repro!)).reproduced).toBe(true);
    const fixed = await replay(readRepro(f!.repro!), http, { start: startPlanted() });
    expect(fixed.reproduced).toBe(false);
    expect(fixed.observations).toEqual([]);
    expect(liveCount()).toBe(0);
  });

  it('a fixed port runs the started servers one at a time', async () => {
    const probe = await startHttpTarget('reference');
    const port = new URL(probe.url).port;
    await probe.stop();
    const r = await fuzz({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` }, base({ runs: 4, start: { command: process.execPath, args: [REF, '--http', '--port', port] } }));
    expect(r.startFailures).toBe(0);
    expect(r.runs).toBe(4);
    expect(r.notes.join('\n')).toMatch(/one at a time/);
    expect(r.findings).toEqual([]);
  });
});

describe('fuzz over HTTP without --start', () => {
  it('2026-07-28: sequences share the one server, and the run says so', async () => {
    const target = await startHttpTarget('reference');
    try {
      const r = await fuzz({ kind: 'http', url: target.url }, base({ runs: 10 }));
      expect(r.runs).toBe(10);
      expect(r.notes.join('\n')).toMatch(/share its state/);
      expect(r.findings).toEqual([]);
    } finally {
      await target.stop();
    }
  });

  it('usage: --start needs --url and a command; {port} needs --start', async () => {
    const a = await cli(['fuzz', '--start', '--', 'node', PLANTED]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/--start goes with --url/);
    const b = await cli(['fuzz', '--url', URL_TEMPLATE]);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/needs --start/);
    const c = await cli(['fuzz', '--url', URL_TEMPLATE, '--start']);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/needs the server command/);
  });
});
