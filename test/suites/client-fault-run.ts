// One client fault test: the reference client with `--fault <id>` makes that check fail (or warn),
// the checks its record names fail too, and nothing else does. Shared by test/suites/client-faults.test.ts
// (an oracle's fault judged on the scenario its record says shows it) and the end-to-end run that judges
// every oracle's fault on all the oracle traffic (test/e2e/client-oracle-faults.test.ts).
import { expect } from 'vitest';
import type { ClientFault } from '../../fixtures/clients/reference/faults.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { Check } from '../../suites/kit/check.js';
import { runReferenceClient } from './run-reference-client.js';

export const CLIENT_CHECKS = new Map(CHECKS.filter((c) => c.role === 'client').map((c) => [c.id, c]));
const CLIENT = [...CLIENT_CHECKS.values()];
// Traffic for an oracle: both eras (the legacy scenario), MRTR retries and plain calls.
export const ORACLE_TRAFFIC = ['client-modern', 'client-legacy', 'client-input-required'];

/** The scenarios of the check and of what the fault may also trip (an oracle: its `shownBy`, or with `allTraffic` ORACLE_TRAFFIC), and every oracle. */
function checksFor(fault: ClientFault, allTraffic: boolean): Check[] {
  const main = CLIENT_CHECKS.get(fault.id)!;
  const related = [fault.id, ...(fault.alsoFails ?? []), ...(fault.mayAlsoFail ?? [])];
  const scenarios = new Set(main.kind === 'oracle' ? (allTraffic ? ORACLE_TRAFFIC : (fault.shownBy ?? [])) : related.map((id) => CLIENT_CHECKS.get(id)?.scenario?.id).filter(Boolean));
  return CLIENT.filter((c) => (c.scenario && scenarios.has(c.scenario.id)) || c.kind === 'oracle');
}

function whereJudged(fault: ClientFault, c: Check): { transport: 'http' | 'stdio'; version: '2026-07-28' | '2025-11-25' } {
  return { transport: fault.transport ?? (c.requires.transports?.length === 1 ? c.requires.transports[0] : 'stdio'), version: fault.version ?? '2026-07-28' };
}

export function clientFaultTitle(fault: ClientFault, c: Check): string {
  const { transport, version } = whereJudged(fault, c);
  return `--fault ${fault.id} makes ${fault.id} ${c.level === 'MUST' ? 'fail' : 'warn'} (${version}, ${transport}${c.kind === 'oracle' ? ', oracle' : ''})`;
}

const bad = (s: string) => s === 'fail' || s === 'warn' || s === 'error';

export async function expectClientFaultCaught(fault: ClientFault, c: Check, allTraffic = false): Promise<void> {
  const { transport, version } = whereJudged(fault, c);
  const related = [fault.id, ...(fault.alsoFails ?? []), ...(fault.mayAlsoFail ?? [])];
  const run = await runReferenceClient(transport, version, [fault.id], { checks: checksFor(fault, allTraffic) });
  const results = new Map(run.checks.map((r) => [r.id, r]));
  expect(results.get(fault.id)?.status, results.get(fault.id)?.message).toBe(c.level === 'MUST' ? 'fail' : 'warn');
  for (const also of fault.alsoFails ?? []) expect(['fail', 'warn'], `${also} should fail too`).toContain(results.get(also)?.status);
  const allowed = new Set(related);
  expect(run.checks.filter((r) => bad(r.status) && !allowed.has(r.id)).map((r) => `${r.id}: ${r.status}: ${r.message}`)).toEqual([]);
  expect(run.findings.filter((f) => f.kind === 'harness')).toEqual([]);
}
