import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../fixtures/servers/reference/faults.js';
import { catalogue } from '../../suites/catalogue.js';
import { runReference, type Version } from './run-reference.js';

const checks = new Map(catalogue().map((c) => [c.id, c]));
// Proven on stdio: the survives fault makes the server process exit (over HTTP that takes the
// whole server down and leaves every later scenario untestable); a batch body over modern HTTP
// fails the header checks (-32020) before the batch fault is reached.
const STDIO_ONLY_FAULTS = new Set(['robustness.survives-near-valid', 'jsonrpc.batch']);

describe('every check is proven able to fail', () => {
  it('the fault list covers every check id, and nothing else', () => {
    expect(FAULTS.map((f) => f.id).sort()).toEqual([...checks.keys()].sort());
  });

  for (const fault of FAULTS) {
    const c = checks.get(fault.id);
    if (!c) continue;
    // Judge each fault where its check applies; prefer HTTP (faster) unless the check is stdio-only.
    const version: Version = c.versions.includes('2026-07-28') ? '2026-07-28' : '2025-11-25';
    const transport = c.transports?.length === 1 ? c.transports[0] : STDIO_ONLY_FAULTS.has(fault.id) ? 'stdio' : 'http';
    it(`--fault ${fault.id} makes ${fault.id} ${c.level === 'MUST' ? 'fail' : 'warn'} (${version}, ${transport})`, async () => {
      const run = await runReference(transport, version, [fault.id]);
      const byId = new Map(run.checks.map((r) => [r.id, r]));
      expect(byId.get(fault.id)?.status, byId.get(fault.id)?.message).toBe(c.level === 'MUST' ? 'fail' : 'warn');
      // What the fault record says it also breaks does break, and nothing else does.
      for (const also of fault.alsoFails ?? []) expect(['fail', 'warn'], `${also} should fail too`).toContain(byId.get(also)?.status);
      const allowed = new Set([fault.id, ...(fault.alsoFails ?? []), ...(fault.mayAlsoFail ?? [])]);
      const others = run.checks.filter((r) => (r.status === 'fail' || r.status === 'warn' || r.status === 'error') && !allowed.has(r.id));
      expect(others.map((r) => `${r.id}: ${r.status}: ${r.message}`)).toEqual([]);
    });
  }
});
