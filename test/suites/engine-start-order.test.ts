// The engine's start order: scenarios marked startEarly 'first' (a fixed quiet wait longer than any
// other scenario's work) start before those marked startEarly, and those before the rest, so the
// longest waits overlap everything else instead of setting the run's length at its end; the others
// start after a short head start, so their start-up work does not delay the long waits' first requests.
import { describe, expect, it } from 'vitest';
import { MODERN } from '../../protocol/versions.js';
import { runSuite, type Driver, type ScenarioOutcome } from '../../runner/engine.js';
import { check, holds } from '../../suites/kit/check.js';
import { clientScenario } from '../../suites/kit/scenario.js';
import { fakeClientDriver } from '../helpers/fake-driver.js';

const info = { requirements: ['JR-04'], level: 'MUST' as const, versions: MODERN, role: 'client' as const, spec: 'https://modelcontextprotocol.io/specification/2026-07-28/basic' };
const plain = clientScenario({ id: 'test.plain', title: 'no mark', versions: MODERN, run: async () => ({}) });
const early = clientScenario({ id: 'test.early', title: 'startEarly', versions: MODERN, startEarly: true, run: async () => ({}) });
const first = clientScenario({ id: 'test.first', title: "startEarly 'first'", versions: MODERN, startEarly: 'first', run: async () => ({}) });
// Catalogue order puts the first-marked scenario last.
const checks = [plain, early, first].map((s) => check(s, { ...info, id: `${s.id}-check`, title: 't', judge: () => holds('ran') }));

function recordingDriver(started: string[], at: Map<string, number> = new Map()): Driver {
  return fakeClientDriver(async (s): Promise<ScenarioOutcome> => {
    started.push(s.id);
    at.set(s.id, performance.now());
    return { observed: {} };
  });
}

describe('the order scenarios start in', () => {
  it("'first' before startEarly before the rest, whatever the catalogue order", async () => {
    const started: string[] = [];
    const run = await runSuite(recordingDriver(started), { selection: { checks }, schedule: { deadlineMs: 30_000, concurrency: 1 }, seed: 1 });
    expect(started).toEqual(['test.first', 'test.early', 'test.plain']);
    // The report keeps the catalogue's order.
    expect(run.scenarios.map((s) => s.id)).toEqual(['test.plain', 'test.early', 'test.first']);
    expect(run.checks.every((c) => c.status === 'pass')).toBe(true);
  });

  it("the others wait for the 'first' scenarios' head start even with workers free; without a 'first' one nothing waits", async () => {
    const at = new Map<string, number>();
    await runSuite(recordingDriver([], at), { selection: { checks }, schedule: { deadlineMs: 30_000, concurrency: 3 }, seed: 1 });
    expect(at.get('test.early')! - at.get('test.first')!).toBeGreaterThanOrEqual(40);
    expect(at.get('test.plain')! - at.get('test.first')!).toBeGreaterThanOrEqual(40);
    const without = new Map<string, number>();
    await runSuite(recordingDriver([], without), { selection: { checks: checks.slice(0, 2) }, schedule: { deadlineMs: 30_000, concurrency: 3 }, seed: 1 });
    expect(Math.abs(without.get('test.plain')! - without.get('test.early')!)).toBeLessThan(40);
  });
});
