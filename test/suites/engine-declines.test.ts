// The engine and a peer that declares anew in each scenario or declines one (a client harness written
// to the official suite's contract): a declined scenario's checks are untestable with the driver's
// reason, never failed or errors; capability gating on the start's declarations is off.
import { describe, expect, it } from 'vitest';
import { MODERN } from '../../protocol/versions.js';
import { runSuite, type Driver, type ScenarioOutcome } from '../../runner/engine.js';
import { check, holds } from '../../suites/kit/check.js';
import { clientScenario } from '../../suites/kit/scenario.js';
import { fakeClientDriver } from '../helpers/fake-driver.js';

const info = { requirements: ['JR-04'], level: 'MUST' as const, versions: MODERN, role: 'client' as const, spec: 'https://modelcontextprotocol.io/specification/2026-07-28/basic' };
const declined = clientScenario({ id: 'test.declined', title: 'the harness has no handler for it', versions: MODERN, run: async () => ({}) });
const asks = clientScenario({ id: 'test.asks', title: 'judged only of a client that declares elicitation', versions: MODERN, run: async () => ({}) });
const checks = [
  check(declined, { ...info, id: 'test.declined-check', title: 't', judge: () => holds('never reached') }),
  check(asks, { ...info, id: 'test.asks-check', title: 't', requires: { anyCapability: ['elicitation'] }, judge: () => holds('judged on what the scenario saw') }),
];

function fakeDriver(declaresPerScenario: boolean): Driver {
  // At start it declared nothing (the plain flow).
  return fakeClientDriver(async (s): Promise<ScenarioOutcome> => (s.id === declined.id ? { untestable: 'the harness ran none of the names mcpspec gave it' } : { observed: {} }), {
    target: { role: 'client', transport: 'http', command: 'harness', args: [] },
    declaresPerScenario,
  });
}

describe('a peer that declares per scenario, or declines one', () => {
  it('a declined scenario: its checks untestable with the reason, the scenario no-judgement, no finding', async () => {
    const run = await runSuite(fakeDriver(true), { selection: { checks }, schedule: { deadlineMs: 30_000 }, seed: 1 });
    expect(run.checks.find((c) => c.id === 'test.declined-check')).toMatchObject({ status: 'untestable', message: 'the harness ran none of the names mcpspec gave it' });
    expect(run.scenarios.find((s) => s.id === declined.id)).toMatchObject({ status: 'no-judgement', message: 'the harness ran none of the names mcpspec gave it' });
    expect(run.findings).toEqual([]);
  });

  it('declaring per scenario, a check is not gated on what was declared at start; otherwise it is', async () => {
    const perScenario = await runSuite(fakeDriver(true), { selection: { checks }, schedule: { deadlineMs: 30_000 }, seed: 1 });
    expect(perScenario.checks.find((c) => c.id === 'test.asks-check')).toMatchObject({ status: 'pass' });
    const once = await runSuite(fakeDriver(false), { selection: { checks }, schedule: { deadlineMs: 30_000 }, seed: 1 });
    expect(once.checks.find((c) => c.id === 'test.asks-check')).toMatchObject({ status: 'skip', message: 'the client declares none of the elicitation capabilities' });
  });
});
