// Pure parts of the CI features: shard split, merge rules, baseline parsing and comparison, progress line.
import { describe, expect, it } from 'vitest';
import { BaselineError, baselineExitCode, baselineOf, compareBaseline, parseBaseline } from '../reports/baseline.js';
import { MergeError, mergeShards, worstStatus } from '../reports/merge.js';
import { summarize, verdictDigest, type Report } from '../reports/report.js';
import type { CheckResult } from '../results/run.js';
import type { Status } from '../results/verdict.js';
import { shardScenarioIds } from '../runner/engine.js';
import { CHECKS, SCENARIOS } from '../suites/catalogue.js';
import { Progress } from '../bin/progress.js';

function check(id: string, status: Status, scenario = 'run', message = ''): CheckResult {
  return { id, status, scenario, message, evidence: [], area: id.split('.')[0], title: id, kind: scenario === 'run' ? 'oracle' : 'scenario' } as unknown as CheckResult;
}

function report(checks: CheckResult[], extra: Partial<Report> = {}): Report {
  const era = { era: 'modern', version: '2026-07-28', judgedBy: '2026-07-28', detected: true, reason: '' } as Report['era'];
  return {
    reportVersion: 2,
    tool: { name: 'mcpspec', version: '0.1.0' },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    role: 'server',
    target: { role: 'server', transport: 'stdio', command: 'node', args: ['x.js'] },
    era,
    peer: { capabilities: {} },
    options: { specVersion: 'auto', strict: false, allowDestructive: false, allowOpenWorld: false, timeoutMs: 1, deadlineMs: 1, seed: 1, runs: 1 },
    summary: summarize(checks, [], false),
    digest: verdictDigest(checks, era.judgedBy),
    scenarios: [],
    checks,
    findings: [],
    ...extra,
  };
}

describe('shards', () => {
  it('every scenario is in exactly one shard, whatever the count', () => {
    for (const count of [1, 2, 3, 7]) {
      const all = Array.from({ length: count }, (_, i) => [...shardScenarioIds(CHECKS, { index: i + 1, count })]).flat();
      expect(all.sort()).toEqual(SCENARIOS.map((s) => s.id).sort());
    }
  });

  it('oracles merge to their worst verdict, messages joined; summary and digest recomputed', () => {
    expect(worstStatus(['pass', 'untestable', 'skip'])).toBe('pass');
    expect(worstStatus(['pass', 'error', 'warn'])).toBe('warn');
    expect(worstStatus(['skip', 'untestable'])).toBe('untestable');
    const a = report([check('a.one', 'pass', 's1'), check('o.x', 'fail', 'run', 'bad id 3')], { shard: { index: 1, count: 2 } });
    const b = report([check('b.two', 'fail', 's2'), check('o.x', 'fail', 'run', 'bad id 9')], { shard: { index: 2, count: 2 } });
    const m = mergeShards([b, a], { checks: ['a.one', 'b.two', 'o.x'] });
    expect(m.checks.map((c) => [c.id, c.status])).toEqual([['a.one', 'pass'], ['b.two', 'fail'], ['o.x', 'fail']]);
    expect(m.checks[2].message).toBe('bad id 3; bad id 9');
    expect(m.summary).toMatchObject({ pass: 1, fail: 2, total: 3, conformant: false });
    expect(m.digest).toBe(verdictDigest(m.checks, '2026-07-28'));
    expect(m.shard).toBeUndefined();
  });

  it('refuses shards of different runs', () => {
    const one = report([check('a', 'pass', 's1')], { shard: { index: 1, count: 2 } });
    const two = (extra: Partial<Report>) => report([check('b', 'pass', 's2')], { shard: { index: 2, count: 2 }, ...extra });
    expect(() => mergeShards([one, two({ target: { role: 'server', transport: 'http', url: 'http://x/mcp' } })])).toThrow(/different targets/);
    expect(() => mergeShards([one, two({ options: { ...one.options, seed: 2 } })])).toThrow(/different seeds/);
    expect(() => mergeShards([one, two({ era: { ...one.era, era: 'legacy', version: '2025-06-18', judgedBy: '2025-06-18' } })])).toThrow(/different eras/);
    expect(() => mergeShards([one, two({ tool: { name: 'mcpspec', version: '9.9.9' } })])).toThrow(/different mcpspec versions/);
    expect(() => mergeShards([one, two({ shard: { index: 2, count: 3 } })])).toThrow(/different shard counts/);
    expect(() => mergeShards([one])).toThrow(/missing shard 2\/2/);
    expect(() => mergeShards([one, one])).toThrow(/given twice/);
    expect(() => mergeShards([one, report([check('a', 'pass', 's1')], { shard: { index: 2, count: 2 } })])).toThrow(MergeError);
  });
});

describe('baselines', () => {
  it('parses a list of { id, reason } and refuses anything else', () => {
    expect(parseBaseline('[{"id":"a","reason":"r"},{"id":"b"}]')).toEqual([{ id: 'a', reason: 'r' }, { id: 'b', reason: '' }]);
    expect(() => parseBaseline('{')).toThrow(BaselineError);
    expect(() => parseBaseline('{}')).toThrow(/JSON list/);
    expect(() => parseBaseline('[1]')).toThrow(/entry 0/);
    expect(() => parseBaseline('[{"id":"a"},{"id":"a"}]')).toThrow(/twice/);
  });

  it('only new failures fail; stale entries are listed; strict counts warnings', () => {
    const r = report([check('a', 'fail', 's', 'broke'), check('b', 'pass', 's'), check('c', 'warn', 's', 'meh')]);
    expect(baselineOf(r)).toEqual([{ id: 'a', reason: 'fail: broke' }]);
    expect(baselineOf({ ...r, options: { ...r.options, strict: true } }).map((e) => e.id)).toEqual(['a', 'c']);
    const c = compareBaseline(r, [{ id: 'a', reason: '' }, { id: 'b', reason: '' }, { id: 'zzz', reason: '' }]);
    expect(c.expected.map((x) => x.id)).toEqual(['a']);
    expect(c.stale.map((x) => x.id)).toEqual(['b']);
    expect(c.notRun.map((x) => x.id)).toEqual(['zzz']);
    expect(baselineExitCode(c)).toBe(0);
    expect(baselineExitCode(compareBaseline(r, []))).toBe(1);
  });
});

describe('progress line', () => {
  it('only on a terminal, only after a second, rewritten in place and erased', () => {
    let t = 0;
    const written: string[] = [];
    const tty = new Progress({ isTTY: true, write: (s) => written.push(s) > 0 }, () => t);
    tty.update({ done: 0, total: 12 });
    expect(written).toEqual([]);
    t = 1500;
    tty.update({ done: 3, total: 12 });
    expect(written.at(-1)).toBe('\r\x1b[2Kmcpspec: scenario 3/12, 1.5 s');
    tty.stop();
    expect(written.at(-1)).toBe('\r\x1b[2K');
    const pipe: string[] = [];
    const plain = new Progress({ isTTY: false, write: (s) => pipe.push(s) > 0 }, () => t + 5000);
    plain.start();
    plain.update({ done: 1, total: 2 });
    plain.stop();
    expect(pipe).toEqual([]);
  });
});
