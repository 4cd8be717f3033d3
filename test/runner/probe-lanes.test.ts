// LanePool (runner/probe-lanes.ts): id-less probes on stdio first share one extra connection; an
// id-less answer there that cannot be attributed sends them again, each alone on a connection
// ("lane") of its own. Either way a target that silently drops malformed input costs about one
// timeout, however many probes. `alone: true` tests the lanes by themselves.

import { afterEach, describe, expect, it } from 'vitest';
import type { BaseSession } from '../../runner/base-session.js';
import { openLegacySession } from '../../runner/legacy-session.js';
import { LanePool } from '../../runner/probe-lanes.js';
import { Recorder } from '../../runner/recorder.js';
import type { Exchange } from '../../suites/ports/session.js';
import { fakeStdio } from './helpers.js';

const sessions: BaseSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

/** The short timeout is the probes'; a freshly started process gets its own, longer bound for the handshake (a busy machine). */
async function lane(env: Record<string, string>, timeoutMs: number): Promise<BaseSession> {
  const s = await openLegacySession(fakeStdio(env, new Recorder(), { closeGraceMs: 500, killGraceMs: 500 }), { timeoutMs, handshakeTimeoutMs: Math.max(timeoutMs, 10_000) });
  sessions.push(s);
  return s;
}

async function makePool(env: Record<string, string>, maxLanes: number, spawnAfterMs: number, timeoutMs: number) {
  const first = await lane(env, timeoutMs);
  let opened = 0;
  const pool = new LanePool({
    first,
    open: async () => {
      opened++;
      return lane(env, timeoutMs);
    },
    maxLanes,
    spawnAfterMs,
  });
  const lanes = () => [first, ...pool.extra()];
  return { first, pool, lanes, opened: () => opened };
}

/** What each lane was sent verbatim (the malformed bodies), lane by lane. */
function probesPerLane(lanes: BaseSession[]): string[][] {
  return lanes.map((s) => s.events().filter((e) => e.dir === 'out' && e.message === undefined).map((e) => e.raw));
}

/**
 * Whether the waits overlapped, so their timeouts ran side by side: each probe started before the one
 * started just before it had finished waiting. One after the other on one lane, each would start only
 * once the previous timed out. (Structural, not a wall-clock bound: a loaded machine slows lanes
 * opening, not the order of events.)
 */
function overlapped(exs: Exchange[]): boolean {
  const byStart = [...exs].sort((a, b) => a.startedAt - b.startedAt);
  return byStart.every((ex, i) => i === 0 || ex.startedAt < byStart[i - 1].startedAt + byStart[i - 1].elapsedMs);
}

/** Issue probes one event-loop turn apart (each has reached its lane before the next asks for one). */
async function staggered(pool: LanePool, bodies: string[]): Promise<Exchange[]> {
  const out: Promise<Exchange>[] = [];
  for (const b of bodies) {
    out.push(pool.probe(b, { idless: true, alone: true }));
    await new Promise((r) => setImmediate(r));
  }
  return Promise.all(out);
}

const SILENT = { FAKE_PARSE: 'silent' };

