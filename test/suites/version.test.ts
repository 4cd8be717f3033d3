// version.not-pinned: 2026-07-28 requests after an opener without version _meta are judged against
// a baseline served on a properly opened connection; an opener's own answer is never judged.
// version.initialize-names-versions: a refused initialize names a version server/discover listed.

import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';
import type { NotPinnedObs } from '../../suites/lifecycle/discover-scenario.js';
import { namesVersion } from '../../suites/kit/request-shape.js';

const notPinned = CHECKS.find((c) => c.id === 'version.not-pinned')!;
const ctx = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: { tools: {} } } as const;
const ex = (method: string, response?: unknown, extra: Partial<Exchange> = {}): Exchange => ({
  request: { jsonrpc: '2.0', id: 1, method }, method, messages: response ? [response] : [], ...(response ? { response } : {}),
  timedOut: !response, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1], ...extra,
});
const DISCOVERED = { jsonrpc: '2.0', id: 2, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} } };
const LISTED = { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', tools: [] } };
const obs = (o: Partial<NotPinnedObs> = {}): NotPinnedObs => ({
  claimless: ex('tools/list', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'missing _meta' } }),
  discover: ex('server/discover', DISCOVERED),
  list: ex('tools/list', LISTED),
  baseline: ex('tools/list', LISTED),
  listMethod: 'tools/list',
  ...o,
});

describe('version.not-pinned', () => {
  it('holds when both later requests are served by 2026-07-28 rules, whatever the opener got', () => {
    expect(notPinned.judge(obs(), ctx).outcome).toBe('holds');
    expect(notPinned.judge(obs({ claimless: ex('tools/list') }), ctx).outcome).toBe('holds');
  });

  it('is violated by a discover refused as unknown, or a list answered without resultType', () => {
    const refused = notPinned.judge(obs({ discover: ex('server/discover', { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } }) }), ctx);
    expect(refused.outcome).toBe('violated');
    expect(refused.message).toMatch(/server\/discover on the same connection got error -32601/);
    const legacy = notPinned.judge(obs({ list: ex('tools/list', { jsonrpc: '2.0', id: 3, result: { tools: [] } }) }), ctx);
    expect(legacy.outcome).toBe('violated');
    expect(legacy.message).toMatch(/tools\/list on the same connection got a result without resultType/);
  });

  it('is untestable when the baseline is not served either, or the run ended first', () => {
    const broken = ex('tools/list', { jsonrpc: '2.0', id: 9, result: { tools: [] } });
    expect(notPinned.judge(obs({ baseline: broken, list: broken }), ctx).outcome).toBe('untestable');
    expect(notPinned.judge(obs({ discover: ex('server/discover', undefined, { aborted: true }) }), ctx).outcome).toBe('untestable');
  });

  it('is untestable, not violated, when the target exits or falls silent after the opener', () => {
    const exited = notPinned.judge(obs({ discover: ex('server/discover', undefined, { timedOut: false, closed: { exitCode: 1, signal: null, stderrTail: '' } }) }), ctx);
    expect(exited).toEqual({ outcome: 'untestable', message: 'after the opener without _meta, server/discover got the target exited (code 1): no answer to read the rules from' });
    expect(notPinned.judge(obs({ list: ex('tools/list') }), ctx).message).toMatch(/tools\/list got no answer within the 1000 ms timeout/);
  });
});

