import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';
import type { HttpObs } from '../../suites/transports/http/scenario.js';

const judge = (id: string, obs: Partial<HttpObs>) =>
  CHECKS.find((c) => c.id === id)!.judge(obs, { era: id === 'http.get-stream' ? 'legacy' : 'modern', version: id === 'http.get-stream' ? '2025-11-25' : '2026-07-28', transport: 'http', capabilities: {} });

/** An HTTP exchange that got `status` (and a JSON-RPC result when `result` is given). */
function got(status: number, extra: { contentType?: string; headers?: Record<string, string>; result?: unknown; error?: unknown } = {}): Exchange {
  const response = extra.result !== undefined ? { jsonrpc: '2.0', id: 1, result: extra.result } : extra.error !== undefined ? { jsonrpc: '2.0', id: 1, error: extra.error } : undefined;
  return {
    id: 1, method: 'server/discover', request: {}, response, messages: response ? [response] : [], timedOut: false, elapsedMs: 2, startedAt: 0, timeoutMs: 10_000, seq: [1, 2],
    http: { status, headers: extra.headers ?? {}, body: '', ...(extra.contentType ? { contentType: extra.contentType } : {}) },
  };
}

describe('http.get-stream (HL-05)', () => {
  it('an SSE stream or 405 holds; anything else is a failure; no answer is untestable', () => {
    expect(judge('http.get-stream', { getStream: got(405) }).outcome).toBe('holds');
    expect(judge('http.get-stream', { getStream: got(200, { contentType: 'text/event-stream; charset=utf-8' }) }).outcome).toBe('holds');
    expect(judge('http.get-stream', { getStream: got(200, { contentType: 'application/json' }) }).outcome).toBe('violated');
    expect(judge('http.get-stream', { getStream: got(404) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP 404') });
    expect(judge('http.get-stream', { getStream: { ...got(0), http: undefined, timedOut: true } }).outcome).toBe('untestable');
  });
});

describe('http.modern-only-legacy-traffic (HM-14)', () => {
  const fine = { get: got(405), del: got(405), withSessionId: got(200, { result: { supportedVersions: ['2026-07-28'] } }) };
  it('applies only to a server whose server/discover lists no earlier version', () => {
    expect(judge('http.modern-only-legacy-traffic', { supportedVersions: ['2026-07-28', '2025-11-25'] })).toMatchObject({ outcome: 'skip', message: expect.stringContaining('2025-11-25') });
    expect(judge('http.modern-only-legacy-traffic', { supportedVersions: undefined }).outcome).toBe('untestable');
    expect(judge('http.modern-only-legacy-traffic', { supportedVersions: ['2026-07-28'], legacyTraffic: fine }).outcome).toBe('holds');
  });

  it('names each departure: a GET or DELETE not refused with 405, a stale session id refused or echoed', () => {
    const v = judge('http.modern-only-legacy-traffic', {
      supportedVersions: ['2026-07-28'],
      legacyTraffic: { get: got(200, { contentType: 'text/event-stream' }), del: got(404), withSessionId: got(404, { error: { code: -32600, message: 'Unknown session' } }) },
    });
    expect(v).toMatchObject({ outcome: 'violated' });
    expect(v.message).toMatch(/GET got HTTP 200.*DELETE got HTTP 404.*unknown Mcp-Session-Id and Last-Event-ID got/);
    const echoed = judge('http.modern-only-legacy-traffic', { supportedVersions: ['2026-07-28'], legacyTraffic: { ...fine, withSessionId: got(200, { result: {}, headers: { 'mcp-session-id': 'abc' } }) } });
    expect(echoed).toMatchObject({ outcome: 'violated', message: expect.stringContaining('carries Mcp-Session-Id abc') });
    const silent = judge('http.modern-only-legacy-traffic', { supportedVersions: ['2026-07-28'], legacyTraffic: { ...fine, del: { ...got(0), http: undefined, timedOut: true } } });
    expect(silent.outcome).toBe('untestable');
  });
});

describe('http.sse-unbuffered (HM-04)', () => {
  const oracle = CHECKS.find((c) => c.id === 'http.sse-unbuffered')!;
  const run = (exchanges: Exchange[]) => oracle.judge({ exchanges, events: [], version: '2026-07-28', transport: 'http', deliberate: () => false }, { era: 'modern', version: '2026-07-28', transport: 'http', capabilities: {} });
  it('judges SSE answers only, and accepts the value in any case', () => {
    expect(run([got(200, { contentType: 'application/json' })]).outcome).toBe('untestable');
    expect(run([got(200, { contentType: 'text/event-stream', headers: { 'x-accel-buffering': 'No' } })]).outcome).toBe('holds');
    expect(run([got(200, { contentType: 'text/event-stream', headers: { 'x-accel-buffering': 'no' } }), got(200, { contentType: 'text/event-stream' })])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('1 of 2 SSE responses') });
  });
});

describe('http.event-ids-unique (HL-06)', () => {
  const oracle = CHECKS.find((c) => c.id === 'http.event-ids-unique')!;
  /** An SSE answer sent with session `sid`, carrying event ids `ids`. */
  const stream = (seq: number, sid: string | undefined, ids: string[]): [Exchange, unknown] => [
    { ...got(200, { contentType: 'text/event-stream' }), seq: [seq], http: { status: 200, headers: {}, body: '', contentType: 'text/event-stream', eventIds: ids } },
    { seq, dir: 'out', http: { method: 'POST', headers: sid ? { 'Mcp-Session-Id': sid } : {} } },
  ];
  const run = (...s: [Exchange, unknown][]) =>
    oracle.judge({ exchanges: s.map(([e]) => e), events: s.map(([, e]) => e) as never, version: '2025-11-25', transport: 'http', deliberate: () => false }, { era: 'legacy', version: '2025-11-25', transport: 'http', capabilities: {} });
  it('ids may repeat across sessions, never within one (or within a sessionless client)', () => {
    expect(run(stream(1, 'a', ['1', '2']), stream(3, 'b', ['1', '2'])).outcome).toBe('holds');
    expect(run(stream(1, 'a', ['1', '2']), stream(3, 'a', ['3', '1']))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('"1"') });
    expect(run(stream(1, undefined, ['x']), stream(3, undefined, ['x'])).outcome).toBe('violated');
    expect(run([{ ...got(200, { contentType: 'application/json' }) }, {}]).outcome).toBe('untestable');
  });
});

describe('http.sse-priming (HL-04) and http.sse-ends-after-response (HL-04, HM-04)', () => {
  const judgeOracle = (id: string, exchanges: Exchange[]) =>
    CHECKS.find((c) => c.id === id)!.judge({ exchanges, events: [], version: '2025-11-25', transport: 'http', deliberate: () => false }, { era: 'legacy', version: '2025-11-25', transport: 'http', capabilities: {} });
  const stream = (facts: { ssePrimed?: boolean; sseAfterAnswer?: 'ended' | 'open'; eventIds?: string[] }): Exchange => {
    const ex = got(200, { contentType: 'text/event-stream' });
    return { ...ex, http: { ...ex.http!, ...facts } };
  };
  it('priming: every SSE answer with an event starts with an id and empty data; JSON answers are not judged', () => {
    expect(judgeOracle('http.sse-priming', [got(200, { contentType: 'application/json' })]).outcome).toBe('untestable');
    expect(judgeOracle('http.sse-priming', [stream({ ssePrimed: true, eventIds: ['1', '2'] })]).outcome).toBe('holds');
    // initialize's stream: the version that asks for priming is not agreed yet.
    expect(judgeOracle('http.sse-priming', [{ ...stream({ ssePrimed: false }), method: 'initialize' }]).outcome).toBe('untestable');
    expect(judgeOracle('http.sse-priming', [stream({ ssePrimed: true }), stream({ ssePrimed: false, eventIds: ['7'] })])).toMatchObject({
      outcome: 'violated',
      message: expect.stringContaining('1 of 2 SSE answers'),
      evidence: [expect.objectContaining({ actual: expect.stringContaining('event ids 7') })],
    });
  });
  it('stream end: only a stream seen open at its request timeout counts against the server; an unknown end is not judged', () => {
    expect(judgeOracle('http.sse-ends-after-response', [stream({})]).outcome).toBe('untestable');
    expect(judgeOracle('http.sse-ends-after-response', [stream({ sseAfterAnswer: 'ended' }), stream({})])).toMatchObject({ outcome: 'holds', message: expect.stringContaining('1 SSE answers') });
    expect(judgeOracle('http.sse-ends-after-response', [stream({ sseAfterAnswer: 'ended' }), stream({ sseAfterAnswer: 'open' })])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('1 of 2') });
  });
});

