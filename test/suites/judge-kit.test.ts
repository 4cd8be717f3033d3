import { describe, expect, it } from 'vitest';
import { holds, skip, untestable, violated, type JudgeContext, type Judgement } from '../../suites/kit/check.js';
import { every, firstOffenders, gated, SHOWN, type EveryRule, type Precondition } from '../../suites/kit/judge.js';

const ctx: JudgeContext = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} };

// The rule "every number is even", with messages that show what `every` hands them.
const even: EveryRule<number> = {
  none: 'no number was seen',
  offends: (n) => n % 2 !== 0,
  violated: (bad, all) => `${bad.length} of ${all.length} numbers are odd; first: ${bad[0]}`,
  evidence: (n) => ({ what: `odd ${n}`, actual: n }),
  holds: (all) => `${all.length} numbers, each even`,
};

describe('firstOffenders', () => {
  it('keeps the first SHOWN (3) in order, and all of fewer', () => {
    expect(SHOWN).toBe(3);
    expect(firstOffenders([5, 4, 3, 2, 1])).toEqual([5, 4, 3]);
    expect(firstOffenders(['a'])).toEqual(['a']);
    expect(firstOffenders([])).toEqual([]);
  });

  it('copies: the list it was given is left alone', () => {
    const bad = [1, 2, 3, 4];
    firstOffenders(bad).push(9);
    expect(bad).toEqual([1, 2, 3, 4]);
  });
});

describe('every', () => {
  it('nothing to judge: untestable with the `none` message', () => {
    expect(every([], even)).toEqual(untestable('no number was seen'));
  });

  it('nothing to judge: the `none` judgement as given (a skip)', () => {
    expect(every([], { ...even, none: skip('numbers are not declared') })).toEqual({ outcome: 'skip', message: 'numbers are not declared' });
  });

  it('holds when no item offends, with the holds message and no evidence', () => {
    const j = every([2, 4, 6], even);
    expect(j).toEqual({ outcome: 'holds', message: '3 numbers, each even', evidence: [] });
    expect(j).toEqual(holds('3 numbers, each even'));
  });

  it('holds may return a judgement of its own (e.g. untestable after all)', () => {
    expect(every([2, 4], { ...even, holds: (all) => untestable(`${all.length} numbers, too few to tell`) })).toEqual(untestable('2 numbers, too few to tell'));
  });

  it('violated: the message gets every offender (in order) and every item; the evidence shows the first three', () => {
    const j = every([1, 2, 3, 5, 7, 8, 9], even);
    expect(j).toEqual({
      outcome: 'violated',
      message: '5 of 7 numbers are odd; first: 1',
      evidence: [{ what: 'odd 1', actual: 1 }, { what: 'odd 3', actual: 3 }, { what: 'odd 5', actual: 5 }],
    });
    expect(j).toEqual(violated('5 of 7 numbers are odd; first: 1', [{ what: 'odd 1', actual: 1 }, { what: 'odd 3', actual: 3 }, { what: 'odd 5', actual: 5 }]));
    expect('case' in j).toBe(false);
  });

  it('violated with fewer offenders than the cap shows them all', () => {
    const j = every([2, 7], even);
    expect(j.outcome).toBe('violated');
    expect(j.message).toBe('1 of 2 numbers are odd; first: 7');
    expect(j.outcome === 'violated' && j.evidence).toEqual([{ what: 'odd 7', actual: 7 }]);
  });

  it('asks for evidence of the shown offenders only, and for no message it does not give', () => {
    const asked: number[] = [];
    let held = 0;
    const j = every([1, 3, 5, 7, 9], { ...even, evidence: (n) => (asked.push(n), { what: String(n) }), holds: () => (held++, 'never') });
    expect(asked).toEqual([1, 3, 5]);
    expect(held).toBe(0);
    expect(j.outcome === 'violated' && j.evidence.map((e) => e.what)).toEqual(['1', '3', '5']);
  });
});

describe('gated', () => {
  interface Obs {
    declared: boolean;
    items: number[];
  }
  const declared: Precondition<Obs> = (o) => (o.declared ? undefined : skip('not declared'));
  const some: Precondition<Obs> = (o) => (o.items.length ? undefined : untestable('nothing was seen'));
  const calls: string[] = [];
  const judge = gated([declared, some], (o: Obs, c): Judgement => {
    calls.push(c.version);
    return holds(`${o.items.length} items`);
  });

  it('the first precondition not met gives the judgement, and the judge is not asked', () => {
    calls.length = 0;
    expect(judge({ declared: false, items: [] }, ctx)).toEqual(skip('not declared'));
    expect(judge({ declared: true, items: [] }, ctx)).toEqual(untestable('nothing was seen'));
    expect(calls).toEqual([]);
  });

  it('with every precondition met, the judge judges (with the context)', () => {
    calls.length = 0;
    expect(judge({ declared: true, items: [1, 2] }, ctx)).toEqual(holds('2 items'));
    expect(calls).toEqual(['2026-07-28']);
  });

  it('preconditions see the context too', () => {
    const modernOnly: Precondition<unknown> = (_, c) => (c.era === 'modern' ? undefined : skip('legacy run'));
    const j = gated([modernOnly], () => holds('judged'));
    expect(j(undefined, ctx)).toEqual(holds('judged'));
    expect(j(undefined, { ...ctx, era: 'legacy', version: '2025-11-25' })).toEqual(skip('legacy run'));
  });

  it('without preconditions it is the judge', () => {
    expect(gated([], () => violated('broken', []))(undefined, ctx)).toEqual(violated('broken', []));
  });
});
