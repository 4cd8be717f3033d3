// shrinkFailure walks fast-check's own shrink tree: the smallest case and its path are the ones
// fc.check finds and replays. With speculateAfterMs, levels whose failure is slow (silence) wait
// side by side, and the outcome is still the sequential one.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateCases, settleCases, shrinkFailure, startCases } from '../../arbitraries/property.js';

const arb = fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 12 });
/** Fails when some element is at least 300 and the array has at least two elements. */
const bad = (xs: number[]) => xs.length >= 2 && xs.some((x) => x >= 300);
const opts = { seed: 4242, numRuns: 40 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What fast-check itself finds, shrinking synchronously from the same seed. */
function fastCheckAnswer(): { value: number[]; path: string } {
  const d = fc.check(fc.property(arb, (xs) => !bad(xs)), opts);
  if (!d.failed || !d.counterexample || !d.counterexamplePath) throw new Error('the property should fail');
  return { value: d.counterexample[0], path: d.counterexamplePath };
}

describe('shrinkFailure', () => {
  it('finds the same smallest case and path as fc.check, and the path replays it', async () => {
    const cases = await evaluateCases(arb, opts, async (xs) => bad(xs));
    const shrunk = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 10_000 }, cases, async (xs) => bad(xs), (failed) => failed);
    const expected = fastCheckAnswer();
    expect(shrunk?.value).toEqual(expected.value);
    expect(shrunk?.path).toEqual(expected.path);
    expect(shrunk!.shrinks).toBeGreaterThan(0);
    expect(shrunk!.budgetReached).toBe(false);
    let replayed: number[] | undefined;
    fc.check(
      fc.property(arb, (xs) => {
        replayed ??= xs;
        return !bad(xs);
      }),
      { ...opts, path: shrunk!.path },
    );
    expect(replayed).toEqual(expected.value);
  });

  it('is undefined when no case fails', async () => {
    const cases = await evaluateCases(arb, opts, async () => false);
    expect(await shrinkFailure(arb, opts, cases, async () => false, (failed) => failed)).toBeUndefined();
  });

  it('stops at maxShrinkEvaluations and says so', async () => {
    const cases = await evaluateCases(arb, opts, async (xs) => bad(xs));
    let calls = 0;
    const shrunk = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 3 }, cases, async (xs) => (calls++, bad(xs)), (failed) => failed);
    expect(calls).toBe(3);
    expect(shrunk!.budgetReached).toBe(true);
  });

  it('speculating on silence: the levels wait side by side, and the outcome is the sequential one', async () => {
    // A failing candidate is "silent": its outcome comes only after SILENCE ms (a timeout); a passing one at once.
    const SILENCE = 1500;
    const log: { xs: number[]; start: number; end: number; failed: boolean }[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const silentPeer = async (xs: number[]) => {
      const entry = { xs, start: Date.now(), end: 0, failed: bad(xs) };
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await sleep(entry.failed ? SILENCE : 5);
      inFlight--;
      entry.end = Date.now();
      log.push(entry);
      return entry.failed;
    };
    const quick = await evaluateCases(arb, opts, async (xs) => bad(xs));
    const sequential = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 25 }, quick, async (xs) => bad(xs), (failed) => failed);
    const speculative = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 25, speculateAfterMs: 50, maxSpeculative: 4, shrinkBudgetMs: 60_000 }, quick, silentPeer, (failed) => failed);
    expect(speculative?.value).toEqual(sequential?.value);
    expect(speculative?.path).toEqual(sequential?.path);
    expect(speculative?.shrinks).toEqual(sequential?.shrinks);
    expect(sequential!.shrinks).toBeGreaterThanOrEqual(3);
    // The failing steps of the path overlapped: each level's silent candidate started before the
    // previous level's answer came (sequentially, each would start only after the one before ended).
    const steps = log.filter((e) => e.failed).sort((a, b) => a.start - b.start);
    const overlapping = steps.slice(1).filter((e, k) => e.start < steps[k].end);
    expect(overlapping.length).toBeGreaterThanOrEqual(2);
    // One real evaluation plus at most maxSpeculative guesses at once.
    expect(mostInFlight).toBeLessThanOrEqual(5);
  });

  it("slowMeans 'passes': when silence is the pass, the next candidates start beside a silent one, and the outcome is the sequential one", async () => {
    const SILENCE = 600;
    const log: { start: number; end: number; failed: boolean }[] = [];
    const peer = async (xs: number[]) => {
      const entry = { start: Date.now(), end: 0, failed: bad(xs) };
      await sleep(entry.failed ? 5 : SILENCE);
      entry.end = Date.now();
      log.push(entry);
      return entry.failed;
    };
    const quick = await evaluateCases(arb, opts, async (xs) => bad(xs));
    const sequential = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 12 }, quick, async (xs) => bad(xs), (failed) => failed);
    const speculative = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 12, speculateAfterMs: 50, slowMeans: 'passes', maxSpeculative: 4, shrinkBudgetMs: 60_000 }, quick, peer, (failed) => failed);
    expect(speculative?.value).toEqual(sequential?.value);
    expect(speculative?.path).toEqual(sequential?.path);
    // Silent (passing) candidates waited side by side: they fall into far fewer waves (each wave
    // starting after the one before it ended) than there are of them.
    const silent = log.filter((e) => !e.failed).sort((a, b) => a.start - b.start);
    let waves = 0;
    let waveEnd = -Infinity;
    for (const e of silent) {
      if (e.start >= waveEnd) {
        waves++;
        waveEnd = e.end;
      }
    }
    expect(silent.length).toBeGreaterThanOrEqual(4);
    // One real wait plus up to maxSpeculative (4) guesses at a time: about a quarter (one after another: every one).
    expect(waves).toBeLessThanOrEqual(Math.ceil(silent.length / 4) + 1);
  });

  it('the time budget bounds what starts; candidates started on a guess before it are still used', async () => {
    const SILENCE = 800;
    const starts: number[] = [];
    const silentPeer = async (xs: number[]) => {
      starts.push(Date.now());
      await sleep(bad(xs) ? SILENCE : 5);
      return bad(xs);
    };
    const quick = await evaluateCases(arb, opts, async (xs) => bad(xs));
    const began = Date.now();
    const shrunk = await shrinkFailure(arb, { ...opts, shrinkBudgetMs: 400, speculateAfterMs: 50, maxSpeculative: 4 }, quick, silentPeer, (failed) => failed);
    expect(shrunk!.budgetReached).toBe(true);
    // Sequentially, the budget would end shrinking after one silent level; the guesses got further.
    expect(shrunk!.shrinks).toBeGreaterThanOrEqual(2);
    // Nothing started after the budget (a margin for a busy machine's timers).
    for (const t of starts) expect(t - began).toBeLessThan(400 + 250);
  });

  it('a slow candidate that passes after all: the guess under it is dropped and the outcome is still the sequential one', async () => {
    // Every candidate answers slowly (longer than speculateAfterMs), whether it fails or not.
    const slowPeer = async (xs: number[]) => {
      await sleep(120);
      return bad(xs);
    };
    const quick = await evaluateCases(arb, opts, async (xs) => bad(xs));
    const sequential = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 12 }, quick, async (xs) => bad(xs), (failed) => failed);
    const speculative = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 12, speculateAfterMs: 20, shrinkBudgetMs: 60_000 }, quick, slowPeer, (failed) => failed);
    expect(speculative?.value).toEqual(sequential?.value);
    expect(speculative?.path).toEqual(sequential?.path);
  });
});

