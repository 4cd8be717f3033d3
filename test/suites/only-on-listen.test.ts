import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';
import type { RunObservations } from '../../suites/kit/observations.js';
import type { WireEvent } from '../../results/wire.js';

const oracle = CHECKS.find((c) => c.id === 'subscriptions.only-on-listen')!;
const SID = 'io.modelcontextprotocol/subscriptionId';
const changed = (sid?: string) => ({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', ...(sid ? { params: { _meta: { [SID]: sid } } } : {}) });
const META = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
const ex = (method: string, id: string, seq: number, messages: unknown[] = [], legacy = false): Exchange => ({ id, method, request: { jsonrpc: '2.0', id, method, ...(legacy ? {} : { params: META }) }, messages, timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 1, seq: [seq] });
const ev = (seq: number, dir: 'in' | 'out', message: unknown, source: string) => ({ seq, dir, kind: 'message', channel: 'stdio', raw: '', message, source, at: 0 }) as unknown as WireEvent;
const judge = (o: Omit<RunObservations, 'version' | 'deliberate'>) => oracle.judge({ ...o, version: '2026-07-28', deliberate: () => false }, { era: 'modern', version: '2026-07-28', transport: o.transport, capabilities: {} });

describe('subscriptions.only-on-listen (SB-02, HM-15)', () => {
  it('HTTP: a change notification on any answer but a listen\'s is stray', () => {
    const listen = ex('subscriptions/listen', 'l', 1, [changed('l')]);
    const call = ex('tools/call', 'c', 3, [changed(), { jsonrpc: '2.0', id: 'c', result: {} }]);
    const events = [ev(2, 'in', changed('l'), 'a'), ev(4, 'in', changed(), 'b')];
    expect(judge({ exchanges: [listen], events: events.slice(0, 1), transport: 'http' }).outcome).toBe('holds');
    expect(judge({ exchanges: [listen, call], events, transport: 'http' })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('on the answer to tools/call') });
  });

  it('stdio: stray when it names no listen of the run, or comes untagged where no listen was sent', () => {
    const listen = ex('subscriptions/listen', 'l', 1);
    const sent = ev(1, 'out', listen.request, 'subs');
    expect(judge({ exchanges: [listen], events: [sent, ev(2, 'in', changed('l'), 'subs')], transport: 'stdio' }).outcome).toBe('holds');
    // Untagged beside an open listen: subscriptions.ids judges that, not this oracle.
    expect(judge({ exchanges: [listen], events: [sent, ev(2, 'in', changed(), 'subs')], transport: 'stdio' }).outcome).toBe('holds');
    expect(judge({ exchanges: [listen], events: [sent, ev(2, 'in', changed('x'), 'subs')], transport: 'stdio' })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('"x"') });
    expect(judge({ exchanges: [listen], events: [sent, ev(5, 'in', changed(), 'tools')], transport: 'stdio' })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no subscription open') });
    expect(judge({ exchanges: [], events: [], transport: 'stdio' }).outcome).toBe('untestable');
  });

  it('a dual-era server\'s legacy session (opened to probe versions) sends list changes the legacy way: not judged here', () => {
    const legacyCall = ex('tools/list', 'c', 3, [changed(), { jsonrpc: '2.0', id: 'c', result: {} }], true);
    expect(judge({ exchanges: [legacyCall], events: [ev(4, 'in', changed(), 'b')], transport: 'http' }).outcome).toBe('untestable');
    const init = ev(1, 'out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, 'version.initialize');
    expect(judge({ exchanges: [], events: [init, ev(3, 'in', changed(), 'version.initialize')], transport: 'stdio' }).outcome).toBe('untestable');
    // The same notification on a connection that never sent initialize is stray.
    expect(judge({ exchanges: [], events: [init, ev(3, 'in', changed(), 'tools')], transport: 'stdio' }).outcome).toBe('violated');
  });
});
