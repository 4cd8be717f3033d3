import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';

const check = CHECKS.find((c) => c.id === 'jsonrpc.answers-requests')!;

function sent(id: number, method: string, startedAt: number, answered: boolean, params: Record<string, unknown> = {}): Exchange {
  const request = { jsonrpc: '2.0', id, method, params };
  return {
    id, method, request, messages: [], timedOut: !answered, elapsedMs: answered ? 10 : 1000, startedAt, timeoutMs: 1000, seq: [id],
    ...(answered ? { response: { jsonrpc: '2.0', id, result: {} } } : {}),
  };
}

describe('jsonrpc.answers-requests evidence', () => {
  it('shows each kind of silence (method, and a request broken on purpose or not) before repeats', () => {
    const broken = [1, 2, 3, 4, 5].map((i) => sent(i, 'tools/list', i, false, { cursor: 7 }));
    const plain = sent(6, 'tools/list', 6, false);
    const later = sent(7, 'ping', 100, true);
    const exchanges = [...broken, plain, later];
    const events = exchanges.map((ex) => ({ seq: ex.seq[0], t: 0, dir: 'out', channel: 'stdio', raw: '', source: 's' })) as WireEvent[];
    const j = check.judge({ exchanges, events, deliberate: (ex: Exchange) => broken.includes(ex) } as never, { era: 'legacy', version: '2025-11-25', transport: 'stdio', capabilities: {} });
    expect(j.outcome).toBe('violated');
    const whats = (j as { evidence: { what: string }[] }).evidence.map((e) => e.what);
    expect(whats.slice(0, 2)).toEqual(['tools/list (a request broken on purpose): no response within 1000 ms', 'tools/list: no response within 1000 ms']);
  });
});

describe('jsonrpc.answers-requests: an answer after the timeout is an answer', () => {
  const ctx = { era: 'legacy', version: '2025-11-25', transport: 'stdio', capabilities: {} } as const;
  const slow = sent(1, 'resources/read', 0, false);
  const later = sent(2, 'ping', 100, true);
  const out = [slow, later].map((ex) => ({ seq: ex.seq[0], t: 0, dir: 'out', channel: 'stdio', raw: '', source: 's' })) as WireEvent[];
  const judge = (events: WireEvent[]) => check.judge({ exchanges: [slow, later], events, deliberate: () => false } as never, ctx).outcome;

  it('silent for its whole timeout while a later request was answered, and never answered: violated', () => {
    expect(judge(out)).toBe('violated');
  });

  it('the same request answered late (a slow read on a loaded machine): holds', () => {
    const late = { seq: 9, t: 0, dir: 'in', channel: 'stdio', raw: '', kind: 'message', source: 's', message: { jsonrpc: '2.0', id: 1, result: { contents: [] } } } as WireEvent;
    expect(judge([...out, late])).toBe('holds');
  });
});
