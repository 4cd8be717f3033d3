import { describe, expect, it } from 'vitest';
import { MODERN } from '../../protocol/versions.js';
import { buildReport, exitCodeOf, type ReportOptions } from '../../reports/report.js';
import { TRAFFIC_ONLY } from '../../results/run.js';
import { check, holds, untestable, violated } from '../../suites/kit/check.js';
import { scenario } from '../../suites/kit/scenario.js';
import { CHECKS } from '../../suites/catalogue.js';
import { runReference } from './run-reference.js';

const reportOptions: ReportOptions = { specVersion: '2026-07-28', strict: false, allowDestructive: false, allowOpenWorld: false, timeoutMs: 10_000, deadlineMs: 60_000, seed: 1, runs: 5 };
const info = { requirements: ['JR-04'], level: 'MUST' as const, versions: MODERN, spec: 'https://modelcontextprotocol.io/specification/2026-07-28/basic' };

describe('the engine keeps mcpspec mistakes apart from target failures', () => {
  it('a scenario that throws gives its checks the status error, a harness finding, and exit code 2', async () => {
    const broken = scenario({ id: 'test.broken', title: 'throws', versions: MODERN, async run() { throw new Error('a bug in mcpspec'); } });
    const run = await runReference('stdio', '2026-07-28', [], { checks: [check(broken, { ...info, id: 'test.never-judged', title: 't', judge: () => holds('x') })] });
    expect(run.checks).toEqual([expect.objectContaining({ id: 'test.never-judged', status: 'error' })]);
    expect(run.findings.some((f) => f.kind === 'harness' && f.message.includes('a bug in mcpspec'))).toBe(true);
    expect(exitCodeOf(buildReport(run, reportOptions, 'test'))).toBe(2);
  });

  it('a request mcpspec sends invalid by mistake is a harness finding; the same request marked deliberate is not', async () => {
    const sloppy = scenario({ id: 'test.sloppy', title: 'sends a non-string cursor', versions: MODERN, async run({ session }) { return { ex: await session.request('tools/list', { cursor: 42 }) }; } });
    const run = await runReference('stdio', '2026-07-28', [], { checks: [check(sloppy, { ...info, id: 'test.sloppy-check', title: 't', judge: () => violated('the target refused it', []) })] });
    expect(run.findings.filter((f) => f.kind === 'harness').map((f) => f.message)).toEqual([expect.stringMatching(/^mcpspec sent an invalid tools\/list/)]);
    expect(exitCodeOf(buildReport(run, reportOptions, 'test'))).toBe(2); // not blamed on the target as a plain failure

    const careful = scenario({ ...sloppy, id: 'test.careful', async run({ session, deliberate }) { return { ex: await deliberate(session.request('tools/list', { cursor: 42 })) }; } });
    const run2 = await runReference('stdio', '2026-07-28', [], { checks: [check(careful, { ...info, id: 'test.careful-check', title: 't', judge: () => violated('the target refused it', []) })] });
    expect(run2.findings.filter((f) => f.kind === 'harness')).toEqual([]);
  });

  it('a scenario whose checks judged nothing is reported as no-judgement, never as passed, and the run exits 2', async () => {
    const empty = scenario({ id: 'test.empty', title: 'nothing to test', versions: MODERN, async run() { return {}; } });
    const run = await runReference('stdio', '2026-07-28', [], { checks: [check(empty, { ...info, id: 'test.nothing', title: 't', judge: () => untestable('the target offers nothing') })] });
    expect(run.scenarios).toEqual([expect.objectContaining({ id: 'test.empty', status: 'no-judgement' })]);
    expect(run.checks[0].status).toBe('untestable');
    const report = buildReport(run, reportOptions, 'test');
    expect(report.summary.pass).toBe(0);
    expect(exitCodeOf(report)).toBe(2);
  });

  it('applies a record\'s capability gating once, with the skip reason derived from it, and does not run a scenario whose checks are all skipped', async () => {
    let ran = false;
    const gated = scenario({ id: 'test.gated', title: 'needs sampling', versions: MODERN, async run() { ran = true; return {}; } });
    const run = await runReference('stdio', '2026-07-28', [], { checks: [check(gated, { ...info, id: 'test.gated-check', title: 't', requires: { capabilities: ['mcpspec-imaginary'] }, judge: () => holds('x') })] });
    expect(run.checks).toEqual([expect.objectContaining({ id: 'test.gated-check', status: 'skip', message: 'the server does not declare the mcpspec-imaginary capability' })]);
    expect(ran).toBe(false);
  });

  it('ends the run by its deadline: a scenario that would wait past it is cut short and its checks say so', async () => {
    const slow = scenario({ id: 'test.slow', title: 'waits on a tool that never answers', versions: MODERN, async run({ session, signal }) {
      await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
      return { ex: await session.request('tools/list') };
    } });
    const t0 = Date.now();
    const run = await runReference('stdio', '2026-07-28', [], { deadlineMs: 4000, checks: [check(slow, { ...info, id: 'test.slow-check', title: 't', judge: ({ ex }: { ex: { aborted?: boolean } }) => (ex.aborted ? untestable('the run ended') : holds('x')) })] });
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(run.checks[0].status).toBe('untestable');
  });

  it('binds every scenario check to a scenario and no oracle to one', () => {
    for (const c of CHECKS) expect(c.kind === 'oracle' ? c.scenario === undefined : c.scenario !== undefined, c.id).toBe(true);
  });
});

describe('oracles chosen with --only judge a whole run', () => {
  it('--only an oracle runs every scenario for its traffic; --skip keeps an area out of it', async () => {
    const only = await runReference('stdio', '2026-07-28', [], { only: ['wire.schema'] });
    expect(only.checks.map((c) => c.id)).toEqual(['wire.schema']);
    const traffic = only.scenarios.filter((s) => s.message === TRAFFIC_ONLY).map((s) => s.id);
    expect(traffic).toEqual(expect.arrayContaining(['tools', 'jsonrpc', 'tasks-modern']));
    // More than the handshake: every scenario's messages.
    expect(Number(/^(\d+) messages/.exec(only.checks[0].message)?.[1])).toBeGreaterThan(100);

    const skipped = await runReference('stdio', '2026-07-28', [], { only: ['wire.schema'], skip: ['tasks.*'] });
    expect(skipped.scenarios.map((s) => s.id)).not.toContain('tasks-modern');
    expect(skipped.scenarios.map((s) => s.id)).toContain('tools');
  });
});

describe('each part of a run gets only its own options', () => {
  it('a scenario reads safety, timing and generation (and httpModern): no selection, schedule, reporting or the target environment', async () => {
    let seen: unknown;
    const peek = scenario({ id: 'test.peek', title: 'keeps its options', versions: MODERN, async run({ options }) { seen = options; return {}; } });
    const run = await runReference('stdio', '2026-07-28', [], {
      checks: [check(peek, { ...info, id: 'test.peek-options', title: 't', judge: () => holds('x') })],
      toolTimeoutMs: 3000,
      only: ['test.*'],
      onEvent: () => undefined,
      env: { set: { MCPSPEC_TEST_SECRET: 'not for scenarios' } },
    });
    expect(run.checks.map((c) => c.status)).toEqual(['pass']);
    expect(seen).toEqual({ allowDestructive: false, allowOpenWorld: false, timeoutMs: 10_000, toolTimeoutMs: 3000, seed: 1, runs: 12, httpModern: false });
  });
});
