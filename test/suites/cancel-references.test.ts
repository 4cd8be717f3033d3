// cancel.server-references (CN-01): which cancellations from a legacy server name a request of its own.
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { JudgeContext } from '../../suites/check.js';
import type { RunObservations } from '../../suites/observations.js';

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
