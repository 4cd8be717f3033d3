import { describe, expect, it } from 'vitest';
import { catalogue } from '../../suites/catalogue.js';
import { runReference, type Version } from './run-reference.js';

// The reference fixture is correct: on every version and transport, every applicable check must
// pass on real evidence: no fail, no warning, and no skip or untestable (that would be vacuous).
describe('the reference fixture without faults', () => {
  for (const version of ['2026-07-28', '2025-11-25', '2025-06-18'] as Version[]) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`passes every applicable check, none vacuously (${version}, ${transport})`, async () => {
        const run = await runReference(transport, version);
        const notPassed = run.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status}: ${c.message}`);
        expect(notPassed).toEqual([]);
        const applicable = catalogue(version).filter((c) => c.role === 'server' && (!c.requires.transports || c.requires.transports.includes(transport))).map((c) => c.id).sort();
        expect(run.checks.map((c) => c.id).sort()).toEqual(applicable);
        expect(run.findings.filter((f) => f.kind !== 'note')).toEqual([]);
        expect(run.scenarios.every((s) => s.status === 'judged')).toBe(true);
      });
    }
  }

  it('never calls a destructive tool unless allowed', async () => {
    const run = await runReference('stdio', '2026-07-28');
    const stderr = run.recording.events().filter((e) => e.channel === 'stderr').map((e) => e.raw).join('\n');
    expect(stderr).not.toContain('DESTRUCTIVE TOOL CALLED');
    const calls = run.recording.events().filter((e) => e.dir === 'out' && (e.message as any)?.method === 'tools/call').map((e) => (e.message as any).params.name);
    expect(calls).toContain('echo');
    expect(calls).not.toContain('delete_everything');
  });
});
