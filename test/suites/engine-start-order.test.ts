// The engine's start order: scenarios marked startEarly 'first' (a fixed quiet wait longer than any
// other scenario's work) start before those marked startEarly, and those before the rest, so the
// longest waits overlap everything else instead of setting the run's length at its end.
import { describe, expect, it } from 'vitest';
import { MODERN } from '../../protocol/versions.js';
import { runSuite, type Driver, type ScenarioOutcome } from '../../runner/engine.js';
import { Recorder } from '../../runner/recorder.js';
import { check, holds } from '../../suites/kit/check.js';
import { clientScenario } from '../../suites/kit/scenario.js';

const info = { requirements: ['JR-04'], level: 'MUST' as const, versions: MODERN, role: 'client' as const, spec: 'https://modelcontextprotocol.io/specification/2026-07-28/basic' };
const plain = clientScenario({ id: 'test.plain', title: 'no mark', versions: MODERN, run: async () => ({}) });
const early = clientScenario({ id: 'test.early', title: 'startEarly', versions: MODERN, startEarly: true, run: async () => ({}) });
const first = clientScenario({ id: 'test.first', title: "startEarly 'first'", versions: MODERN, startEarly: 'first', run: async () => ({}) });
// Catalogue order puts the first-marked scenario last.
const checks = [plain, early, first].map((s) => check(s, { ...info, id: `${s.id}-check`, title: 't', judge: () => holds('ran') }));

function recordingDriver(started: string[]): Driver {
  return {
    role: 'client',
    transport: 'http',
    target: { role: 'client', transport: 'http', command: 'client', args: [] },
    start: async () => ({ era: { era: 'modern', version: '2026-07-28', judgedBy: '2026-07-28', detected: false, reason: 'test' }, peer: { capabilities: {} } }),
    runScenario: async (s): Promise<ScenarioOutcome> => {
      started.push(s.id);
      return { observed: {} };
    },
    observations: () => ({ exchanges: [], events: [], version: '2026-07-28', transport: 'http', deliberate: () => false }),
    findings: () => [],
    recording: () => new Recorder(),
    close: async () => undefined,
  };
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
});
