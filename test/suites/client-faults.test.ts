// The client checks, proven like the server ones: the clean reference client passes every client
// check it gives a chance to (on both transports, in both eras), each fault fails exactly its check
// (plus what its record declares), and a client that gives a check no chance leaves it untestable.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../fixtures/clients/reference/faults.js';
import { liveCount } from '../../runner/reaper.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { Check } from '../../suites/kit/check.js';
import { idsOfRun } from '../helpers/catalogue-counts.js';
import { runReferenceClient } from './run-reference-client.js';

const CLIENT = CHECKS.filter((c) => c.role === 'client');
const byId = new Map(CLIENT.map((c) => [c.id, c]));
const ORACLES = CLIENT.filter((c) => c.kind === 'oracle');
// Traffic for an oracle: both eras (the legacy scenario), MRTR retries and plain calls.
const ORACLE_TRAFFIC = new Set(['client-modern', 'client-legacy', 'client-input-required']);

function checksFor(ids: string[]): Check[] {
  const main = byId.get(ids[0])!;
  const scenarios = new Set(main.kind === 'oracle' ? ORACLE_TRAFFIC : ids.map((id) => byId.get(id)?.scenario?.id).filter(Boolean));
  return CLIENT.filter((c) => (c.scenario && scenarios.has(c.scenario.id)) || c.kind === 'oracle');
}

const bad = (s: string) => s === 'fail' || s === 'warn' || s === 'error';

// The one thing the reference client abandons is its subscriptions/listen stream, and only over stdio in
// 2026-07-28 is that a notifications/cancelled (over HTTP closing the stream is the cancellation), so
// elsewhere it gives client.cancellations nothing to judge. Its fault shows the check failing.
const NOTHING_CANCELLED = 'client.cancellations: untestable: the client cancelled nothing';
const notPassed = (run: { checks: { id: string; status: string; message: string }[] }, transport: string, version: string) =>
  run.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status}: ${c.message}`).filter((v) => !(v === NOTHING_CANCELLED && !(transport === 'stdio' && version === '2026-07-28')));

describe('the reference client, clean', () => {
  it('passes every client check over HTTP in a 2026-07-28 run, none untestable (no vacuous pass)', async () => {
    const run = await runReferenceClient('http', '2026-07-28');
    const overHttp = CLIENT.filter((c) => (!c.requires.transports || c.requires.transports.includes('http')) && c.versions.includes('2026-07-28'));
    expect(run.checks.map((c) => c.id).sort()).toEqual(overHttp.map((c) => c.id).sort());
    expect(notPassed(run, 'http', '2026-07-28')).toEqual([]);
    expect(run.findings).toEqual([]);
    expect(liveCount()).toBe(0);
  });

  for (const [transport, version] of [['stdio', '2026-07-28'], ['stdio', '2025-11-25'], ['http', '2025-11-25']] as const) {
    it(`passes every client check that applies over ${transport} in a ${version} run`, async () => {
      const run = await runReferenceClient(transport, version, [], { clientArgs: version === '2025-11-25' ? ['--era', 'legacy'] : [] });
      expect(run.checks.map((c) => c.id).sort()).toEqual(idsOfRun('client', version, transport).sort());
      // What only stdio can show is judged there (and passes: nothing vacuous).
      if (transport === 'stdio') expect(run.checks.map((c) => c.id)).toEqual(expect.arrayContaining(CLIENT.filter((c) => c.requires.transports?.join() === 'stdio' && c.versions.includes(version)).map((c) => c.id)));
      expect(notPassed(run, transport, version)).toEqual([]);
      expect(run.findings).toEqual([]);
    });
  }

  it('a client that gives a check no chance leaves it untestable, never passed', async () => {
    // The toy client only discovers and lists tools: no tool call, no legacy fallback, no notifications.
    const run = await runReferenceClient('http', '2026-07-28', [], { command: [process.execPath, resolve('test/helpers/toy-client.mjs'), '{url}'] });
    const status = Object.fromEntries(run.checks.map((c) => [c.id, c.status]));
    for (const id of ['client.mrtr-request-state', 'client.mrtr-retry-id', 'client.mrtr-scoped', 'client.result-type-unknown', 'client.http-name-header', 'client.notification-no-id', 'client.initialized', 'client.server-requests']) expect(status[id], id).toBe('untestable');
    expect(status['client.meta-required']).toBe('pass');
    // It declares nothing a server could ask it for, so no input_required round could test it.
    expect(status['client.mrtr-no-invented-state']).toBe('skip');
  });

  it('a baseline scenario starts its judged run from a fresh HOME; the moved scenario keeps it', async () => {
    // The reference client keeps its registration in HOME, keyed by issuer: kept, it would not register again.
    const ids = new Set(['auth.client-iss', 'auth.client-as-binding']);
    const run = await runReferenceClient('http', '2026-07-28', [], { checks: CLIENT.filter((c) => ids.has(c.id)) });
    const registrations = (scenario: string) => run.recording.events().filter((e) => e.dir === 'in' && e.source === scenario && e.http?.method === 'POST' && e.http.url?.endsWith('/register')).map((e) => e.http!.url);
    expect(registrations('client-authorization-wrong-iss')).toEqual(['/register', '/register']);
    expect(registrations('client-authorization-moved')).toEqual(['/register', '/as2/register']);
    expect(run.checks.map((c) => c.status)).toEqual(['pass', 'pass']);
  });

  it('a client that declares no capability skips the input-request check (gated on what it declared)', async () => {
    const run = await runReferenceClient('stdio', '2026-07-28', [], { clientArgs: ['--caps', ''], checks: CLIENT.filter((c) => c.scenario?.id === 'client-input-required') });
    const status = Object.fromEntries(run.checks.map((c) => [c.id, c.status]));
    expect(status['client.mrtr-fulfils']).toBe('skip');
    expect(status['client.mrtr-request-state']).toBe('pass');
  });
});

// Fault runs go side by side (vitest's maxConcurrency): each waits mostly on the client's own pace and mcpspec's held answers.
describe.concurrent('every client check is proven able to fail', () => {
  it('the fault list covers every client check id, and nothing else', () => {
    expect(FAULTS.map((f) => f.id).sort()).toEqual([...byId.keys()].sort());
  });

  for (const fault of FAULTS) {
    const c = byId.get(fault.id);
    if (!c) continue;
    const transport = fault.transport ?? (c.requires.transports?.length === 1 ? c.requires.transports[0] : 'stdio');
    const version = fault.version ?? '2026-07-28';
    it(`--fault ${fault.id} makes ${fault.id} ${c.level === 'MUST' ? 'fail' : 'warn'} (${version}, ${transport}${c.kind === 'oracle' ? ', oracle' : ''})`, async () => {
      const related = [fault.id, ...(fault.alsoFails ?? []), ...(fault.mayAlsoFail ?? [])];
      const run = await runReferenceClient(transport, version, [fault.id], { checks: checksFor(related) });
      const results = new Map(run.checks.map((r) => [r.id, r]));
      expect(results.get(fault.id)?.status, results.get(fault.id)?.message).toBe(c.level === 'MUST' ? 'fail' : 'warn');
      for (const also of fault.alsoFails ?? []) expect(['fail', 'warn'], `${also} should fail too`).toContain(results.get(also)?.status);
      const allowed = new Set(related);
      expect(run.checks.filter((r) => bad(r.status) && !allowed.has(r.id)).map((r) => `${r.id}: ${r.status}: ${r.message}`)).toEqual([]);
      expect(run.findings.filter((f) => f.kind === 'harness')).toEqual([]);
    });
  }
});
