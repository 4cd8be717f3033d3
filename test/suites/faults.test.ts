import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../fixtures/servers/reference/faults.js';
import { expectFaultCaught, faultTitle, SERVER_CHECKS } from './server-fault-run.js';

// Fault runs go side by side (vitest's maxConcurrency): each waits mostly on its fixture's tasks, slow tools and fences.
describe.concurrent('every check is proven able to fail', () => {
  it('the fault list covers every check id, and nothing else', () => {
    expect(FAULTS.map((f) => f.id).sort()).toEqual([...SERVER_CHECKS.keys()].sort());
  });

  it("an oracle's fault names the scenarios that show it (they exist); a scenario check's fault names none", () => {
    const known = new Set([...SERVER_CHECKS.values()].map((c) => c.scenario?.id));
    for (const f of FAULTS) {
      if (SERVER_CHECKS.get(f.id)?.kind === 'oracle') expect(f.shownBy?.length ?? 0, f.id).toBeGreaterThan(0);
      else expect(f.shownBy, f.id).toBeUndefined();
      for (const s of f.shownBy ?? []) expect(known.has(s), `${f.id}: ${s}`).toBe(true);
    }
  });

  for (const fault of FAULTS) {
    const c = SERVER_CHECKS.get(fault.id);
    if (!c) continue;
    it(faultTitle(fault, c), () => expectFaultCaught(fault, c));
  }
});
