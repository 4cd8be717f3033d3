// `mcpspec client --official-harness` / `--command`: a harness written for the official conformance
// suite's client contract runs unchanged. A tiny harness (test/helpers/recording-harness.mjs) records
// what each run was given (argv, cwd, MCP_CONFORMANCE_*), so the contract is checked as it saw it; and
// a harness that refuses a name is never blamed for mcpspec's choice of it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const HARNESS = 'test/helpers/recording-harness.mjs';

interface Seen {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

function logFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpspec-harness-')), 'runs.jsonl');
}

function seen(log: string): Seen[] {
  return readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Seen);
}

/** The runs of one mcpspec scenario (MCPSPEC_SCENARIO), in order. */
const runsOf = (runs: Seen[], scenario: string) => runs.filter((r) => r.env.MCPSPEC_SCENARIO === scenario);

function events(out: string): { type: string; [k: string]: unknown }[] {
  return out.trim().split('\n').map((l) => JSON.parse(l));
}

describe('mcpspec client with a harness written for the official suite', () => {
  it('appends the server URL as the last argument and sets MCP_CONFORMANCE_SCENARIO and _PROTOCOL_VERSION per run; it runs in the current folder', async () => {
    const log = logFile();
    const r = await cli(['client', '--http', '--official-harness', '--only', 'client.initialize-params', '--', 'node', HARNESS, '--log', log]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('PASS client.initialize-params');
    const runs = seen(log);
    for (const run of runs) {
      expect(run.argv.slice(0, -1)).toEqual(['--log', log]);
      expect(run.argv.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(run.cwd).toBe(process.cwd());
      expect(run.env.MCP_CONFORMANCE_CONTEXT).toBeUndefined();
    }
    // The first run (era and declarations) is the plain flow, told the version the official suite tells by default.
    expect(runsOf(runs, 'start').map((x) => x.env)).toEqual([{ MCPSPEC_SCENARIO: 'start', MCP_CONFORMANCE_SCENARIO: 'tools_call', MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25' }]);
    // The legacy server asks the client for what it declared: the official scenario whose harness declares and answers.
    expect(runsOf(runs, 'client-legacy').map((x) => x.env.MCP_CONFORMANCE_SCENARIO)).toEqual(['elicitation-sep1034-client-defaults']);
    expect(runsOf(runs, 'client-legacy')[0].env.MCP_CONFORMANCE_PROTOCOL_VERSION).toBe('2025-11-25');
  });

  it('passes the version under test, and the context JSON where the official suite passes one (http-custom-headers: mcpspec\'s echo tool calls)', async () => {
    const log = logFile();
    const r = await cli(['client', '--http', '--official-harness', '--spec-version', '2026-07-28', '--only', 'client.cache-fresh', '--only', 'client.no-batch', '--', 'node', HARNESS, '--log', log]);
    expect([0, 1], r.out + r.err).toContain(r.code);
    const runs = seen(log);
    expect(runsOf(runs, 'start')[0].env.MCP_CONFORMANCE_PROTOCOL_VERSION).toBe('2026-07-28');
    const caching = runsOf(runs, 'client-caching');
    expect(caching.map((x) => x.env.MCP_CONFORMANCE_SCENARIO)).toEqual(['http-custom-headers']);
    expect(caching[0].env.MCP_CONFORMANCE_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(JSON.parse(caching[0].env.MCP_CONFORMANCE_CONTEXT)).toEqual({
      name: 'http-custom-headers',
      toolCalls: [
        { name: 'echo', arguments: { text: 'mcpspec' } },
        { name: 'echo', arguments: { text: ' Grüße, 世界 ' } },
      ],
    });
  });

  it('--command runs the string through the shell as the official suite does: variables expand, the URL goes last', async () => {
    const log = logFile();
    const r = await cli(['client', '--command', `node ${HARNESS} --log ${log} --told $MCP_CONFORMANCE_SCENARIO`, '--only', 'client.initialize-params']);
    expect(r.code, r.out + r.err).toBe(0);
    const start = runsOf(seen(log), 'start')[0];
    expect(start.argv.slice(0, -1)).toEqual(['--log', log, '--told', 'tools_call']);
    expect(start.argv.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('a harness that refuses a name (an uncaught exception, before sending anything) is given the next one: a note, no crash, the check judged', async () => {
    const log = logFile();
    const r = await cli(['client', '--http', '--official-harness', '--json', '--only', 'client.initialized', '--', 'node', HARNESS, '--log', log, '--knows', 'tools_call,initialize', '--throw']);
    expect(r.code, r.out + r.err).toBe(0);
    const ev = events(r.out);
    expect(ev.filter((e) => e.type === 'check').map((e) => e.result)).toEqual([expect.objectContaining({ id: 'client.initialized', status: 'pass' })]);
    const findings = ev.filter((e) => e.type === 'finding').map((e) => e.finding as { kind: string; scenario: string; message: string });
    expect(findings).toEqual([
      expect.objectContaining({ kind: 'note', scenario: 'client-legacy', message: expect.stringMatching(/^the harness refused MCP_CONFORMANCE_SCENARIO=elicitation-sep1034-client-defaults \(it ended before sending anything: exited with code 1; stderr: .*Unknown scenario: elicitation-sep1034-client-defaults\): mcpspec ran client-legacy as initialize$/) }),
    ]);
    expect(runsOf(seen(log), 'client-legacy').map((x) => x.env.MCP_CONFORMANCE_SCENARIO)).toEqual(['elicitation-sep1034-client-defaults', 'initialize']);
  });

  it('a harness that refuses every name mcpspec gives for a scenario: its checks untestable with the reason (nothing judged: exit 2), never failed or a crash', async () => {
    const log = logFile();
    const r = await cli(['client', '--http', '--official-harness', '--json', '--only', 'client.initialized', '--', 'node', HARNESS, '--log', log, '--once']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('nothing was judged');
    const ev = events(r.out);
    const reason = 'the harness ran none of the official scenarios mcpspec named for client-legacy (elicitation-sep1034-client-defaults, initialize, tools_call): each ended before sending anything (exited with code 1; stderr: Unknown scenario: tools_call)';
    expect(ev.filter((e) => e.type === 'check').map((e) => e.result)).toEqual([expect.objectContaining({ id: 'client.initialized', status: 'untestable', message: reason })]);
    expect(ev.find((e) => e.type === 'scenario-end')).toMatchObject({ result: { id: 'client-legacy', status: 'no-judgement', message: reason } });
    expect(ev.filter((e) => e.type === 'finding')).toEqual([]);
  });

  it('a harness that runs neither name of the first run cannot be tested: one line, exit 2', async () => {
    const r = await cli(['client', '--http', '--official-harness', '--', 'node', HARNESS, '--log', logFile(), '--knows', 'sse-retry']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('cannot test the client: the harness ran none of the official scenarios mcpspec named for start (tools_call, initialize): each ended before sending anything (exited with code 1; stderr: Unknown scenario: initialize)');
  });

  it('verify re-runs a harness report in the same mode (the report records it)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mcpspec-harness-')), 'r');
    const command = ['node', HARNESS, '--log', logFile()];
    const run = await cli(['client', '--http', '--official-harness', '--seed', '4', '--only', 'client.initialize-params', '--out', out, '--', ...command]);
    expect(run.code, run.out + run.err).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).target).toMatchObject({ role: 'client', transport: 'http', officialHarness: true });
    const again = await cli(['verify', join(out, 'report.json'), '--', ...command]);
    expect(again.code, again.out + again.err).toBe(0);
    expect(again.out).toMatch(/^verified: 1 verdict match/m);
  });

  it.each([
    [['client', '--stdio', '--official-harness', '--', 'node', HARNESS], 'which speak HTTP'],
    [['client', '--command', `node ${HARNESS}`, '--', 'node', HARNESS], 'not both'],
    [['client', '--command', `node ${HARNESS}`, '--stdio'], 'leave out --stdio'],
    [['client', '--command', ' '], '--command needs the harness command'],
    [['client', '--official-harness'], '--official-harness needs the client command after --'],
    [['client', '--http', '--', 'node', resolve(HARNESS)], 'add --official-harness'],
  ])('bad usage %#: one line, exit 2', async (args, text) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(text);
  });
});
