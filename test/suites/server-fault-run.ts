// One server fault test: the reference fixture with `--fault <id>` makes that check fail (or warn),
// the checks its record names fail too, and nothing else does. Shared by test/suites/faults.test.ts
// (an oracle's fault judged on the scenarios its record says show it) and the end-to-end run that
// judges every oracle's fault on the whole suite (test/e2e/oracle-faults-full-suite.test.ts).
import { expect } from 'vitest';
import type { Fault } from '../../fixtures/servers/reference/faults.js';
import { CHECKS, ORACLES } from '../../suites/catalogue.js';
import type { Check } from '../../suites/kit/check.js';
import { AUTH, runReference, type Version } from './run-reference.js';

export const SERVER_CHECKS = new Map(CHECKS.filter((c) => c.role === 'server').map((c) => [c.id, c]));

// Proven on stdio: the survives and stays-up faults make the server process exit, keeps-answering
// makes it stop answering (over HTTP that takes the whole server down for the rest of the run); a batch body over modern HTTP fails the header checks (-32020) before the
// batch fault is reached. A missing legacy list_changed notification is a verdict on stdio only: over
// HTTP it may have gone to the standalone GET stream, which mcpspec does not open.
const STDIO_ONLY_FAULTS = new Set(['robustness.survives-near-valid', 'robustness.stays-up', 'robustness.keeps-answering', 'jsonrpc.batch', 'lists.tools-changed-legacy']);

/** Where a fault is judged: where its check applies, HTTP (faster) unless the check is stdio-only. */
export function whereJudged(c: Check): { version: Version; transport: 'stdio' | 'http' } {
  const version: Version = c.versions.includes('2026-07-28') ? '2026-07-28' : '2025-11-25';
  const transport = c.requires.transports?.length === 1 ? c.requires.transports[0] : STDIO_ONLY_FAULTS.has(c.id) ? 'stdio' : 'http';
  return { version, transport };
}

/**
 * What a fault test runs: the scenarios of the check and of the checks the fault may also trip (for
 * an oracle, the scenarios its record names as showing it, or with `wholeSuite` every scenario),
 * plus every oracle (they judge that traffic too).
 */
export function checksFor(fault: Fault, wholeSuite = false): Check[] {
  const main = SERVER_CHECKS.get(fault.id)!;
  if (main.kind === 'oracle' && wholeSuite) return CHECKS;
  const related = [fault.id, ...(fault.alsoFails ?? []), ...(fault.mayAlsoFail ?? [])];
  const scenarios = new Set([...related.map((id) => SERVER_CHECKS.get(id)?.scenario?.id), ...(main.kind === 'oracle' ? (fault.shownBy ?? []) : [])].filter(Boolean));
  return CHECKS.filter((c) => (c.scenario && scenarios.has(c.scenario.id)) || ORACLES.includes(c));
}

export function faultTitle(fault: Fault, c: Check): string {
  const { version, transport } = whereJudged(c);
  return `--fault ${fault.id} makes ${fault.id} ${c.level === 'MUST' ? 'fail' : 'warn'} (${version}, ${transport}${c.kind === 'oracle' ? ', oracle' : ''})`;
}

export async function expectFaultCaught(fault: Fault, c: Check, wholeSuite = false): Promise<void> {
  const { version, transport } = whereJudged(c);
  const related = [fault.id, ...(fault.alsoFails ?? []), ...(fault.mayAlsoFail ?? [])];
  // The auth.* faults need the fixture's --auth-token mode (and mcpspec its token).
  const run = await runReference(transport, version, [fault.id], { checks: checksFor(fault, wholeSuite), ...(fault.id.startsWith('auth.') ? AUTH : {}) });
  const results = new Map(run.checks.map((r) => [r.id, r]));
  expect(results.get(fault.id)?.status, results.get(fault.id)?.message).toBe(c.level === 'MUST' ? 'fail' : 'warn');
  // What the fault record says it also breaks does break, and nothing else does.
  for (const also of fault.alsoFails ?? []) expect(['fail', 'warn'], `${also} should fail too`).toContain(results.get(also)?.status);
  const allowed = new Set(related);
  const others = run.checks.filter((r) => (r.status === 'fail' || r.status === 'warn' || r.status === 'error') && !allowed.has(r.id));
  expect(others.map((r) => `${r.id}: ${r.status}: ${r.message}`)).toEqual([]);
  expect(run.findings.filter((f) => f.kind === 'harness')).toEqual([]);
}
