// A client-role driver for engine tests: a modern peer that declared nothing at start, with no
// traffic; each test says what running a scenario gives (and may set the other Driver fields).
import type { Driver, ScenarioOutcome } from '../../runner/engine.js';
import { Recorder } from '../../runner/recorder.js';
import type { Scenario } from '../../suites/kit/scenario.js';

export function fakeClientDriver(runScenario: (s: Scenario) => Promise<ScenarioOutcome>, more: Partial<Driver> = {}): Driver {
  return {
    role: 'client',
    transport: 'http',
    target: { role: 'client', transport: 'http', command: 'client', args: [] },
    start: async () => ({ era: { era: 'modern', version: '2026-07-28', judgedBy: '2026-07-28', detected: false, reason: 'test' }, peer: { capabilities: {} } }),
    runScenario,
    observations: () => ({ exchanges: [], events: [], version: '2026-07-28', transport: 'http', deliberate: () => false }),
    findings: () => [],
    recording: () => new Recorder(),
    close: async () => undefined,
    ...more,
  };
}
