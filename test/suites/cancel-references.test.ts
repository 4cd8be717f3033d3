// cancel.server-references (CN-01): which cancellations from a legacy server name a request of its own;
// cancel.modern-server-references (SB-08): a 2026-07-28 server cancels only a listen; cancel.modern-no-late-answer (CN-03).
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { JudgeContext } from '../../suites/kit/check.js';
import type { RunObservations } from '../../suites/kit/observations.js';
import { GAVE_UP_REASON } from '../../suites/ports/session.js';

const check = CHECKS.find((c) => c.id === 'cancel.server-references')!;
const ctx: JudgeContext = { era: 'legacy', version: '2025-11-25', transport: 'stdio', capabilities: {} };
let seq = 0;
/** dir 'in': from the server under test; 'out': from mcpspec. */
const ev = (dir: 'in' | 'out', message: Record<string, unknown>): WireEvent => ({ seq: ++seq, t: seq, dir, channel: 'stdio', raw: '', kind: 'message', message: { jsonrpc: '2.0', ...message } });
const cancel = (requestId: unknown) => ev('in', { method: 'notifications/cancelled', params: { requestId } });
const obs = (events: WireEvent[]): RunObservations => ({ exchanges: [], events, version: '2025-11-25', transport: 'stdio', deliberate: () => false });

describe('cancel.server-references', () => {
  it('no cancellation from the server: untestable', () => {
    expect(check.judge(obs([ev('out', { id: 1, method: 'tools/call' })]), ctx).outcome).toBe('untestable');
  });

  it('cancelling its own earlier request holds', () => {
    expect(check.judge(obs([ev('out', { id: 1, method: 'tools/call' }), ev('in', { id: 'ask-1', method: 'elicitation/create' }), cancel('ask-1')]), ctx).outcome).toBe('holds');
  });

  it("naming mcpspec's request (the other direction) or an id nobody sent violates; a cancellation before the request does not count", () => {
    expect(check.judge(obs([ev('out', { id: 1, method: 'tools/call' }), cancel(1)]), ctx)).toMatchObject({ outcome: 'violated', message: expect.stringContaining("mcpspec's tools/call") });
    expect(check.judge(obs([cancel('nobody')]), ctx)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('sent no request') });
    expect(check.judge(obs([cancel('ask-2'), ev('in', { id: 'ask-2', method: 'roots/list' })]), ctx).outcome).toBe('violated');
  });
});

describe('cancel.modern-server-references', () => {
  const check = CHECKS.find((c) => c.id === 'cancel.modern-server-references')!;
  const modern: JudgeContext = { ...ctx, era: 'modern', version: '2026-07-28' };
  const mobs = (events: WireEvent[]): RunObservations => ({ ...obs(events), version: '2026-07-28' });

  it('ending a listen of the client holds', () => {
    expect(check.judge(mobs([ev('out', { id: 'l1', method: 'subscriptions/listen' }), cancel('l1')]), modern).outcome).toBe('holds');
  });

  it("naming mcpspec's tools/call, or anything else, violates", () => {
    expect(check.judge(mobs([ev('out', { id: 1, method: 'tools/call' }), ev('in', { id: 1, result: {} }), cancel(1)]), modern)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('only a subscriptions/listen') });
    expect(check.judge(mobs([cancel('x')]), modern)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no request mcpspec sent') });
  });

  it('over Streamable HTTP any cancellation from the server violates; none among its messages holds', () => {
    const http: JudgeContext = { ...modern, transport: 'http' };
    expect(check.judge(mobs([ev('out', { id: 'l1', method: 'subscriptions/listen' }), cancel('l1')]), http)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('over Streamable HTTP') });
    expect(check.judge(mobs([ev('out', { id: 1, method: 'tools/list' }), ev('in', { id: 1, result: { tools: [] } })]), http).outcome).toBe('holds');
    expect(check.judge(mobs([ev('out', { id: 1, method: 'tools/list' })]), http).outcome).toBe('untestable');
  });

  it('a listen on another connection with the same id does not excuse it', () => {
    const listen = { ...ev('out', { id: 7, method: 'subscriptions/listen' }), source: 'a' };
    expect(check.judge(mobs([listen, { ...cancel(7), source: 'b' }]), modern).outcome).toBe('violated');
  });
});

