// jsonrpc.id-echo over the recording: a second answer to a request is named as such, an answer to
// nothing as an unknown id, and a late answer to a timed-out request is not held against the target.

import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { RunObservations } from '../../suites/kit/observations.js';
import type { Exchange } from '../../suites/ports/session.js';

const idEcho = CHECKS.find((c) => c.id === 'jsonrpc.id-echo')!;
const ctx = { era: 'legacy', version: '2025-11-25', transport: 'stdio', capabilities: {} } as const;
const note = (seq: number, data: Record<string, unknown>): WireEvent => ({ seq, t: seq, dir: 'note', channel: 'stdio', note: 'unmatched-response', raw: '', data, message: { jsonrpc: '2.0', id: data.id, result: {} } });
const run = (events: WireEvent[]): RunObservations => ({ exchanges: [], events, version: '2025-11-25', transport: 'stdio', deliberate: () => false });

describe('jsonrpc.id-echo', () => {
  it('names a second answer to an answered request, and quotes it without an "expected undefined"', () => {
    const j = idEcho.judge(run([note(5, { id: 1, late: false, again: true })]), ctx);
    expect(j.outcome).toBe('violated');
    expect(j.message).toMatch(/first: a second response with id 1 \(its request was answered already\): \{"jsonrpc":"2.0","id":1,"result":\{\}\}/);
    expect(j.message).not.toMatch(/undefined/);
  });

  it('names an answer to no request as an unknown id', () => {
    const j = idEcho.judge(run([note(5, { id: 7, late: false })]), ctx);
    expect(j.outcome).toBe('violated');
    expect(j.message).toMatch(/first: a response whose id matches no request mcpspec sent/);
  });

  it('HTTP: a response with another id on the answer to a POST is a changed id; the matching one is not', () => {
    const sent = { jsonrpc: '2.0', id: 5, method: 'tools/list' };
    const other = { jsonrpc: '2.0', id: 6, result: { tools: [] } };
    const own = { jsonrpc: '2.0', id: 5, result: { tools: [] } };
    const ex = (messages: unknown[], response?: unknown): Exchange => ({ request: sent, id: 5, method: 'tools/list', messages, ...(response ? { response } : {}), timedOut: !response, http: { status: 200, headers: {}, contentType: 'text/event-stream', body: '' }, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [3] });
    const wrong = idEcho.judge({ ...run([]), exchanges: [ex([other])] }, ctx);
    expect(wrong.outcome).toBe('violated');
    expect(wrong.message).toMatch(/a response with id 6 on the HTTP answer to id 5: expected 5, got 6/);
    expect(idEcho.judge({ ...run([]), exchanges: [ex([own], own)] }, ctx).outcome).toBe('holds');
    // stdio exchanges hold only what was matched to them: nothing else is read there
    const { http: _http, ...stdio } = ex([other]);
    expect(idEcho.judge({ ...run([]), exchanges: [stdio] }, ctx).outcome).toBe('untestable');
  });

  it('does not count a late answer to a timed-out request', () => {
    expect(idEcho.judge(run([note(5, { id: 7, late: true })]), ctx).outcome).toBe('untestable');
  });
});
