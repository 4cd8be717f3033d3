import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { ListComparison, PerConnectionObs, Reading } from '../../suites/list-changed/per-connection-scenario.js';
import type { Exchange } from '../../suites/ports/session.js';

const check = CHECKS.find((c) => c.id === 'lists.same-per-connection')!;
const judge = (obs: PerConnectionObs) => check.judge(obs, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} });
const page = { seq: [1, 2] } as Exchange;
const r = (...keys: string[]): Reading => ({ keys, pages: [page] });
const failed: Reading = { failed: { ...page, timedOut: true, request: {}, messages: [], elapsedMs: 0, startedAt: 0, timeoutMs: 1 }, pages: [page] };
const cmp = (...rounds: [Reading, Reading][]): ListComparison => ({ method: 'tools/list', rounds: rounds.map(([here, there]) => ({ here, there })) });

describe('lists.same-per-connection (VN-10)', () => {
  it('the same set (in any order) on both processes holds', () => {
    expect(judge({ comparisons: [cmp([r('a', 'b'), r('b', 'a')])] }).outcome).toBe('holds');
  });

  it('a set that changed over time and then agrees is no violation', () => {
    expect(judge({ comparisons: [cmp([r('a'), r('a', 'b')], [r('a', 'b'), r('a', 'b')])] }).outcome).toBe('holds');
  });

  it('each process keeping its own set in both readings is a violation naming the difference', () => {
    const v = judge({ comparisons: [cmp([r('a', 'p1'), r('a', 'p2')], [r('a', 'p1'), r('a', 'p2')])] });
    expect(v).toMatchObject({ outcome: 'violated', message: expect.stringContaining('tools/list differs') });
    expect(v.outcome === 'violated' && v.evidence[0].actual).toEqual({ onlyOnFirst: ['p1'], onlyOnSecond: ['p2'] });
  });

  it('a list still changing, or one that could not be read, is not judged', () => {
    expect(judge({ comparisons: [cmp([r('a'), r('b')], [r('c'), r('d')])] })).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('kept changing') });
    expect(judge({ comparisons: [cmp([r('a'), failed], [r('a'), failed])] }).outcome).toBe('untestable');
    expect(judge({ comparisons: [], none: 'the server declares no tools, prompts or resources' }).outcome).toBe('skip');
  });
});
