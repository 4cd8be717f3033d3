import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveCount } from '../../runner/reaper.js';
import { runServerSuite } from '../../runner/run-server.js';
import { CHECKS } from '../../suites/catalogue.js';
import { REFERENCE_OPTIONS } from './run-reference.js';

// A target that stops answering is declared hung once, with the last message sent; the scenario is
// cut short (its checks untestable, not failed), other scenarios go on with fresh processes, and the
// run stays within its deadline.
describe('a server that stops answering', () => {
  it('is reported as one hang, and the rest of the run goes on', async () => {
    const t0 = Date.now();
    const run = await runServerSuite(
      { kind: 'stdio', command: process.execPath, args: [resolve('test/helpers/stalling-server.mjs'), resolve('dist/fixtures/servers/reference/main.js')] },
      { ...REFERENCE_OPTIONS, specVersion: '2026-07-28', timeoutMs: 4000, deadlineMs: 90_000 },
    );
    // One hang per run, blamed on whichever tool-calling scenario stalled first (several run side by
    // side); on a very busy machine a freshly started process may also miss its handshake allowance.
    const stalls = new Set(['tools', 'capable-client', 'logging', 'tasks-modern', 'subscriptions', 'tools-change', 'prompts-change', 'cancel-modern']);
    const hangs = run.findings.filter((f) => f.kind === 'hang' && stalls.has(f.scenario ?? ''));
    expect(hangs).toHaveLength(1);
    expect(hangs[0].lastSent).toContain('tools/call');
    // The same hang is robustness.keeps-answering's verdict (as it is in a fuzz campaign).
    expect(run.checks.find((c) => c.id === 'robustness.keeps-answering')?.status).toBe('fail');
    // (tools.x-mcp-header, an oracle over every tools/list answer, still judges the listings answered before the stall.)
    const tools = run.checks.filter((c) => c.area === 'tools' && c.scenario === 'tools');
    expect(tools.every((c) => c.status === 'untestable'), JSON.stringify(tools.map((c) => [c.id, c.status, c.message]))).toBe(true);
    expect(run.scenarios.find((s) => s.id === 'tools')).toMatchObject({ status: 'aborted' });
    // Everything else was judged on healthy processes. The other scenarios that call tools stall the
    // same way and are cut short (their checks untestable), and the input_required and task oracles
    // see none (nor the oracles of subscriptions the server ends: the fixture ends only task listens, on
    // stdio with notifications/cancelled; nor the oracle of calls mcpspec cancelled, nor the one of the
    // form elicitations those calls would have asked for).
    const throughStalledCalls = new Set(['subscriptions.server-end', 'cancel.modern-server-references', 'cancel.modern-no-late-answer', 'elicitation.form-no-secrets']);
    const cutShort = (c: { scenario: string; area: string; status: string; id: string }) => c.status === 'untestable' && (stalls.has(c.scenario) || c.area === 'mrtr' || (c.scenario === 'run' && c.area === 'tasks') || (c.scenario === 'run' && throughStalledCalls.has(c.id)));
    // (version.initialize-names-versions is a skip on this dual-era fixture: it serves initialize.)
    const others = run.checks.filter((c) => c.area !== 'tools' && c.id !== 'robustness.keeps-answering' && c.status !== 'pass' && !cutShort(c) && !(c.id === 'version.initialize-names-versions' && c.status === 'skip'));
    expect(others.map((c) => `${c.id}: ${c.status}: ${c.message}`)).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(liveCount()).toBe(0);
  });
});

// The fence is ping on a legacy connection; a server that ignores only ping answers the unknown method
// sent beside the fence, so it is judged (lifecycle.ping fails) and never declared hung.
describe('a server that never answers ping but answers everything else', () => {
  it('fails lifecycle.ping and gets no hang finding', async () => {
    const run = await runServerSuite(
      { kind: 'stdio', command: process.execPath, args: [resolve('test/helpers/no-ping-server.mjs'), resolve('dist/fixtures/servers/reference/main.js')] },
      { ...REFERENCE_OPTIONS, specVersion: '2025-11-25', timeoutMs: 1500, deadlineMs: 60_000, checks: CHECKS.filter((c) => c.id === 'lifecycle.ping' || c.id === 'tools.names') },
    );
    expect(run.findings.filter((f) => f.kind === 'hang')).toEqual([]);
    const status = Object.fromEntries(run.checks.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({ 'lifecycle.ping': 'fail', 'tools.names': 'pass' });
    expect(run.checks.find((c) => c.id === 'lifecycle.ping')!.message).toContain('no answer within the 1500 ms timeout');
    expect(liveCount()).toBe(0);
  });
});
