// Scenarios marked sharesSession run on the run's first session over legacy HTTP: the target sees
// one initialize and one DELETE for all of them, request ids stay unique within that session, and
// the verdicts are those of scenarios with sessions of their own (stdio never shares).

import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../results/run.js';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import { runReference, statusTable } from './run-reference.js';

const sharing = CHECKS.filter((c) => c.scenario?.sharesSession);
const sharingScenarios = [...new Set(sharing.map((c) => c.scenario!.id))];

const events = (run: RunResult): WireEvent[] => run.recording.events();
const sessionOf = (e: WireEvent): string | undefined => (e.http?.headers as Record<string, string> | undefined)?.['Mcp-Session-Id'];
const method = (e: WireEvent): string | undefined => (e.message as { method?: string } | undefined)?.method;

describe('a session shared by read-only scenarios (legacy HTTP)', () => {
  it('marks the read-only scenarios, and only scenarios that offer no client capabilities', () => {
    expect(sharingScenarios).toEqual(expect.arrayContaining(['lists', 'resources', 'prompts', 'completion', 'capabilities.undeclared']));
    for (const c of sharing) {
      expect(c.scenario!.legacyCapabilities, c.scenario!.id).toBeUndefined();
      expect(c.scenario!.skipInitialized, c.scenario!.id).toBeFalsy();
    }
  });

  it('opens one session for all of them, ends it once after them, and keeps request ids unique in it', async () => {
    const run = await runReference('http', '2025-11-25', [], { checks: sharing, concurrency: 4 });
    const evs = events(run);
    const initializes = evs.filter((e) => e.dir === 'out' && method(e) === 'initialize');
    expect(initializes).toHaveLength(1);
    expect(initializes[0].source).toBe('handshake');

    const shared = evs.filter((e) => e.dir === 'out' && e.source !== 'handshake' && e.kind === 'message').map(sessionOf);
    expect(shared.length).toBeGreaterThan(10);
    expect(new Set(shared).size).toBe(1);
    const sid = shared[0]!;

    const deletes = evs.filter((e) => e.dir === 'out' && e.http?.method === 'DELETE');
    expect(deletes.map(sessionOf)).toEqual([sid]);
    const lastScenarioEvent = Math.max(...evs.filter((e) => e.source !== 'handshake').map((e) => e.seq));
    expect(deletes[0].seq).toBeGreaterThan(lastScenarioEvent);

    // Ids of every request sent on the session (handshake included) are unique (JR-03).
    const ids = evs.filter((e) => e.dir === 'out' && sessionOf(e) === sid && typeof method(e) === 'string' && 'id' in (e.message as object)).map((e) => JSON.stringify((e.message as { id: unknown }).id));
    expect(new Set(ids).size).toBe(ids.length);

    // Each scenario's own traffic is recorded under its own name.
    for (const id of sharingScenarios.filter((s) => s !== 'capabilities.undeclared')) expect(evs.some((e) => e.source === id && e.dir === 'out'), id).toBe(true);
  }, 60_000);

  it('judges as scenarios with sessions of their own do (stdio: one process each)', async () => {
    const [http, stdio] = await Promise.all([runReference('http', '2025-11-25', [], { checks: sharing }), runReference('stdio', '2025-11-25', [], { checks: sharing })]);
    const table = statusTable(http);
    expect(table).toEqual(statusTable(stdio));
    expect(Object.values(table)).toContain('pass');
    expect(Object.values(table).filter((s) => s === 'fail' || s === 'error')).toEqual([]);
  }, 60_000);

  // The fault tests judge these checks on 2026-07-28 where they can; here each fault is found on the shared legacy session.
  for (const c of sharing.filter((c) => c.versions.includes('2025-11-25') && c.kind !== 'oracle')) {
    it(`--fault ${c.id} is still found on the shared session`, async () => {
      const run = await runReference('http', '2025-11-25', [c.id], { checks: sharing });
      expect(statusTable(run)[c.id]).toBe(c.level === 'MUST' ? 'fail' : 'warn');
    }, 60_000);
  }
});