describe('http.sse-retry (HL-04)', () => {
  const oracle = CHECKS.find((c) => c.id === 'http.sse-retry')!;
  const polled = (id: string, resumed: { afterEventId: string; retryMs?: number }[]): Exchange => {
    const ex = got(200, { contentType: 'text/event-stream' });
    return { ...ex, id, http: { ...ex.http!, resumed } };
  };
  const cancel = (requestId: string) => ({ seq: 9, dir: 'out', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } } });
  const run = (exchanges: Exchange[], events: unknown[] = []) =>
    oracle.judge({ exchanges, events: events as never, version: '2025-11-25', transport: 'http', deliberate: () => false }, { era: 'legacy', version: '2025-11-25', transport: 'http', capabilities: {} });
  it('judges streams closed before their response: each must have named a retry delay', () => {
    expect(run([got(200, { contentType: 'text/event-stream' })]).outcome).toBe('untestable');
    expect(run([polled('a', [{ afterEventId: '1', retryMs: 100 }])])).toMatchObject({ outcome: 'holds', message: expect.stringContaining('100 ms') });
    expect(run([polled('a', [{ afterEventId: '1', retryMs: 100 }]), polled('b', [{ afterEventId: '5' }])])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('1 of 2') });
  });
  it('a request mcpspec cancelled is not judged: its stream ending without a response is no polling', () => {
    expect(run([polled('b', [{ afterEventId: '5' }])], [cancel('b')]).outcome).toBe('untestable');
  });
});