describe('shrinkFailure beside cases still under way', () => {
  it('silent cases: shrinking starts before the cases are in, and the outcome is the sequential one', async () => {
    // Failing cases and candidates are silent for SILENCE ms; passing ones answer at once.
    const SILENCE = 1200;
    const silentPeer = async (xs: number[]) => {
      await sleep(bad(xs) ? SILENCE : 5);
      return bad(xs);
    };
    const quick = await evaluateCases(arb, opts, async (xs) => bad(xs));
    const sequential = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 25 }, quick, async (xs) => bad(xs), (failed) => failed);
    const began = Date.now();
    const cases = startCases(arb, { ...opts, concurrency: 40 }, silentPeer);
    const speculative = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 25, speculateAfterMs: 50, maxSpeculative: 4, shrinkBudgetMs: 60_000 }, cases, silentPeer, (failed) => failed);
    const took = Date.now() - began;
    expect(speculative?.value).toEqual(sequential?.value);
    expect(speculative?.path).toEqual(sequential?.path);
    expect(speculative?.shrinks).toEqual(sequential?.shrinks);
    expect(sequential!.shrinks).toBeGreaterThanOrEqual(3);
    // One after another, the cases and the levels would cost (1 + shrinks) silences; side by side the
    // first levels waited beside the cases.
    expect(took).toBeLessThan(0.6 * (1 + sequential!.shrinks) * SILENCE);
    // The cases' own outcomes are all there afterwards, in order.
    const settled = await settleCases(cases);
    expect(settled.map((c) => c.result)).toEqual(quick.map((c) => c.result));
  });

  it('a failing case after a slow passing one: the first failing case is still the one shrunk', async () => {
    // Case 0 passes slowly; every later case answers at once. The first failure is the first
    // failing case in order, whatever answered first.
    let n = 0;
    const peer = async (xs: number[]) => {
      const slow = n++ === 0;
      await sleep(slow ? 300 : 5);
      return bad(xs);
    };
    const quick = await evaluateCases(arb, opts, async (xs) => bad(xs));
    const sequential = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 8 }, quick, async (xs) => bad(xs), (failed) => failed);
    const cases = startCases(arb, { ...opts, concurrency: 4 }, peer);
    const speculative = await shrinkFailure(arb, { ...opts, maxShrinkEvaluations: 8, speculateAfterMs: 20, shrinkBudgetMs: 60_000 }, cases, async (xs) => bad(xs), (failed) => failed);
    expect(speculative?.path).toEqual(sequential?.path);
    expect(speculative?.value).toEqual(sequential?.value);
  });

  it('a case that throws rejects the search and its settled outcomes, never an unhandled rejection', async () => {
    const cases = startCases(arb, opts, async (xs) => {
      if (xs.length > 3) throw new Error('the peer went away');
      return bad(xs);
    });
    await expect(settleCases(cases)).rejects.toThrow('the peer went away');
    await expect(shrinkFailure(arb, opts, cases, async (xs) => bad(xs), (failed) => failed)).rejects.toThrow('the peer went away');
  });

  it('starts no more than `concurrency` cases at once, in order', async () => {
    let inFlight = 0;
    let most = 0;
    const order: number[][] = [];
    const cases = startCases(arb, { ...opts, concurrency: 3 }, async (xs) => {
      order.push(xs);
      most = Math.max(most, ++inFlight);
      await sleep(5);
      inFlight--;
      return bad(xs);
    });
    await settleCases(cases);
    expect(most).toBe(3);
    expect(order).toEqual(cases.map((c) => c.value));
  });
});
