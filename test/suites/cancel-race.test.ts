import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveCount } from '../../runner/reaper.js';
import { runServerSuite } from '../../runner/run-server.js';
import { CHECKS } from '../../suites/catalogue.js';
import { REFERENCE_OPTIONS } from './run-reference.js';

// A reader that takes a call's first progress and its response in one read (a stalled mcpspec, or a
// busy machine) never saw the call in flight: the cancellation sent then raced the response. That is
// timing, not a verdict: neither the scenario's check nor the oracle of cancelled calls may pass or
// fail on it, and the scenario tries again (here every attempt races the same way).
describe('a cancellation that races the response (progress and response read together)', () => {
  it('is not judged: cancel.modern-silent and cancel.modern-no-late-answer are untestable', async () => {
    const ids = new Set(['cancel.modern-silent', 'cancel.modern-no-late-answer']);
    const run = await runServerSuite(
      { kind: 'stdio', command: process.execPath, args: [resolve('test/helpers/coalescing-server.mjs'), resolve('dist/fixtures/servers/reference/main.js')] },
      { ...REFERENCE_OPTIONS, specVersion: '2026-07-28', deadlineMs: 60_000, env: { set: { MCPSPEC_REFERENCE_SLOW_MS: '300' } }, checks: CHECKS.filter((c) => ids.has(c.id)) },
    );
    const byId = Object.fromEntries(run.checks.map((c) => [c.id, c]));
    expect(byId['cancel.modern-silent']).toMatchObject({ status: 'untestable' });
    expect(byId['cancel.modern-silent'].message).toContain('every call cancelled at its first progress');
    expect(byId['cancel.modern-no-late-answer']).toMatchObject({ status: 'untestable' });
    // Three attempts, each cancelled after its response was read.
    const cancels = run.recording.events().filter((e) => e.dir === 'out' && (e.message as { method?: string } | undefined)?.method === 'notifications/cancelled');
    expect(cancels.length).toBeGreaterThanOrEqual(3);
    expect(liveCount()).toBe(0);
  });
});