describe('asks.on-request-stream (HL-04, HL-05)', () => {
  const c = CHECKS.find((x) => x.id === 'asks.on-request-stream')!;
  const ctx = { era: 'legacy' as const, version: '2025-11-25' as const, transport: 'http' as const, capabilities: {} };
  const ask = { jsonrpc: '2.0', id: 's1', method: 'roots/list' };
  const cancel = (askedOn?: 'get' | 'request') => ({ target: 'tools/call confirm_echo', call: got(200), asked: 'elicitation/create', fences: [], ...(askedOn ? { askedOn } : {}) });
  it('judges only a question the same call asked again: on the call\'s own stream holds, on the GET stream warns', () => {
    expect(c.judge({ calls: [] } as never, ctx).outcome).toBe('untestable');
    // A roots/list that fell inside a call, not asked again when the call was repeated: not known to be the call's.
    expect(c.judge({ calls: [{ target: 'tools/call x', exchange: got(200), asked: [ask] }] } as never, ctx)).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('second time') });
    expect(c.judge({ calls: [], cancel: cancel('request') } as never, ctx).outcome).toBe('holds');
    expect(c.judge({ calls: [], cancel: cancel('get') } as never, ctx)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('standalone GET stream') });
  });
});

describe('http.resume-own-stream (HL-06)', () => {
  const oracle = CHECKS.find((c) => c.id === 'http.resume-own-stream')!;
  const run = (exchanges: Exchange[]) =>
    oracle.judge({ exchanges, events: [], version: '2025-11-25', transport: 'http', deliberate: () => false }, { era: 'legacy', version: '2025-11-25', transport: 'http', capabilities: {} });
  const resumed = (foreignIds?: (string | number)[]): Exchange => {
    const ex = got(200, { contentType: 'text/event-stream', result: {} });
    return { ...ex, http: { ...ex.http!, resumed: [{ afterEventId: '4', retryMs: 100, ...(foreignIds ? { foreignIds } : {}) }] } };
  };
  it('judges resumed streams only; a response to another request on one fails', () => {
    expect(run([got(200, { contentType: 'text/event-stream' })]).outcome).toBe('untestable');
    expect(run([resumed()]).outcome).toBe('holds');
    expect(run([resumed(), resumed([7])])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('ids 7') });
  });
});

describe('http.resume-delivers (HL-04)', () => {
  const oracle = CHECKS.find((c) => c.id === 'http.resume-delivers')!;
  type Resumption = NonNullable<NonNullable<Exchange['http']>['resumed']>[number];
  const run = (exchanges: Exchange[], events: unknown[] = []) =>
    oracle.judge({ exchanges, events: events as never, version: '2025-11-25', transport: 'http', deliberate: () => false }, { era: 'legacy', version: '2025-11-25', transport: 'http', capabilities: {} });
  const polled = (id: string, resumed: Resumption[], extra: Partial<Exchange> = {}): Exchange => {
    const ex = got(200, { contentType: 'text/event-stream', ...(resumed.some((r) => r.answered) ? { result: {} } : {}) });
    return { ...ex, id, http: { ...ex.http!, resumed }, ...extra };
  };
  const answered: Resumption = { afterEventId: '1', retryMs: 100, status: 200, answered: true };
  it('a stream closed before its response must deliver it once resumed: holds, or warns naming what the resumption got', () => {
    expect(run([got(200, { contentType: 'text/event-stream', result: {} })]).outcome).toBe('untestable');
    expect(run([polled('a', [answered])])).toMatchObject({ outcome: 'holds', message: expect.stringContaining('1 SSE answers') });
    // Resumed twice: the second stream carried it.
    expect(run([polled('a', [{ afterEventId: '1', status: 200 }, { ...answered, afterEventId: '2' }])]).outcome).toBe('holds');
    // The resumed stream ended empty, and the GET after it was refused: the answer is lost.
    expect(run([polled('a', [answered]), polled('b', [{ afterEventId: '3', status: 200 }, { afterEventId: '3', status: 405, refused: true }], { streamBroken: true })])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('1 of 2') });
    expect(run([polled('b', [{ afterEventId: '3', status: 404, refused: true }], { streamBroken: true })])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP 404') });
    expect(run([polled('b', [{ afterEventId: '3', status: 200, refused: true }], { streamBroken: true })]).message).toContain('HTTP 200 without an SSE stream');
  });
  it('does not judge a stream mcpspec stopped resuming while the server still served it', () => {
    const served = Array.from({ length: 8 }, (_, i): Resumption => ({ afterEventId: String(i), status: 200 }));
    expect(run([polled('b', served, { streamBroken: true })])).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('stopped resuming') });
  });
  it('sees the first attempt of a re-issued request, whose lost answer the second attempt hides', () => {
    const first = polled('b', [{ afterEventId: '3', status: 405, refused: true }], { streamBroken: true });
    expect(run([polled('c', [answered], { reissueOf: first })])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('1 of 2') });
  });
  it('never judges on time alone, nor a request mcpspec cancelled', () => {
    expect(run([polled('a', [{ afterEventId: '1', status: 200 }], { timedOut: true })])).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('timeout') });
    expect(run([polled('a', [{ afterEventId: '1', status: 404, refused: true }], { aborted: true })]).outcome).toBe('untestable');
    const cancel = { seq: 9, dir: 'out', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } } };
    expect(run([polled('a', [{ afterEventId: '1', status: 404, refused: true }])], [cancel]).outcome).toBe('untestable');
  });
});