describe('version.initialize-names-versions', () => {
  const names = CHECKS.find((c) => c.id === 'version.initialize-names-versions')!;
  const refused = (message: string, data?: unknown) => ex('initialize', { jsonrpc: '2.0', id: 1, error: { code: -32601, message, ...(data ? { data } : {}) } });

  it('holds when the error names a listed version, in its message or data; skips a server that serves initialize', () => {
    expect(names.judge({ initialize: refused('speaks only 2026-07-28'), supported: ['2026-07-28'] }, ctx).outcome).toBe('holds');
    expect(names.judge({ initialize: refused('no', { supported: ['2026-07-28'] }), supported: ['2026-07-28'] }, ctx).outcome).toBe('holds');
    expect(names.judge({ initialize: ex('initialize', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25' } }), supported: ['2026-07-28'] }, ctx).outcome).toBe('skip');
  });

  it('is violated by an error naming no listed version; echoing the version asked for does not count', () => {
    expect(names.judge({ initialize: refused('Method not found'), supported: ['2026-07-28'] }, ctx).outcome).toBe('violated');
    expect(names.judge({ initialize: refused('2025-11-25 is not supported'), supported: ['2026-07-28', '2025-11-25'] }, ctx).outcome).toBe('violated');
  });

  it('is untestable with nothing to read or nothing to look for', () => {
    expect(names.judge({ initialize: ex('initialize'), supported: ['2026-07-28'] }, ctx).outcome).toBe('untestable');
    expect(names.judge({ initialize: refused('Method not found'), supported: [] }, ctx)).toEqual({ outcome: 'untestable', message: 'server/discover listed no version to look for in the error' });
  });
});

// version.removed-methods and version.initialize-modern: the methods 2026-07-28 removed, and
// initialize, sent as 2026-07-28 requests get -32601 (over HTTP with 404); a dual-era server may take
// initialize as the legacy handshake.
const httpCtx = { ...ctx, transport: 'http' } as const;
const notFound = (method: string, status?: number) =>
  ex(method, { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }, status === undefined ? {} : { http: { status, headers: {}, body: '' } });
const served = (method: string, result: unknown = {}) => ex(method, { jsonrpc: '2.0', id: 1, result });
const REMOVED = ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'];

describe('version.removed-methods', () => {
  const removedCheck = CHECKS.find((c) => c.id === 'version.removed-methods')!;
  const judge = (each: (m: string) => Exchange, c: typeof ctx | typeof httpCtx = ctx) => removedCheck.judge({ removed: REMOVED.map((method) => ({ method, exchange: each(method) })) }, c);

  it('holds when each gets -32601, with 404 over HTTP', () => {
    expect(judge((m) => notFound(m))).toMatchObject({ outcome: 'holds', message: 'ping, logging/setLevel, resources/subscribe, resources/unsubscribe: each -32601' });
    expect(judge((m) => notFound(m, 404), httpCtx).outcome).toBe('holds');
  });

  it('is violated by a served method, another error, a 200 over HTTP, or silence', () => {
    const one = judge((m) => (m === 'ping' ? served(m) : notFound(m)));
    expect(one.outcome).toBe('violated');
    expect(one.message).toMatch(/^ping got a result, not error -32601: a request with 2026-07-28 _meta/);
    expect(judge((m) => ex(m, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } })).outcome).toBe('violated');
    const status = judge((m) => notFound(m, 200), httpCtx);
    expect(status.message).toMatch(/^ping got error -32601 with HTTP 200, not 404/);
    expect(judge((m) => ex(m)).outcome).toBe('violated');
  });

  it('is untestable when the run ended before the answers', () => {
    expect(judge((m) => ex(m, undefined, { aborted: true })).outcome).toBe('untestable');
  });
});

describe('version.initialize-modern', () => {
  const init = CHECKS.find((c) => c.id === 'version.initialize-modern')!;
  const refusedLegacy = ex('initialize', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: initialize (2026-07-28 only)' } });
  const servedLegacy = served('initialize', { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } });
  const invalid = (status?: number) => ex('initialize', { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'no initialize' } }, status === undefined ? {} : { http: { status, headers: {}, body: '' } });
  const judge = (o: { initialize?: Exchange; supported?: string[]; modernInitialize: Exchange }, c: typeof ctx | typeof httpCtx = ctx) =>
    init.judge({ initialize: refusedLegacy, supported: ['2026-07-28'], removed: [], ...o }, c);

  it('holds on -32601 (with 404 over HTTP), modern-only or dual-era', () => {
    expect(judge({ modernInitialize: notFound('initialize') }).outcome).toBe('holds');
    expect(judge({ modernInitialize: notFound('initialize', 404) }, httpCtx).outcome).toBe('holds');
    expect(judge({ initialize: servedLegacy, modernInitialize: notFound('initialize') }).outcome).toBe('holds');
  });

  it('is violated on a modern-only server by another error, or -32601 with another HTTP status', () => {
    const v = judge({ modernInitialize: invalid() });
    expect(v.outcome).toBe('violated');
    expect(v.message).toMatch(/^initialize with 2026-07-28 _meta got error -32600 "no initialize", not error -32601: a server that speaks only 2026-07-28/);
    expect(judge({ modernInitialize: notFound('initialize', 400) }, httpCtx).outcome).toBe('violated');
    expect(judge({ modernInitialize: servedLegacy }).outcome).toBe('violated');
  });

  it('skips a dual-era server (it served a 2025 initialize, or discover lists a 2025 version) that answers otherwise', () => {
    expect(judge({ initialize: servedLegacy, modernInitialize: servedLegacy })).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/dual-era \(it answered a 2025-11-25 initialize with a result\)/) });
    expect(judge({ supported: ['2026-07-28', '2025-11-25'], modernInitialize: invalid(400) }, httpCtx)).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/server\/discover lists 2025-11-25/) });
  });

  it('is untestable when the run ended first, or when the era is unknown', () => {
    expect(judge({ modernInitialize: ex('initialize', undefined, { aborted: true }) }).outcome).toBe('untestable');
    expect(judge({ initialize: ex('initialize', undefined, { aborted: true }), modernInitialize: invalid() }).outcome).toBe('untestable');
  });
});

describe('which requests the run judges by 2026-07-28 rules', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  it('a request naming a version, but never initialize (a dual-era server may take it as the legacy handshake)', () => {
    expect(namesVersion({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } })).toBe(true);
    expect(namesVersion({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: meta } })).toBe(false);
    expect(namesVersion({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).toBe(false);
  });
});
