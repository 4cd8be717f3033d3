// The client checks, proven like the server ones: the clean reference client passes every client
// check it gives a chance to (on both transports, in both eras), each fault fails exactly its check
// (plus what its record declares), and a client that gives a check no chance leaves it untestable.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../fixtures/clients/reference/faults.js';
import { liveCount } from '../../runner/reaper.js';
import { CHECKS } from '../../suites/catalogue.js';
import { idsOfRun } from '../helpers/catalogue-counts.js';
import { clientFaultTitle, expectClientFaultCaught, ORACLE_TRAFFIC } from './client-fault-run.js';
import { runReferenceClient } from './run-reference-client.js';

const CLIENT = CHECKS.filter((c) => c.role === 'client');
const byId = new Map(CLIENT.map((c) => [c.id, c]));

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

  it("an oracle's fault names the oracle-traffic scenario that shows it; a scenario check's fault names none", () => {
    for (const f of FAULTS) {
      if (byId.get(f.id)?.kind === 'oracle') expect(f.shownBy?.length && f.shownBy.every((s) => ORACLE_TRAFFIC.includes(s)), f.id).toBe(true);
      else expect(f.shownBy, f.id).toBeUndefined();
    }
  });

  for (const fault of FAULTS) {
    const c = byId.get(fault.id);
    if (!c) continue;
    it(clientFaultTitle(fault, c), () => expectClientFaultCaught(fault, c));
  }
});
