import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../fixtures/servers/reference/faults.js';
import { CHECKS, ORACLES } from '../../suites/catalogue.js';
import type { Check } from '../../suites/kit/check.js';
import { AUTH, runReference, type Version } from './run-reference.js';

const byId = new Map(CHECKS.filter((c) => c.role === 'server').map((c) => [c.id, c]));
// Proven on stdio: the survives and stays-up faults make the server process exit, keeps-answering
// makes it stop answering (over HTTP that takes the whole server down for the rest of the run); a batch body over modern HTTP fails the header checks (-32020) before the
// batch fault is reached. A missing legacy list_changed notification is a verdict on stdio only: over
// HTTP it may have gone to the standalone GET stream, which mcpspec does not open.
const STDIO_ONLY_FAULTS = new Set(['robustness.survives-near-valid', 'robustness.stays-up', 'robustness.keeps-answering', 'jsonrpc.batch', 'lists.tools-changed-legacy']);

/**
 * What a fault test runs: for a scenario check, its scenario and those of the checks the fault may
 * also trip, plus every oracle (they judge that traffic too); for an oracle, the whole suite (an
 * oracle needs traffic to judge).
 */
function checksFor(ids: string[]): Check[] {
  const main = byId.get(ids[0])!;
  if (main.kind === 'oracle') return CHECKS;
  const scenarios = new Set(ids.map((id) => byId.get(id)?.scenario).filter(Boolean));
  return CHECKS.filter((c) => (c.scenario && scenarios.has(c.scenario)) || ORACLES.includes(c));
}

// Fault runs go side by side (vitest's maxConcurrency): each waits mostly on its fixture's tasks, slow tools and fences.
describe.concurrent('every check is proven able to fail', () => {
  it('the fault list covers every check id, and nothing else', () => {
    expect(FAULTS.map((f) => f.id).sort()).toEqual([...byId.keys()].sort());
  });

  for (const fault of FAULTS) {
    const c = byId.get(fault.id);
    if (!c) continue;
    // Judge each fault where its check applies; prefer HTTP (faster) unless the check is stdio-only.
    const version: Version = c.versions.includes('2026-07-28') ? '2026-07-28' : '2025-11-25';
    const transport = c.requires.transports?.length === 1 ? c.requires.transports[0] : STDIO_ONLY_FAULTS.has(fault.id) ? 'stdio' : 'http';
    it(`--fault ${fault.id} makes ${fault.id} ${c.level === 'MUST' ? 'fail' : 'warn'} (${version}, ${transport}${c.kind === 'oracle' ? ', oracle' : ''})`, async () => {
      const related = [fault.id, ...(fault.alsoFails ?? []), ...(fault.mayAlsoFail ?? [])];
      // The auth.* faults need the fixture's --auth-token mode (and mcpspec its token).
      const run = await runReference(transport, version, [fault.id], { checks: checksFor(related), ...(fault.id.startsWith('auth.') ? AUTH : {}) });
      const results = new Map(run.checks.map((r) => [r.id, r]));
      expect(results.get(fault.id)?.status, results.get(fault.id)?.message).toBe(c.level === 'MUST' ? 'fail' : 'warn');
      // What the fault record says it also breaks does break, and nothing else does.
      for (const also of fault.alsoFails ?? []) expect(['fail', 'warn'], `${also} should fail too`).toContain(results.get(also)?.status);
      const allowed = new Set(related);
      const others = run.checks.filter((r) => (r.status === 'fail' || r.status === 'warn' || r.status === 'error') && !allowed.has(r.id));
      expect(others.map((r) => `${r.id}: ${r.status}: ${r.message}`)).toEqual([]);
      expect(run.findings.filter((f) => f.kind === 'harness')).toEqual([]);
    });
  }
});