describe('cancel.modern-no-late-answer', () => {
  const late = CHECKS.find((c) => c.id === 'cancel.modern-no-late-answer')!;
  const modern: JudgeContext = { ...ctx, era: 'modern', version: '2026-07-28' };
  const mobs = (events: WireEvent[]): RunObservations => ({ ...obs(events), version: '2026-07-28' });
  const mine = (requestId: unknown) => ev('out', { method: 'notifications/cancelled', params: { requestId } });
  const judge = (events: WireEvent[]) => late.judge(mobs(events), modern);

  it('nothing cancelled, or only a listen, or a request already answered: untestable', () => {
    expect(judge([ev('out', { id: 1, method: 'tools/call' }), ev('in', { id: 1, result: {} })]).outcome).toBe('untestable');
    expect(judge([ev('out', { id: 'l', method: 'subscriptions/listen' }), mine('l'), ev('in', { id: 'l', error: { code: -32800, message: 'cancelled' } })]).outcome).toBe('untestable');
    expect(judge([ev('out', { id: 1, method: 'tools/call' }), ev('in', { id: 1, result: {} }), mine(1)]).outcome).toBe('untestable');
  });

  it('no answer after the cancellation holds; a plain answer right behind it is a race, tolerated', () => {
    expect(judge([ev('out', { id: 1, method: 'tools/call' }), mine(1)]).outcome).toBe('holds');
    expect(judge([ev('out', { id: 1, method: 'tools/call' }), mine(1), ev('in', { id: 1, result: { content: [] } })]).outcome).toBe('holds');
  });

  it('an answer saying the request was cancelled violates (-32800, or "cancelled" in the message)', () => {
    expect(judge([ev('out', { id: 1, method: 'tools/call' }), mine(1), ev('in', { id: 1, error: { code: -32800, message: 'x' } })])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('saying it was cancelled') });
    expect(judge([ev('out', { id: 1, method: 'tools/call' }), mine(1), ev('in', { id: 1, error: { code: 0, message: 'Request cancelled' } })]).outcome).toBe('violated');
    expect(judge([ev('out', { id: 1, method: 'tools/call' }), mine(1), ev('in', { id: 1, error: { code: -32603, message: 'boom' } })]).outcome).toBe('holds');
  });

  it('an answer behind the answer to a request sent after the cancellation violates', () => {
    const events = [ev('out', { id: 1, method: 'tools/call' }), mine(1), ev('out', { id: 2, method: 'ping' }), ev('in', { id: 2, result: {} }), ev('in', { id: 1, result: { content: [] } })];
    expect(judge(events)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('after the server had answered a request sent after the cancellation') });
    // The later request answered after the cancelled one proves nothing.
    expect(judge([ev('out', { id: 1, method: 'tools/call' }), mine(1), ev('out', { id: 2, method: 'ping' }), ev('in', { id: 1, result: {} }), ev('in', { id: 2, result: {} })]).outcome).toBe('holds');
  });

  it('the same id sent again after the cancellation: its answer is the new request\'s', () => {
    const events = [ev('out', { id: 1, method: 'tools/call' }), mine(1), ev('out', { id: 2, method: 'ping' }), ev('in', { id: 2, result: {} }), ev('out', { id: 1, method: 'tools/list' }), ev('in', { id: 1, result: { tools: [] } })];
    expect(judge(events).outcome).toBe('holds');
  });
});

describe('cancellations of requests mcpspec gave up on (stragglers) are not judged: a slow enough run makes them', () => {
  const gaveUp = (requestId: unknown) => ev('out', { method: 'notifications/cancelled', params: { requestId, reason: GAVE_UP_REASON } });
  for (const id of ['cancel.modern-no-late-answer', 'cancel.legacy-no-late-answer']) {
    it(id, () => {
      const c = CHECKS.find((x) => x.id === id)!;
      const jctx: JudgeContext = id.includes('modern') ? { ...ctx, era: 'modern', version: '2026-07-28' } : ctx;
      const o = (events: WireEvent[]): RunObservations => ({ ...obs(events), version: jctx.version });
      const answered = [ev('out', { id: 1, method: 'tools/call' }), gaveUp(1), ev('in', { id: 1, error: { code: -32800, message: 'Request cancelled' } })];
      expect(c.judge(o(answered), jctx).outcome).toBe('untestable');
    });
  }
});

describe('cancel.legacy-no-late-answer', () => {
  const late = CHECKS.find((c) => c.id === 'cancel.legacy-no-late-answer')!;
  const mine = (requestId: unknown) => ev('out', { method: 'notifications/cancelled', params: { requestId } });
  const laterPing = () => [ev('out', { id: 2, method: 'ping' }), ev('in', { id: 2, result: {} })];

  it('an answer saying it was cancelled violates on either transport', () => {
    const events = [ev('out', { id: 1, method: 'tools/call' }), mine(1), ev('in', { id: 1, error: { code: -32800, message: 'Request cancelled' } })];
    expect(late.judge(obs(events), ctx).outcome).toBe('violated');
    expect(late.judge(obs(events), { ...ctx, transport: 'http' }).outcome).toBe('violated');
  });

  it('a plain answer, even behind a later one, is allowed: a receiver may ignore what it cannot cancel (CN-04)', () => {
    const events = [ev('out', { id: 1, method: 'tools/call' }), mine(1), ...laterPing(), ev('in', { id: 1, result: { content: [] } })];
    expect(late.judge(obs(events), ctx).outcome).toBe('holds');
    expect(late.judge(obs(events), { ...ctx, transport: 'http' }).outcome).toBe('holds');
  });
});
