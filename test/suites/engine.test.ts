import { describe, expect, it } from 'vitest';
import { runServerSuite } from '../../runner/engine.js';
import { buildReport, exitCodeOf } from '../../reports/report.js';
import { check, holds, MODERN, untestable, violated } from '../../suites/check.js';
import { scenario } from '../../suites/scenario.js';
import { stdioTarget } from '../helpers/targets.js';

const t = stdioTarget('reference');
const target = { kind: 'stdio' as const, command: t.command, args: t.args };
const base = { specVersion: '2026-07-28', allowDestructive: false, timeoutMs: 5000, seed: 1, runs: 5, deadlineMs: 60_000 } as const;
const reportOptions = { strict: false, allowDestructive: false, timeoutMs: 5000, seed: 1, runs: 5 };
const info = { requirements: ['JR-04'], level: 'MUST' as const, versions: MODERN, spec: 'https://modelcontextprotocol.io/specification/2026-07-28/basic' };

describe('the engine keeps mcpspec mistakes apart from target failures', () => {
  it('a scenario that throws gives its checks the status error, a harness finding, and exit code 2', async () => {
    const broken = scenario({
      id: 'test.broken', title: 'throws', versions: MODERN,
      async run() {
        throw new Error('a bug in mcpspec');
      },
      checks: [check({ ...info, id: 'test.never-judged', title: 't', judge: () => holds('x') })],
    });
    const run = await runServerSuite(target, { ...base, scenarios: [broken], only: ['test.*'] });
    expect(run.checks).toEqual([expect.objectContaining({ id: 'test.never-judged', status: 'error' })]);
    expect(run.findings.some((f) => f.kind === 'harness' && f.message.includes('a bug in mcpspec'))).toBe(true);
    expect(exitCodeOf(buildReport(run, reportOptions, 'test'))).toBe(2);
  });

  it('a request mcpspec sends invalid by mistake is a harness finding; the same request marked deliberate is not', async () => {
    const sloppy = scenario({
      id: 'test.sloppy', title: 'sends a non-string cursor', versions: MODERN,
      async run({ session }) {
        return { ex: await session.request('tools/list', { cursor: 42 }) };
      },
      checks: [check<{ ex: unknown }>({ ...info, id: 'test.sloppy-check', title: 't', judge: () => violated('the target refused it', []) })],
    });
    const run = await runServerSuite(target, { ...base, scenarios: [sloppy], only: ['test.*'] });
    expect(run.findings.filter((f) => f.kind === 'harness').map((f) => f.message)).toEqual([expect.stringMatching(/^mcpspec sent an invalid tools\/list/)]);
    expect(exitCodeOf(buildReport(run, reportOptions, 'test'))).toBe(2); // not blamed on the target as a plain failure

    const careful = scenario({
      ...sloppy,
      id: 'test.careful',
      async run({ session, deliberate }) {
        return { ex: await deliberate(session.request('tools/list', { cursor: 42 })) };
      },
    });
    const run2 = await runServerSuite(target, { ...base, scenarios: [careful], only: ['test.*'] });
    expect(run2.findings.filter((f) => f.kind === 'harness')).toEqual([]);
  });

  it('a scenario whose checks judged nothing is reported as no-judgement, never as passed', async () => {
    const empty = scenario({
      id: 'test.empty', title: 'nothing to test', versions: MODERN,
      async run() {
        return {};
      },
      checks: [check({ ...info, id: 'test.nothing', title: 't', judge: () => untestable('the target offers nothing') })],
    });
    const run = await runServerSuite(target, { ...base, scenarios: [empty], only: ['test.*'] });
    expect(run.scenarios).toEqual([expect.objectContaining({ id: 'test.empty', status: 'no-judgement' })]);
    expect(run.checks[0].status).toBe('untestable');
    const report = buildReport(run, reportOptions, 'test');
    expect(report.summary.pass).toBe(0);
  });
});
