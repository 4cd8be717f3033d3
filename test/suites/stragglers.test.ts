import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Stragglers } from '../../suites/tools/stragglers.js';

const OPTS = { minMs: 1000, sameToolMinMs: 250, factor: 4, everyMs: 10 };

describe('stragglers: calls let go once they run far longer than their kind', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('a call whose own tool has fast finished calls is let go past max(250 ms, 4 x their median)', () => {
    const s = new Stragglers(OPTS);
    const fast = s.start('sleepy', 'valid');
    const slow = s.start('sleepy', 'valid');
    vi.advanceTimersByTime(20);
    fast.finish(true);
    vi.advanceTimersByTime(200);
    expect(slow.signal.aborted).toBe(false);
    vi.advanceTimersByTime(60);
    expect(slow.signal.aborted).toBe(true);
    expect(s.cancelled.get('sleepy')).toBe(1);
    s.stop();
  });

  it('a finished call counts the time the target took, not the time it waited to be sent', () => {
    const s = new Stragglers(OPTS);
    const queued = s.start('sleepy', 'valid');
    const slow = s.start('sleepy', 'valid');
    vi.advanceTimersByTime(400);
    queued.finish(true, 20); // 400 ms since start, of which the target took 20
    vi.advanceTimersByTime(10);
    expect(slow.signal.aborted).toBe(true); // past max(250, 4 x 20), not 4 x 400
    s.stop();
  });

  it('a tool with no finished call of its own waits for the kind-wide floor (1 s)', () => {
    const s = new Stragglers(OPTS);
    const other = s.start('quick', 'valid');
    const lone = s.start('lonely', 'valid');
    vi.advanceTimersByTime(10);
    other.finish(true);
    vi.advanceTimersByTime(900);
    expect(lone.signal.aborted).toBe(false);
    vi.advanceTimersByTime(200);
    expect(lone.signal.aborted).toBe(true);
    s.stop();
  });

  it('nothing is let go before some call was judged, and a uniformly slow tool keeps its calls', () => {
    const s = new Stragglers(OPTS);
    const calls = [0, 1, 2].map(() => s.start('slow', 'valid'));
    vi.advanceTimersByTime(5000);
    expect(calls.some((c) => c.signal.aborted)).toBe(false);
    calls[0].finish(true);
    vi.advanceTimersByTime(1500); // 6.5 s against a median of 5 s: within 4 x
    calls[1].finish(true);
    vi.advanceTimersByTime(100);
    expect(calls[2].signal.aborted).toBe(false);
    s.stop();
  });

  it('near-valid calls are measured apart from valid ones', () => {
    const s = new Stragglers(OPTS);
    const valid = s.start('t', 'valid');
    const near = s.start('t', 'near-valid');
    vi.advanceTimersByTime(5);
    valid.finish(true);
    vi.advanceTimersByTime(600); // past 250 ms, but no near-valid call of t has finished: the 1 s floor holds
    expect(near.signal.aborted).toBe(false);
    s.stop();
  });
});