describe('http.concurrent-requests (HL-03, HM-03, HL-06, JR-04)', () => {
  const own = (id: number, extra: Partial<Exchange> = {}): Exchange => {
    const response = { jsonrpc: '2.0', id, result: {} };
    return { ...got(200, { contentType: 'application/json' }), id, method: 'ping', response, messages: [response], ...extra };
  };
  const crossed = (id: number, other: number): Exchange => ({ ...own(id), response: undefined, messages: [{ jsonrpc: '2.0', id: other, result: {} }] });
  const run = (concurrent: Exchange[], alone: Exchange = own(9)) => judge('http.concurrent-requests', { alone, concurrent });
  it('holds when each request posted at once got its own response, on a JSON body or an SSE stream', () => {
    const sse = own(3);
    expect(run([own(1), own(2), { ...sse, http: { ...sse.http!, contentType: 'text/event-stream' } }])).toMatchObject({ outcome: 'holds', message: expect.stringContaining('JSON body or SSE stream') });
    // An id of another type only (1 vs "1") is jsonrpc.id-echo's to judge, not a crossed answer.
    expect(run([own(1), { ...own(2), messages: [{ jsonrpc: '2.0', id: '2', result: {} }] }]).outcome).toBe('holds');
  });
  it('fails an answer that carries another request\'s response, or none of its own', () => {
    expect(run([crossed(1, 2), crossed(2, 1), own(3)])).toMatchObject({ outcome: 'violated', message: expect.stringContaining('2 of 3 ping requests posted at once') });
    expect(run([crossed(1, 2), own(2)]).message).toContain('carried the response to 2, not its own');
    expect(run([own(1), { ...own(2), response: undefined, messages: [] }]).message).toContain('no response of its own');
    // Refused while others were in flight (an error, or an HTTP error status), though served alone.
    const busy = { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'busy' } };
    expect(run([own(1), { ...own(2), response: busy, messages: [busy] }]).message).toContain('refused while others were in flight');
    expect(run([own(1), { ...own(2), http: { ...own(2).http!, status: 503 } }]).message).toContain('refused');
    // Refused alone too: not about concurrency (lifecycle.ping and the like judge that).
    const refusedAlone = { ...own(9), response: { jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'no' } } };
    expect(run([own(1), { ...own(2), response: busy, messages: [busy] }], refusedAlone).outcome).toBe('holds');
  });
  it('sees a re-issued request\'s first attempt; leaves replays on a resumed stream to http.resume-own-stream', () => {
    expect(run([own(1), own(4, { reissueOf: { ...crossed(2, 1), streamBroken: true } })]).outcome).toBe('violated');
    const resumed = own(2, { messages: [{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, result: {} }] });
    expect(run([own(1), { ...resumed, http: { ...resumed.http!, resumed: [{ afterEventId: '1', foreignIds: [1], status: 200, answered: true }] } }]).outcome).toBe('holds');
  });
  it('never judges on time alone: fewer than two answered in time is untestable', () => {
    expect(run([own(1), { ...own(2), response: undefined, messages: [], timedOut: true }, { ...own(3), response: undefined, messages: [], aborted: true }]).outcome).toBe('untestable');
    expect(run([]).outcome).toBe('untestable');
  });
});
