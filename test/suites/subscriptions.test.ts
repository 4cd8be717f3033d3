import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { RunObservations } from '../../suites/kit/observations.js';
import type { Exchange } from '../../suites/ports/session.js';
import { covers } from '../../suites/subscriptions/checks.js';

// The judgements of subscription delivery on hand-made recordings: what counts as a server's own end
// of a listen (SB-08) and how it is judged; which update uris belong to a subscription.
const SUB = 'io.modelcontextprotocol/subscriptionId';
const serverEnd = CHECKS.find((c) => c.id === 'subscriptions.server-end')!;
const ctx = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} } as const;

function recording(messages: ['in' | 'out', Record<string, unknown>][], exchanges: Exchange[] = []): RunObservations {
  const events: WireEvent[] = messages.map(([dir, message], i) => ({ seq: i + 1, t: i, dir, channel: 'stdio', raw: JSON.stringify(message), message, kind: 'message' }));
  return { exchanges, events, version: '2026-07-28', transport: 'stdio', deliberate: () => false };
}

const listen = (id: string): ['out', Record<string, unknown>] => ['out', { jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: {} } }];
const ack = (id: string): ['in', Record<string, unknown>] => ['in', { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { [SUB]: id }, notifications: {} } }];
const cancelled = (dir: 'in' | 'out', id: string): [typeof dir, Record<string, unknown>] => [dir, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }];
const answer = (id: string, body: Record<string, unknown>): ['in', Record<string, unknown>] => ['in', { jsonrpc: '2.0', id, ...body }];
const judge = (obs: RunObservations) => serverEnd.judge(obs, ctx);

describe('subscriptions.server-end (SB-08)', () => {
  it('passes the completion result, or a notifications/cancelled naming the listen', () => {
    expect(judge(recording([listen('L'), ack('L'), answer('L', { result: { resultType: 'complete', _meta: { [SUB]: 'L' } } })])).outcome).toBe('holds');
    expect(judge(recording([listen('L'), ack('L'), cancelled('in', 'L')])).outcome).toBe('holds');
  });

  it('flags a wrong completion result, an error after the acknowledgement, and an HTTP stream closed without either', () => {
    const wrong = judge(recording([listen('L'), ack('L'), answer('L', { result: { resultType: 'complete', _meta: { [SUB]: 1 }, extra: true } })]));
    expect(wrong.outcome).toBe('violated');
    expect(wrong.message).toMatch(/is 1, not "L".*carries extra/);
    expect(judge(recording([listen('L'), ack('L'), answer('L', { error: { code: -32603, message: 'shutting down' } })])).message).toMatch(/error \(-32603\)/);
    const closed = { id: 'L', method: 'subscriptions/listen', request: {}, messages: [], timedOut: false, streamBroken: true, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1, 2] } as Exchange;
    expect(judge(recording([listen('L'), ack('L')], [closed])).message).toMatch(/abrupt/);
  });

  it('is untestable when mcpspec ended every listen itself, or a listen was refused before any acknowledgement', () => {
    expect(judge(recording([listen('L'), ack('L'), cancelled('out', 'L')])).outcome).toBe('untestable');
    // A late answer after mcpspec's own cancellation is not the server ending it.
    expect(judge(recording([listen('L'), ack('L'), cancelled('out', 'L'), answer('L', { result: { resultType: 'complete', _meta: { [SUB]: 'L' } } })])).outcome).toBe('untestable');
    expect(judge(recording([listen('L'), answer('L', { error: { code: -32603, message: 'Subscription limit reached' } })])).outcome).toBe('untestable');
  });
});

describe('covers: an update belongs to a subscription for its uri or a parent of it', () => {
  it('accepts the uri and sub-resources, not a longer name', () => {
    expect(covers('file:///project', 'file:///project')).toBe(true);
    expect(covers('file:///project', 'file:///project/src/main.rs')).toBe(true);
    expect(covers('file:///project/', 'file:///project/a')).toBe(true);
    expect(covers('mcpspec://reference/readme', 'mcpspec://reference/readme#top')).toBe(true);
    expect(covers('file:///project', 'file:///project2')).toBe(false);
    expect(covers('file:///project', undefined)).toBe(false);
  });
});