describe('LanePool', () => {
  it('a target that never answers id-less probes: N probes on N lanes take about one timeout, not N', async () => {
    const timeoutMs = 1000;
    const { pool, lanes, opened } = await makePool(SILENT, 4, 50, timeoutMs);
    const exs = await staggered(pool, ['{a', '{b', '{c', '{d']);
    for (const ex of exs) {
      expect(ex.timedOut).toBe(true);
      expect(ex.response).toBeUndefined();
    }
    expect(opened()).toBe(3);
    expect(pool.extra().length + pool.retiredLanes().length).toBe(3);
    expect(overlapped(exs)).toBe(true); // one after the other: 4 timeouts in a row
    // The same waits laid end to end (what a serial pool does) are not overlapped.
    const serial = exs.map((ex, i) => ({ ...ex, startedAt: exs[0].startedAt + i * (ex.elapsedMs + 1) }));
    expect(overlapped(serial)).toBe(false);
    // each lane carried exactly one probe
    const sent = probesPerLane([...lanes(), ...pool.retiredLanes()]);
    expect(sent.map((x) => x.length)).toEqual([1, 1, 1, 1]);
    expect(sent.flat().sort()).toEqual(['{a', '{b', '{c', '{d']);
  });

  // PRODUCT BUG (reported): LanePool.acquire() does not reserve the lane it returns; the lane only
  // becomes busy once lane.probe() runs, after an await. Probes issued in one synchronous burst
  // (Promise.all(bodies.map(b => ctx.probe(b, { idless: true }))), as suites/messages/jsonrpc-scenario.ts
  // does) all pick the first lane and run one after the other. Remove `.fails` once fixed.
  it('probes issued in one burst also spread over the lanes', async () => {
    const timeoutMs = 600;
    const { pool, lanes } = await makePool(SILENT, 4, 50, timeoutMs);
    const exs = await Promise.all(['{a', '{b', '{c', '{d'].map((b) => pool.probe(b, { idless: true, alone: true })));
    expect(exs.every((ex) => ex.timedOut)).toBe(true);
    expect(pool.extra().length + pool.retiredLanes().length).toBe(3);
    expect(probesPerLane([...lanes(), ...pool.retiredLanes()]).map((x) => x.length)).toEqual([1, 1, 1, 1]);
    expect(overlapped(exs)).toBe(true);
  });

  it('never has more than maxLanes connections open, and never reuses one where an id-less probe went unanswered', async () => {
    const timeoutMs = 500;
    const { first, pool, lanes } = await makePool(SILENT, 2, 50, timeoutMs);
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, lanes().filter((l) => !l.transport.closed).length)), 10);
    const exs = await staggered(pool, ['{1', '{2', '{3', '{4']);
    clearInterval(sampler);
    expect(exs.every((ex) => ex.timedOut)).toBe(true);
    expect(most).toBeLessThanOrEqual(2);
    // every probe went to a connection of its own: the first session, then fresh ones as tainted ones were retired
    const all = [first, ...pool.retiredLanes(), ...pool.extra()];
    expect(probesPerLane(all).flat().sort()).toEqual(['{1', '{2', '{3', '{4']);
    expect(probesPerLane(all).every((x) => x.length <= 1)).toBe(true);
  });

  it('a fast target is served by the first lane alone, each probe getting its own id-less answer', async () => {
    const { first, pool, opened } = await makePool({}, 4, 500, 3000);
    const bodies = ['{x1', '{x2', '{x3', '{x4', '{x5', '{x6'];
    const burst = await Promise.all(bodies.map((b) => pool.probe(b, { idless: true, alone: true })));
    const spaced = await staggered(pool, ['{y1', '{y2', '{y3']);
    for (const ex of [...burst, ...spaced]) {
      expect(ex.timedOut).toBe(false);
      expect((ex.response as { error: { code: number } }).error.code).toBe(-32700);
    }
    expect(opened()).toBe(0);
    expect(pool.extra()).toEqual([]);
    expect(first.events().some((e) => e.note === 'unattributed-response')).toBe(false);
  });

  it('shared: a target that answers no id-less probe costs one timeout and one extra connection for them all', async () => {
    const timeoutMs = 800;
    const { pool, opened } = await makePool(SILENT, 2, 50, timeoutMs);
    const bodies = ['{s1', '{s2', '{s3', '{s4', '{s5', '{s6', '{s7', '{s8'];
    const started = Date.now();
    const exs = await Promise.all(bodies.map((b) => pool.probe(b, { idless: true })));
    for (const ex of exs) {
      expect(ex.timedOut).toBe(true);
      expect(ex.ambiguous).toBeUndefined();
    }
    // alone on two lanes this would be four rounds of the timeout
    expect(Date.now() - started).toBeLessThan(2.5 * timeoutMs);
    expect(opened()).toBe(1);
  });

  it('shared: id-less answers that cannot be told apart send each probe again alone, and each gets its own answer', async () => {
    const { pool, opened } = await makePool({}, 4, 50, 3000);
    const bodies = ['{f1', '{f2', '{f3', '{f4'];
    const exs = await Promise.all(bodies.map((b) => pool.probe(b, { idless: true })));
    for (const ex of exs) {
      expect(ex.timedOut).toBe(false);
      expect(ex.ambiguous).toBeUndefined();
      expect((ex.response as { error: { code: number } }).error.code).toBe(-32700);
    }
    expect(exs.map((ex) => ex.request)).toEqual(bodies);
    expect(opened()).toBeGreaterThanOrEqual(1); // the shared connection, then lanes as needed
  });

  it('shared: one late answer there sends the probes still waiting again alone, and the connection is not used again', async () => {
    // The fake answers every unparseable line 600 ms late; the first probe gives up after 300 ms.
    const { pool } = await makePool({ FAKE_PARSE: 'late:600' }, 4, 50, 3000);
    const early = pool.probe('{early', { idless: true, timeoutMs: 300 });
    await new Promise((r) => setTimeout(r, 50));
    const later = pool.probe('{later', { idless: true });
    expect((await early).timedOut).toBe(true);
    const ex = await later;
    // its own answer, from a connection where nothing else was waiting
    expect(ex.timedOut).toBe(false);
    expect((ex.response as { error: { message: string } }).error.message).toBe('Parse error (late)');
    const again = await pool.probe('{third', { idless: true });
    expect(again.timedOut).toBe(false);
  });

  it('a lane whose target died is replaced', async () => {
    const { first, pool } = await makePool({}, 2, 50, 3000);
    await first.request('crash');
    expect(first.transport.closed).toBeDefined();
    const ex = await pool.probe('{after', { idless: true, alone: true });
    expect((ex.response as { error: { code: number } }).error.code).toBe(-32700);
    expect(pool.extra()).toHaveLength(1);
  });
});
