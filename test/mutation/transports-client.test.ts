// The http, stdio and client-role mutations: each fed realistic traffic through a Mutator, changing
// what it names (and counting it), leaving other traffic alone.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ROLE_MUTATIONS } from '../../mutation/catalogue/client-role.js';
import { HTTP_MUTATIONS } from '../../mutation/catalogue/http.js';
import { MutatingHttpProxy } from '../../mutation/http-proxy.js';
import { STDIO_MUTATIONS } from '../../mutation/catalogue/stdio.js';
import { isRaw, type HttpAnswer, type HttpAsk, type SeenRequest } from '../../mutation/mutation.js';
import { Mutator } from '../../mutation/mutator.js';
import { encodeHeaderValue } from '../../protocol/http-headers.js';
import { modernMeta } from '../../protocol/meta.js';

type Obj = Record<string, any>;
const ALL = [...HTTP_MUTATIONS, ...STDIO_MUTATIONS, ...CLIENT_ROLE_MUTATIONS];
const covered = new Set<string>();

function mk(id: string, transport: 'stdio' | 'http' = 'stdio'): Mutator {
  const m = ALL.find((x) => x.id === id);
  if (!m) throw new Error(`no mutation ${id}`);
  covered.add(id);
  return new Mutator(m, transport);
}

const META = () => modernMeta('2026-07-28', { elicitation: {} }, { name: 'client', version: '1' });
const req = (id: string | number, method: string, params: Obj = {}): Obj => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...META(), ...(params._meta ?? {}) } } });
const lreq = (id: string | number, method: string, params?: Obj): Obj => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const ok = (id: unknown, result: Obj = {}): Obj => ({ jsonrpc: '2.0', id, result });
const err = (id: unknown, code: number, data?: unknown): Obj => ({ jsonrpc: '2.0', id, error: { code, message: 'refused', ...(data ? { data } : {}) } });
const note = (method: string, params?: Obj): Obj => ({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
const ans = (over: Partial<HttpAnswer>): HttpAnswer => ({ status: 200, headers: { 'content-type': 'application/json' }, messages: [], sse: false, method: 'POST', ...over });
const ask = (headers: Record<string, string>, body?: unknown, method = 'POST'): HttpAsk => ({ method, headers, body });
const TOOL = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string', 'x-mcp-header': 'Text' } } } };
const initResult = (capabilities: Obj = { tools: {} }, protocolVersion = '2025-11-25') => ({ protocolVersion, capabilities, serverInfo: { name: 's', version: '1' } });

/** Sends a client request through (as the proxies do first) and returns what the proxy recorded of it. */
function sent(m: Mutator, r: Obj): SeenRequest {
  m.toServer(r);
  return m.seenFromClient(r)!;
}

afterAll(() => {
  // Every mutation of the three files has a test here.
  expect(ALL.filter((x) => !covered.has(x.id)).map((x) => x.id)).toEqual([]);
});

describe('http mutations (server role)', () => {
  it('http.notification-200 / -202-with-body: accepted notifications', () => {
    for (const id of ['http.notification-200', 'http.notification-202-with-body']) {
      const m = mk(id, 'http');
      m.toServer(note('notifications/initialized'));
      const out = m.httpAnswer(ans({ status: 202, headers: {} }));
      if (id.endsWith('200')) expect(out.status).toBe(200);
      else expect(out.messages).toEqual([{ raw: 'Accepted' }]);
      expect(m.applied).toBe(1);
      const seen = sent(m, lreq(1, 'ping'));
      const other = ans({ request: seen, messages: [ok(1)] });
      expect(m.httpAnswer(other)).toBe(other);
      expect(m.applied).toBe(1);
    }
  });

  it('http.json-content-type-wrong', () => {
    const m = mk('http.json-content-type-wrong', 'http');
    const seen = sent(m, req(1, 'tools/list'));
    expect(m.httpAnswer(ans({ request: seen, messages: [ok(1, { tools: [] })] })).headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(m.applied).toBe(1);
    const hs = sent(m, req(2, 'server/discover'));
    const handshake = ans({ request: hs, messages: [ok(2)] });
    expect(m.httpAnswer(handshake)).toBe(handshake);
  });

  it('http.unknown-method-200 / -404-plain', () => {
    for (const id of ['http.unknown-method-200', 'http.unknown-method-404-plain']) {
      const m = mk(id, 'http');
      const seen = sent(m, req(1, 'mcpspec/no-such-method'));
      const out = m.httpAnswer(ans({ status: 404, request: seen, messages: [err(1, -32601)] }));
      if (id.endsWith('200')) expect(out.status).toBe(200);
      else {
        expect(out.status).toBe(404);
        expect(out.messages).toEqual([{ raw: 'Not Found' }]);
        expect(out.headers['content-type']).toContain('text/plain');
      }
      expect(m.applied).toBe(1);
      const other = ans({ status: 400, request: seen, messages: [err(1, -32602)] });
      expect(m.httpAnswer(other)).toBe(other);
    }
  });

  it.each([
    ['http.header-mismatch-200', -32020],
    ['http.missing-capability-200', -32021],
    ['http.unsupported-version-200', -32022],
    ['http.missing-meta-200', -32602],
  ])('%s: 400 with %d becomes 200', (id, code) => {
    const m = mk(id, 'http');
    const seen = sent(m, req(1, 'tools/list'));
    expect(m.httpAnswer(ans({ status: 400, request: seen, messages: [err(1, code)] })).status).toBe(200);
    expect(m.applied).toBe(1);
    const other = ans({ status: 400, request: seen, messages: [err(1, -32600)] });
    expect(m.httpAnswer(other)).toBe(other);
    const ordinary = ans({ status: 200, request: seen, messages: [err(1, code)] });
    expect(m.httpAnswer(ordinary)).toBe(ordinary);
  });

  it('http.modern-mints-session-id', () => {
    const m = mk('http.modern-mints-session-id', 'http');
    const a = m.httpAnswer(ans({ request: sent(m, req(1, 'tools/list')), messages: [ok(1)] }));
    const b = m.httpAnswer(ans({ request: sent(m, req(2, 'tools/list')), messages: [ok(2)] }));
    expect(a.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['mcp-session-id']).toBe(a.headers['mcp-session-id']);
    expect(m.applied).toBe(2);
    const legacy = ans({ request: sent(m, lreq(3, 'ping')), messages: [ok(3)] });
    expect(m.httpAnswer(legacy)).toBe(legacy);
  });

  it('http.modern-echoes-session-id', () => {
    const m = mk('http.modern-echoes-session-id', 'http');
    const r = req(1, 'server/discover');
    const seen = sent(m, r);
    const q = ask({ 'mcp-session-id': 'stale-1' }, r);
    expect(m.httpAsk(q, seen)).toBe(q);
    expect(m.applied).toBe(0);
    expect(m.httpAnswer(ans({ request: seen, messages: [ok(1)] })).headers['mcp-session-id']).toBe('stale-1');
    expect(m.applied).toBe(1);
    const other = ans({ request: sent(m, req(2, 'tools/list')), messages: [ok(2)] });
    expect(m.httpAnswer(other)).toBe(other);
    // A GET carrying one.
    m.httpAsk(ask({ 'mcp-session-id': 'stale-2' }, undefined, 'GET'));
    expect(m.httpAnswer(ans({ method: 'GET', status: 405, headers: {} })).headers['mcp-session-id']).toBe('stale-2');
  });

  it('http.get-200-json', () => {
    const m = mk('http.get-200-json', 'http');
    const out = m.httpAnswer(ans({ method: 'GET', status: 405, headers: { allow: 'POST' } }));
    expect(out).toMatchObject({ status: 200, sse: false, messages: [{ status: 'ok' }], headers: { 'content-type': 'application/json' } });
    expect(m.applied).toBe(1);
    const stream = ans({ method: 'GET', status: 200, sse: true, headers: { 'content-type': 'text/event-stream' } });
    expect(m.httpAnswer(stream)).toBe(stream);
  });

  it('http.modern-delete-200', () => {
    const m = mk('http.modern-delete-200', 'http');
    m.toServer(req(1, 'server/discover'));
    const out = m.httpAnswer(ans({ method: 'DELETE', status: 405, headers: {} }));
    expect(out.status).toBe(200);
    expect(isRaw(out.messages[0]) && out.messages[0].raw).toBe('');
    expect(m.applied).toBe(1);
    const get = ans({ method: 'GET', status: 405, headers: {} });
    expect(m.httpAnswer(get)).toBe(get);
  });

  it('http.sse-no-accel-buffering', () => {
    const m = mk('http.sse-no-accel-buffering', 'http');
    const seen = sent(m, req(1, 'tools/call', { name: 'echo' }));
    const out = m.httpAnswer(ans({ request: seen, sse: true, headers: { 'content-type': 'text/event-stream', 'x-accel-buffering': 'no' } }));
    expect(out.headers).toEqual({ 'content-type': 'text/event-stream' });
    expect(m.applied).toBe(1);
    const json = ans({ request: seen, messages: [ok(1)] });
    expect(m.httpAnswer(json)).toBe(json);
  });

  it('http.sse-carries-request / list-changed-on-request-stream / sse-foreign-progress: something before the tools/call answer', () => {
    const cases: [string, (x: Obj) => void][] = [
      ['http.sse-carries-request', (x) => expect(x).toMatchObject({ method: 'ping', id: 'mcpspec-mutant-ask-1' })],
      ['http.list-changed-on-request-stream', (x) => expect(x).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })],
      ['http.sse-foreign-progress', (x) => expect(x).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'mcpspec-mutant-other-request' } })],
    ];
    for (const [id, first] of cases) {
      const m = mk(id, 'http');
      const seen = sent(m, req(1, 'tools/call', { name: 'echo', arguments: {} }));
      const answer = ok(1, { resultType: 'complete', content: [] });
      const out = m.toClient(answer, seen) as Obj[];
      expect(out).toHaveLength(2);
      first(out[0]);
      expect(out[1]).toEqual(answer);
      expect(m.applied).toBe(1);
      const list = ok(2, { resultType: 'complete', tools: [] });
      expect(m.toClient(list, sent(m, req(2, 'tools/list')))).toEqual([list]);
      expect(m.applied).toBe(1);
    }
  });

  it('http.sse-message-after-response', () => {
    const m = mk('http.sse-message-after-response', 'http');
    const seen = sent(m, req(1, 'tools/call', { name: 'echo', _meta: { progressToken: 'tok' } }));
    const out = m.toClient(ok(1, { content: [] }), seen) as Obj[];
    expect(out[0]).toEqual(ok(1, { content: [] }));
    expect(out[1]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'tok' } });
    expect(m.applied).toBe(1);
    const plain = ok(2, { content: [] });
    expect(m.toClient(plain, sent(m, req(2, 'tools/call', { name: 'echo' })))).toEqual([plain]);
  });

  it('http.legacy-session-id-invisible', () => {
    const m = mk('http.legacy-session-id-invisible', 'http');
    const seen = sent(m, lreq(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    const out = m.httpAnswer(ans({ request: seen, headers: { 'content-type': 'application/json', 'mcp-session-id': 'abcdef12' }, messages: [ok(0, initResult())] }));
    expect(out.headers['mcp-session-id']).toBe('abcd ef12');
    expect(m.applied).toBe(1);
    const ping = lreq(1, 'ping');
    expect(m.httpAsk(ask({ 'mcp-session-id': 'abcd ef12' }, ping), sent(m, ping)).headers['mcp-session-id']).toBe('abcdef12');
    expect(m.applied).toBe(2);
    const plain = ask({ accept: 'application/json, text/event-stream' }, ping);
    expect(m.httpAsk(plain, m.seenFromClient(ping))).toBe(plain);
  });

  it('http.legacy-session-survives-delete', () => {
    const m = mk('http.legacy-session-survives-delete', 'http');
    const del = m.httpAsk(ask({ 'mcp-session-id': 'sid-1' }, undefined, 'DELETE'));
    expect(del.headers['mcp-session-id']).toBe('sid-1-mcpspec-kept');
    expect(m.applied).toBe(1);
    const out = m.httpAnswer(ans({ method: 'DELETE', status: 404, headers: { 'content-type': 'application/json' }, messages: [err(null, -32001)] }));
    expect(out.status).toBe(200);
    expect(out.messages).toEqual([{ raw: '' }]);
    const ping = lreq(1, 'ping');
    const post = ask({ 'mcp-session-id': 'sid-1' }, ping);
    expect(m.httpAsk(post, sent(m, ping))).toBe(post);
  });

  it('http.legacy-get-stream-response', () => {
    const m = mk('http.legacy-get-stream-response', 'http');
    const seen = sent(m, lreq(1, 'tools/list'));
    const answer = ok(1, { tools: [] });
    expect(m.toClient(answer, seen)).toEqual([answer]);
    expect(m.applied).toBe(0);
    const out = m.httpAnswer(ans({ method: 'GET', status: 405, headers: {} }));
    expect(out).toMatchObject({ status: 200, sse: true, messages: [answer] });
    expect(m.applied).toBe(1);
    // An event on an open GET stream (no POSTed request): a replayed response goes first.
    const onGet = m.toClient(note('notifications/tools/list_changed'));
    expect(onGet).toEqual([answer, note('notifications/tools/list_changed')]);
    // A notification on a POST's stream is left alone.
    const post = sent(m, lreq(2, 'tools/call', { name: 'echo' }));
    expect(m.toClient(note('notifications/progress', { progressToken: 1, progress: 1 }), post)).toHaveLength(1);
  });

  it('http.legacy-event-ids-repeat', () => {
    const m = mk('http.legacy-event-ids-repeat', 'http');
    const seen = sent(m, lreq(1, 'tools/call', { name: 'echo' }));
    const head = ans({ request: seen, sse: true, headers: { 'content-type': 'text/event-stream' } });
    expect(m.httpAnswer(head)).toBe(head);
    const first = m.toClient(note('notifications/progress', { progressToken: 1, progress: 1 }), seen);
    const second = m.toClient(ok(1, { content: [] }), seen);
    expect(first).toEqual([{ raw: `id: 1\nevent: message\ndata: ${JSON.stringify(note('notifications/progress', { progressToken: 1, progress: 1 }))}\n\n` }]);
    expect((second[0] as { raw: string }).raw.startsWith('id: 2\n')).toBe(true);
    expect(m.applied).toBe(2);
    const json = sent(m, lreq(2, 'ping'));
    expect(m.toClient(ok(2), json)).toEqual([ok(2)]);
  });

  it('http.legacy-version-header-not-checked', () => {
    const m = mk('http.legacy-version-header-not-checked', 'http');
    const init = sent(m, lreq(0, 'initialize', { protocolVersion: '2025-11-25' }));
    m.toClient(ok(0, initResult()), init);
    expect(m.applied).toBe(0);
    const ping = lreq(1, 'ping');
    expect(m.httpAsk(ask({ 'mcp-protocol-version': '1999-01-01' }, ping), sent(m, ping)).headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(m.applied).toBe(1);
    const good = ask({ 'mcp-protocol-version': '2025-06-18' }, ping);
    expect(m.httpAsk(good, m.seenFromClient(ping))).toBe(good);
  });

  it('http.old-sse-transport-on-get', () => {
    const m = mk('http.old-sse-transport-on-get', 'http');
    const out = m.httpAnswer(ans({ method: 'GET', status: 405, headers: {} }));
    expect(out.sse).toBe(true);
    expect((out.messages[0] as { raw: string }).raw).toContain('event: endpoint');
    expect(m.applied).toBe(1);
    const post = ans({ request: sent(m, lreq(1, 'ping')), status: 405 });
    expect(m.httpAnswer(post)).toBe(post);
  });

  it('http.origin-not-checked / origin-refused-400', () => {
    const m = mk('http.origin-not-checked', 'http');
    const r = req(1, 'server/discover');
    expect(m.httpAsk(ask({ origin: 'https://evil.example', accept: 'x' }, r), sent(m, r)).headers).toEqual({ accept: 'x' });
    expect(m.applied).toBe(1);
    const local = ask({ origin: 'http://localhost:3000' }, r);
    expect(m.httpAsk(local, m.seenFromClient(r))).toBe(local);

    const n = mk('http.origin-refused-400', 'http');
    const seen = sent(n, r);
    n.httpAsk(ask({ origin: 'https://evil.example' }, r), seen);
    expect(n.applied).toBe(0);
    expect(n.httpAnswer(ans({ request: seen, status: 403 })).status).toBe(400);
    expect(n.applied).toBe(1);
    const r2 = req(2, 'tools/list');
    const forbidden = ans({ request: sent(n, r2), status: 403 });
    expect(n.httpAnswer(forbidden)).toBe(forbidden);
  });

  it('http.method-header-not-checked / name-header-not-checked / version-header-not-checked', () => {
    const m = mk('http.method-header-not-checked', 'http');
    const d = req(1, 'server/discover');
    expect(m.httpAsk(ask({ 'mcp-method': 'tools/list' }, d), sent(m, d)).headers['mcp-method']).toBe('server/discover');
    expect(m.applied).toBe(1);
    const right = ask({ 'mcp-method': 'server/discover' }, d);
    expect(m.httpAsk(right, m.seenFromClient(d))).toBe(right);

    const n = mk('http.name-header-not-checked', 'http');
    const c = req(2, 'tools/call', { name: 'echo', arguments: {} });
    expect(n.httpAsk(ask({ 'mcp-method': 'tools/call', 'mcp-name': 'other' }, c), sent(n, c)).headers['mcp-name']).toBe('echo');
    expect(n.applied).toBe(1);
    const encoded = ask({ 'mcp-name': '=?base64?ZWNobw==?=' }, c);
    expect(n.httpAsk(encoded, n.seenFromClient(c))).toBe(encoded);

    const v = mk('http.version-header-not-checked', 'http');
    expect(v.httpAsk(ask({ 'mcp-protocol-version': '2025-11-25' }, d), sent(v, d)).headers['mcp-protocol-version']).toBe('2026-07-28');
    expect(v.applied).toBe(1);
    const same = ask({ 'mcp-protocol-version': '2026-07-28' }, d);
    expect(v.httpAsk(same, v.seenFromClient(d))).toBe(same);
  });

  it('http.param-header-not-checked', () => {
    const m = mk('http.param-header-not-checked', 'http');
    const list = sent(m, req(1, 'tools/list'));
    m.toClient(ok(1, { resultType: 'complete', tools: [TOOL], ttlMs: 0, cacheScope: 'public' }), list);
    expect(m.applied).toBe(0);
    const c = req(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const seen = sent(m, c);
    expect(m.httpAsk(ask({ 'mcp-param-text': 'other' }, c), seen).headers['mcp-param-text']).toBe('hi');
    expect(m.httpAsk(ask({}, c), seen).headers['mcp-param-text']).toBe('hi');
    expect(m.httpAsk(ask({ 'mcp-param-text': '=?base64?%%%?=' }, c), seen).headers['mcp-param-text']).toBe('hi');
    expect(m.applied).toBe(3);
    const encoded = ask({ 'mcp-param-text': '=?base64?aGk=?=' }, c);
    expect(m.httpAsk(encoded, seen)).toBe(encoded);
  });

  it('http.header-sentinel-not-decoded', () => {
    const m = mk('http.header-sentinel-not-decoded', 'http');
    const c = req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const seen = sent(m, c);
    m.httpAsk(ask({ 'mcp-param-text': '=?base64?aGk=?=' }, c), seen);
    expect(m.applied).toBe(0);
    const out = m.toClient(ok(1, { content: [] }), seen) as Obj[];
    expect(out[0].error.code).toBe(-32020);
    expect(m.httpAnswer(ans({ request: seen, messages: out })).status).toBe(400);
    expect(m.applied).toBe(2);
    const p = req(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const plain = sent(m, p);
    m.httpAsk(ask({ 'mcp-param-text': 'hi' }, p), plain);
    expect(m.toClient(ok(2, { content: [] }), plain)).toEqual([ok(2, { content: [] })]);
  });
});

describe('stdio mutations (server role)', () => {
  it('stdio.pretty-printed / no-newline-after-message', () => {
    for (const id of ['stdio.pretty-printed', 'stdio.no-newline-after-message']) {
      const m = mk(id);
      m.toServer(req(1, 'tools/list'));
      const answer = ok(1, { resultType: 'complete', tools: [TOOL], ttlMs: 0, cacheScope: 'public' });
      const [out] = m.toClient(answer) as { raw: string }[];
      if (id === 'stdio.pretty-printed') {
        expect(out.raw.split('\n').length).toBeGreaterThan(3);
        expect(JSON.parse(out.raw)).toEqual(answer);
      } else expect(out.raw).toBe(JSON.stringify(answer));
      expect(m.applied).toBe(1);
      m.toServer(req(2, 'tools/call', { name: 'echo' }));
      expect(m.toClient(ok(2, { content: [] }))).toEqual([ok(2, { content: [] })]);
    }
  });

  it('stdio.log-line-on-stdout / blank-lines', () => {
    const m = mk('stdio.log-line-on-stdout');
    const call = sent(m, req(1, 'tools/call', { name: 'echo' }));
    const line = JSON.stringify(ok(1, { content: [] }));
    expect(m.stdoutLine(line, call)).toEqual(['[mcp-server] INFO handling tools/call', line]);
    expect(m.applied).toBe(1);
    expect(m.stdoutLine(line, sent(m, req(2, 'prompts/list')))).toEqual([line]);

    const b = mk('stdio.blank-lines');
    expect(b.stdoutLine(line)).toEqual([line, '']);
    expect(b.applied).toBe(1);
    expect(b.stdoutLine('')).toEqual(['']);
    expect(b.toClient(ok(1))).toEqual([ok(1)]);
  });

  it('stdio.startup-banner', () => {
    const m = mk('stdio.startup-banner');
    const first = req(1, 'server/discover');
    expect(m.toServer(first)).toEqual([first]);
    expect(m.takeReplies()).toEqual([{ raw: 'Starting MCP server (stdio transport)...\n' }]);
    expect(m.applied).toBe(1);
    const second = req(2, 'tools/list');
    expect(m.toServer(second)[0]).toBe(second);
    expect(m.takeReplies()).toEqual([]);
    expect(m.applied).toBe(1);
  });

  it('stdio.ignores-stdin-eof', () => {
    const m = mk('stdio.ignores-stdin-eof');
    expect(m.toServer(req(1, 'tools/list'))).toEqual([req(1, 'tools/list')]);
    expect(m.applied).toBe(0);
    expect(m.keepStdinOpen()).toBe(true);
    expect(m.applied).toBe(1);
    // No other mutation keeps the server's input open.
    expect(mk('stdio.blank-lines').keepStdinOpen()).toBe(false);
  });

  it('stdio.server-sends-request', () => {
    const m = mk('stdio.server-sends-request');
    m.toServer(req(1, 'tools/call', { name: 'echo' }));
    const out = m.toClient(ok(1, { resultType: 'complete', content: [] })) as Obj[];
    expect(out[0]).toEqual({ jsonrpc: '2.0', id: 'mcpspec-mutant-ask-1', method: 'ping' });
    expect(out[1].id).toBe(1);
    expect(m.applied).toBe(1);
    expect(m.toServer(ok('mcpspec-mutant-ask-1'))).toEqual([]);
    m.toServer(req(2, 'tools/list'));
    expect(m.toClient(ok(2, { tools: [] }))).toEqual([ok(2, { tools: [] })]);
    // Legacy traffic (where server requests are allowed) is no concern of it.
    m.toServer(lreq(3, 'tools/call', { name: 'echo' }));
    expect(m.toClient(ok(3, { content: [] }))).toEqual([ok(3, { content: [] })]);
  });
});

describe('client-role mutations: JSON-RPC, _meta, versions', () => {
  it('jsonrpc.client-null-id', () => {
    const m = mk('jsonrpc.client-null-id');
    expect((m.toServer(lreq(5, 'tools/list')) as Obj[])[0].id).toBeNull();
    expect(m.applied).toBe(1);
    expect((m.toClient(ok(null, { tools: [] })) as Obj[])[0].id).toBe(5);
    const call = lreq(6, 'tools/call', { name: 'echo' });
    expect(m.toServer(call)[0]).toBe(call);
  });

  it('jsonrpc.client-reuses-answered-id', () => {
    const m = mk('jsonrpc.client-reuses-answered-id');
    const init = lreq(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    expect(m.toServer(init)[0]).toBe(init);
    m.toClient(ok(0, initResult()));
    expect(m.applied).toBe(0);
    expect((m.toServer(lreq(1, 'tools/list')) as Obj[])[0].id).toBe(0);
    expect(m.applied).toBe(1);
    expect((m.toClient(ok(0, { tools: [] })) as Obj[])[0].id).toBe(1);
    const n = note('notifications/initialized');
    expect(m.toServer(n)[0]).toBe(n);
  });

  it('jsonrpc.client-reuses-in-flight-id', () => {
    const m = mk('jsonrpc.client-reuses-in-flight-id');
    const a = req(1, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    expect(m.toServer(a)[0]).toBe(a);
    expect((m.toServer(req(2, 'tools/list')) as Obj[])[0].id).toBe(1);
    expect(m.applied).toBe(1);
    expect(m.toClient(ok(1, { resultType: 'complete', tools: [] }))).toEqual([ok(1, { resultType: 'complete', tools: [] })]);
    expect((m.toClient(ok(1, { resultType: 'complete' })) as Obj[])[0].id).toBe(2);
    // Nothing in flight now: a request keeps its id.
    const c = req(3, 'tools/call', { name: 'echo' });
    expect(m.toServer(c)[0]).toBe(c);
  });

  it('jsonrpc.client-notification-with-id', () => {
    const m = mk('jsonrpc.client-notification-with-id');
    const [out] = m.toServer(note('notifications/initialized')) as Obj[];
    expect(out.id).toBe('mcpspec-mutant-note-1');
    expect(m.applied).toBe(1);
    expect(m.toClient(ok('mcpspec-mutant-note-1'))).toEqual([]);
    const r = lreq(1, 'ping');
    expect(m.toServer(r)[0]).toBe(r);
  });

  it('jsonrpc.client-sends-response', () => {
    const m = mk('jsonrpc.client-sends-response');
    const retry = req(2, 'tools/call', { name: 'echo', inputResponses: { name: { action: 'accept', content: { name: 'x' } } }, requestState: 's' });
    const out = m.toServer(retry) as Obj[];
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual({ jsonrpc: '2.0', id: 'name', result: { action: 'accept', content: { name: 'x' } } });
    expect(out[1].id).toBe(2);
    expect(m.applied).toBe(1);
    const first = req(1, 'tools/call', { name: 'echo' });
    expect(m.toServer(first)[0]).toBe(first);
  });

  it.each([
    ['meta.client-no-protocol-version', 'io.modelcontextprotocol/protocolVersion'],
    ['meta.client-no-capabilities', 'io.modelcontextprotocol/clientCapabilities'],
    ['meta.client-no-client-info', 'io.modelcontextprotocol/clientInfo'],
  ])('%s', (id, key) => {
    const m = mk(id);
    const [out] = m.toServer(req(1, 'tools/list')) as Obj[];
    expect(out.params._meta).not.toHaveProperty(key);
    expect(m.applied).toBe(1);
    const legacy = lreq(2, 'tools/list');
    expect(m.toServer(legacy)[0]).toBe(legacy);
    if (id !== 'meta.client-no-client-info') {
      const discover = req(3, 'server/discover');
      expect(m.toServer(discover)[0]).toBe(discover);
    }
  });

  it('meta.client-bad-meta-key', () => {
    const m = mk('meta.client-bad-meta-key');
    const [out] = m.toServer(lreq(1, 'tools/list')) as Obj[];
    expect(out.params._meta['com.example.app/_requestTag']).toBe('mcpspec');
    expect(m.applied).toBe(1);
    const init = lreq(0, 'initialize', { protocolVersion: '2025-11-25' });
    expect(m.toServer(init)[0]).toBe(init);
  });

  it('versioning.client-header-missing / header-differs', () => {
    const body = req(1, 'tools/list');
    const m = mk('versioning.client-header-missing', 'http');
    expect(m.httpAsk(ask({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, body), sent(m, body)).headers).toEqual({ 'mcp-method': 'tools/list' });
    expect(m.applied).toBe(1);
    const d = mk('versioning.client-header-differs', 'http');
    expect(d.httpAsk(ask({ 'mcp-protocol-version': '2026-07-28' }, body), sent(d, body)).headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(d.applied).toBe(1);
    const legacy = lreq(2, 'ping');
    const l = ask({ 'mcp-protocol-version': '2025-11-25' }, legacy);
    expect(d.httpAsk(l, sent(d, legacy))).toBe(l);
  });

  it('versioning.client-retries-unsupported-version', () => {
    const m = mk('versioning.client-retries-unsupported-version');
    m.toServer(req(1, 'server/discover'));
    m.toClient(err(1, -32022, { supported: ['2025-11-25', '2025-06-18'], requested: '2026-07-28' }));
    expect(m.applied).toBe(0);
    const [init] = m.toServer(lreq(2, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} })) as Obj[];
    expect(init.params.protocolVersion).toBe('2026-07-28');
    expect(m.applied).toBe(1);
    const again = req(3, 'server/discover');
    expect(m.toServer(again)[0]).toBe(again);
  });

  it('versioning.client-skips-discover', () => {
    const m = mk('versioning.client-skips-discover');
    expect(m.toServer(req(1, 'server/discover'))).toEqual([]);
    expect(m.takeReplies()).toEqual([err(1, -32601)].map((e) => ({ ...e, error: { code: -32601, message: 'Method not found' } })));
    expect(m.applied).toBe(1);
    const list = req(2, 'tools/list');
    expect(m.toServer(list)[0]).toBe(list);
  });
});

describe('client-role mutations: HTTP headers', () => {
  const call = req(1, 'tools/call', { name: 'café', arguments: { text: 'hi', flag: true } });
  const headers = { 'mcp-method': 'tools/call', 'mcp-name': encodeHeaderValue('café'), 'mcp-param-text': 'hi', 'mcp-param-flag': 'true', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' };

  it('http.client-method-header-missing / name-header-missing / param-header-missing', () => {
    for (const [id, gone] of [
      ['http.client-method-header-missing', ['mcp-method']],
      ['http.client-name-header-missing', ['mcp-name']],
      ['http.client-param-header-missing', ['mcp-param-text', 'mcp-param-flag']],
    ] as const) {
      const m = mk(id, 'http');
      const out = m.httpAsk(ask({ ...headers }, call), sent(m, call));
      for (const g of gone) expect(out.headers).not.toHaveProperty(g);
      expect(Object.keys(out.headers)).toHaveLength(Object.keys(headers).length - gone.length);
      expect(m.applied).toBe(1);
      const n = note('notifications/cancelled', { requestId: 9 });
      const q = ask({ accept: 'application/json, text/event-stream' }, n);
      expect(m.httpAsk(q)).toBe(q);
    }
  });

  it('http.client-method-header-stale', () => {
    const m = mk('http.client-method-header-stale', 'http');
    const d = req(0, 'server/discover');
    const first = ask({ 'mcp-method': 'server/discover' }, d);
    expect(m.httpAsk(first, sent(m, d))).toBe(first);
    expect(m.httpAsk(ask({ ...headers }, call), sent(m, call)).headers['mcp-method']).toBe('server/discover');
    expect(m.applied).toBe(1);
    const same = ask({ 'mcp-method': 'tools/call' }, call);
    expect(m.httpAsk(same, m.seenFromClient(call))).toBe(same);
  });

  it('http.client-header-not-encoded', () => {
    const m = mk('http.client-header-not-encoded', 'http');
    expect(m.httpAsk(ask({ ...headers }, call), sent(m, call)).headers['mcp-name']).toBe('caf%C3%A9');
    expect(m.applied).toBe(1);
    const plain = ask({ 'mcp-name': 'echo' }, call);
    expect(m.httpAsk(plain, m.seenFromClient(call))).toBe(plain);
  });

  it('http.client-param-header-misformatted', () => {
    const m = mk('http.client-param-header-misformatted', 'http');
    const out = m.httpAsk(ask({ ...headers }, call), sent(m, call));
    expect(out.headers['mcp-param-text']).toBe('"hi"');
    expect(out.headers['mcp-param-flag']).toBe('True');
    expect(out.headers['mcp-name']).toBe(headers['mcp-name']);
    expect(m.applied).toBe(1);
    const ints = ask({ 'mcp-param-count': '42' }, call);
    expect(m.httpAsk(ints, m.seenFromClient(call))).toBe(ints);
  });

  it('http.client-accept-json-only', () => {
    const m = mk('http.client-accept-json-only', 'http');
    expect(m.httpAsk(ask({ ...headers }, call), sent(m, call)).headers.accept).toBe('application/json');
    expect(m.applied).toBe(1);
    const get = ask({ accept: 'text/event-stream' }, undefined, 'GET');
    expect(m.httpAsk(get)).toBe(get);
  });

  it('http.client-legacy-version-header-missing / drops-session-id', () => {
    for (const [id, header] of [
      ['http.client-legacy-version-header-missing', 'mcp-protocol-version'],
      ['http.client-drops-session-id', 'mcp-session-id'],
    ] as const) {
      const m = mk(id, 'http');
      const init = lreq(0, 'initialize', { protocolVersion: '2025-11-25' });
      const i = ask({ [header]: 'x' }, init);
      expect(m.httpAsk(i, sent(m, init))).toBe(i);
      const ping = lreq(1, 'ping');
      expect(m.httpAsk(ask({ [header]: 'x', accept: 'a' }, ping), sent(m, ping)).headers).toEqual({ accept: 'a' });
      expect(m.applied).toBe(1);
      const modern = req(2, 'tools/list');
      const q = ask({ [header]: 'x' }, modern);
      expect(m.httpAsk(q, sent(m, modern))).toBe(q);
    }
  });
});

describe('client-role mutations: legacy lifecycle', () => {
  const init = () => lreq(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'c', version: '1' } });

  it.each([
    ['lifecycle.client-no-client-info', (p: Obj) => expect(p).not.toHaveProperty('clientInfo')],
    ['lifecycle.client-no-capabilities', (p: Obj) => expect(p).not.toHaveProperty('capabilities')],
    ['lifecycle.client-offers-old-version', (p: Obj) => expect(p.protocolVersion).toBe('2025-03-26')],
  ] as const)('%s', (id, check) => {
    const m = mk(id);
    const [out] = m.toServer(init()) as Obj[];
    check(out.params);
    expect(m.applied).toBe(1);
    const ping = lreq(1, 'ping');
    expect(m.toServer(ping)[0]).toBe(ping);
  });

  it('lifecycle.client-keeps-unsupported-version', () => {
    const m = mk('lifecycle.client-keeps-unsupported-version');
    m.toServer(init());
    const [out] = m.toClient(ok(0, initResult({ tools: {} }, '2024-01-01'))) as Obj[];
    expect(out.result.protocolVersion).toBe('2025-11-25');
    expect(m.applied).toBe(1);
    m.toServer(init());
    expect(m.toClient(ok(0, initResult()))).toEqual([ok(0, initResult())]);
  });

  it('lifecycle.client-no-initialized', () => {
    const m = mk('lifecycle.client-no-initialized');
    expect(m.toServer(note('notifications/initialized'))).toEqual([]);
    expect(m.applied).toBe(1);
    const c = note('notifications/cancelled', { requestId: 1 });
    expect(m.toServer(c)[0]).toBe(c);
  });

  it('lifecycle.client-request-before-initialized', () => {
    const m = mk('lifecycle.client-request-before-initialized');
    const out = m.toServer(init()) as Obj[];
    expect(out.map((x) => x.method)).toEqual(['initialize', 'tools/list']);
    expect(m.applied).toBe(1);
    expect(m.toClient(ok(out[1].id, { tools: [] }))).toEqual([]);
    expect(m.toClient(ok(0, initResult()))).toEqual([ok(0, initResult())]);
  });

  it('lifecycle.client-cancels-initialize', () => {
    const m = mk('lifecycle.client-cancels-initialize');
    m.toServer(init());
    expect(m.applied).toBe(0);
    const out = m.toServer(note('notifications/initialized')) as Obj[];
    expect(out[0]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 0 } });
    expect(out[1].method).toBe('notifications/initialized');
    expect(m.applied).toBe(1);
    const ping = lreq(1, 'ping');
    expect(m.toServer(ping)[0]).toBe(ping);
  });

  it('lifecycle.client-answers-undeclared-request', () => {
    const m = mk('lifecycle.client-answers-undeclared-request');
    m.toServer(init());
    m.toClient(lreq('mcpspec-1', 'roots/list'));
    const [out] = m.toServer(err('mcpspec-1', -32601)) as Obj[];
    expect(out).toEqual(ok('mcpspec-1', { roots: [] }));
    expect(m.applied).toBe(1);
    m.toClient(lreq('mcpspec-2', 'sampling/createMessage', { messages: [], maxTokens: 1 }));
    const declared = err('mcpspec-2', -32603);
    expect(m.toServer(declared)[0]).toBe(declared);
  });

  it('lifecycle.client-uses-undeclared-capability', () => {
    const m = mk('lifecycle.client-uses-undeclared-capability');
    m.toServer(init());
    m.toClient(ok(0, initResult({ tools: {} })));
    expect(m.applied).toBe(0);
    const out = m.toServer(note('notifications/initialized')) as Obj[];
    expect(out[1]).toMatchObject({ method: 'logging/setLevel', params: { level: 'info' } });
    expect(m.toClient(ok(out[1].id))).toEqual([]);
    expect(m.applied).toBe(2);
    const n = mk('lifecycle.client-uses-undeclared-capability');
    n.toServer(init());
    n.toClient(ok(0, initResult({ tools: {}, logging: {} })));
    const i = note('notifications/initialized');
    expect(n.toServer(i)[0]).toBe(i);
  });

  it('lifecycle.client-ignores-ping', () => {
    const m = mk('lifecycle.client-ignores-ping');
    m.toClient(lreq('mcpspec-1', 'ping'));
    expect(m.toServer(ok('mcpspec-1'))).toEqual([]);
    expect(m.applied).toBe(1);
    m.toClient(lreq('mcpspec-2', 'roots/list'));
    const roots = ok('mcpspec-2', { roots: [] });
    expect(m.toServer(roots)[0]).toBe(roots);
  });
});

describe('client-role mutations: MRTR, cancellation, progress, pagination, resultType', () => {
  const first = () => req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
  const asked = ok(1, { resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create', params: {} } }, requestState: 's1 ' });
  const retry = (id = 2) => req(id, 'tools/call', { name: 'echo', arguments: { text: 'hi' }, inputResponses: { name: { action: 'accept', content: { name: 'x' } } }, requestState: 's1 ' });

  it('input-required.client-reuses-id', () => {
    const m = mk('input-required.client-reuses-id');
    m.toServer(first());
    m.toClient(asked);
    expect(m.applied).toBe(0);
    expect((m.toServer(retry()) as Obj[])[0].id).toBe(1);
    expect((m.toClient(ok(1, { resultType: 'complete', content: [] })) as Obj[])[0].id).toBe(2);
    expect(m.applied).toBe(2);
    const other = req(3, 'prompts/get', { name: 'greeting', requestState: 'x' });
    expect(m.toServer(other)[0]).toBe(other);
  });

  it('input-required.client-alters-request-state / drops-request-state / retries-without-inputs / input-keys-mismatch', () => {
    const cases: [string, (p: Obj) => void][] = [
      ['input-required.client-alters-request-state', (p) => expect(p.requestState).toBe('s1')],
      ['input-required.client-drops-request-state', (p) => expect(p).not.toHaveProperty('requestState')],
      ['input-required.client-retries-without-inputs', (p) => expect(p).not.toHaveProperty('inputResponses')],
      ['input-required.client-input-keys-mismatch', (p) => expect(Object.keys(p.inputResponses)).toEqual(['0'])],
    ];
    for (const [id, check] of cases) {
      const m = mk(id);
      const f = first();
      expect(m.toServer(f)[0]).toBe(f);
      const [out] = m.toServer(retry()) as Obj[];
      check(out.params);
      expect(m.applied).toBe(1);
    }
    const q = mk('input-required.client-alters-request-state');
    const [quoted] = q.toServer(req(2, 'tools/call', { name: 'echo', requestState: 'abc' })) as Obj[];
    expect(quoted.params.requestState).toBe('"abc"');
  });

  it('input-required.client-state-leaks', () => {
    const m = mk('input-required.client-state-leaks');
    m.toServer(first());
    m.toClient(asked);
    expect(m.applied).toBe(0);
    const [out] = m.toServer(req(2, 'prompts/get', { name: 'greeting' })) as Obj[];
    expect(out.params.requestState).toBe('s1 ');
    expect(m.applied).toBe(1);
    const same = req(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(m.toServer(same)[0]).toBe(same);
  });

  it('cancellation.client-cancels-never-sent', () => {
    const m = mk('cancellation.client-cancels-never-sent');
    const out = m.toServer(lreq(1, 'tools/list')) as Obj[];
    expect(out[0]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 'mcpspec-never-sent-1' } });
    expect(out[1].id).toBe(1);
    expect(m.applied).toBe(1);
    const again = lreq(2, 'tools/list');
    expect(m.toServer(again)[0]).toBe(again);
  });

  it('progress.client-reuses-progress-token', () => {
    const m = mk('progress.client-reuses-progress-token');
    const a = req(1, 'tools/call', { name: 'echo', _meta: { progressToken: 'a' } });
    expect(m.toServer(a)[0]).toBe(a);
    const [b] = m.toServer(req(2, 'tools/call', { name: 'echo', _meta: { progressToken: 'b' } })) as Obj[];
    expect(b.params._meta.progressToken).toBe('a');
    expect(m.applied).toBe(1);
    m.toClient(ok(1, { content: [] }));
    m.toClient(ok(2, { content: [] }));
    const c = req(3, 'tools/call', { name: 'echo', _meta: { progressToken: 'c' } });
    expect(m.toServer(c)[0]).toBe(c);
  });

  it('pagination.client-alters-cursor', () => {
    const m = mk('pagination.client-alters-cursor');
    const cursor = (c: string) => ((m.toServer(req(1, 'tools/list', { cursor: c })) as Obj[])[0].params.cursor as string);
    expect(cursor('2')).toBe('3');
    expect(cursor('a/b')).toBe('a%2Fb');
    expect(cursor('abc')).toBe('abc=');
    expect(m.applied).toBe(3);
    const plain = req(2, 'tools/list');
    expect(m.toServer(plain)[0]).toBe(plain);
  });

  it('pagination.client-stops-at-empty-cursor', () => {
    const m = mk('pagination.client-stops-at-empty-cursor');
    m.toServer(req(1, 'tools/list'));
    const [out] = m.toClient(ok(1, { resultType: 'complete', tools: [], nextCursor: '' })) as Obj[];
    expect(out.result).not.toHaveProperty('nextCursor');
    expect(m.applied).toBe(1);
    m.toServer(req(2, 'tools/list'));
    const more = ok(2, { tools: [], nextCursor: 'p2' });
    expect(m.toClient(more)).toEqual([more]);
  });

  it('result-type.client-accepts-unknown / rejects-missing', () => {
    const m = mk('result-type.client-accepts-unknown');
    m.toServer(first());
    const [out] = m.toClient(ok(1, { resultType: 'x-mcpspec-unknown', requestState: 'u' })) as Obj[];
    expect(out.result.resultType).toBe('input_required');
    expect(m.applied).toBe(1);
    m.toServer(req(2, 'tools/list'));
    expect(m.toClient(ok(2, { resultType: 'complete', tools: [] }))).toEqual([ok(2, { resultType: 'complete', tools: [] })]);

    const r = mk('result-type.client-rejects-missing');
    r.toServer(req(1, 'server/discover'));
    const [e] = r.toClient(ok(1, { supportedVersions: ['2026-07-28'], capabilities: {} })) as Obj[];
    expect(e.error.code).toBe(-32603);
    expect(r.applied).toBe(1);
    r.toServer(lreq(2, 'tools/list'));
    expect(r.toClient(ok(2, { tools: [] }))).toEqual([ok(2, { tools: [] })]);
  });
});

describe('client-role mutations: tasks and stdio framing', () => {
  const init = lreq(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
  const call = (id: number, name = 'echo') => lreq(id, 'tools/call', { name, arguments: {} });

  it('tasks.client-augments-undeclared', () => {
    const m = mk('tasks.client-augments-undeclared');
    m.toServer(init);
    m.toClient(ok(0, initResult({ tools: {} })));
    const [out] = m.toServer(call(1)) as Obj[];
    expect(out.params.task).toEqual({ ttl: 60_000 });
    expect(m.applied).toBe(1);
    const n = mk('tasks.client-augments-undeclared');
    n.toServer(init);
    n.toClient(ok(0, initResult({ tools: {}, tasks: { requests: { tools: { call: {} } } } })));
    const c = call(1);
    expect(n.toServer(c)[0]).toBe(c);
  });

  it('tasks.client-augments-forbidden-tool', () => {
    const m = mk('tasks.client-augments-forbidden-tool');
    m.toServer(init);
    m.toClient(ok(0, initResult({ tools: {}, tasks: { requests: { tools: { call: {} } } } })));
    m.toServer(lreq(1, 'tools/list'));
    m.toClient(ok(1, { tools: [TOOL, { ...TOOL, name: 'slow', execution: { taskSupport: 'optional' } }] }));
    expect(m.applied).toBe(0);
    expect((m.toServer(call(2)) as Obj[])[0].params.task).toEqual({ ttl: 60_000 });
    expect(m.applied).toBe(1);
    const slow = call(3, 'slow');
    expect(m.toServer(slow)[0]).toBe(slow);
  });

  it('tasks.client-polls-undeclared', () => {
    const m = mk('tasks.client-polls-undeclared');
    const get = req(1, 'tasks/get', { taskId: 't1', _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    const [out] = m.toServer(get) as Obj[];
    expect(out.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({});
    expect(m.applied).toBe(1);
    const c = req(2, 'tools/call', { name: 'echo', _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    expect(m.toServer(c)[0]).toBe(c);
  });

  it('tasks.client-cancels-with-notification', () => {
    const m = mk('tasks.client-cancels-with-notification');
    m.toServer(req(1, 'tools/call', { name: 'echo' }));
    m.toClient(ok(1, { resultType: 'task', taskId: 't1', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: null }));
    expect(m.applied).toBe(0);
    const out = m.toServer(req(2, 'tasks/cancel', { taskId: 't1' })) as Obj[];
    expect(out).toEqual([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'User cancelled' } }]);
    expect(m.takeReplies()).toEqual([ok(2, { resultType: 'complete' })]);
    expect(m.applied).toBe(1);
    const unknown = req(3, 'tasks/cancel', { taskId: 'other' });
    expect(m.toServer(unknown)[0]).toBe(unknown);
  });

  it('tasks.client-ignores-poll-interval', () => {
    const m = mk('tasks.client-ignores-poll-interval');
    const out = m.toServer(req(1, 'tasks/get', { taskId: 't1' })) as Obj[];
    expect(out).toHaveLength(2);
    expect(out[1]).toMatchObject({ method: 'tasks/get', id: 'mcpspec-mutant-poll-1', params: { taskId: 't1' } });
    expect(m.toClient(ok('mcpspec-mutant-poll-1', { resultType: 'complete' }))).toEqual([]);
    expect(m.toClient(ok(1, { resultType: 'complete' }))).toEqual([ok(1, { resultType: 'complete' })]);
    const c = req(2, 'tasks/cancel', { taskId: 't1' });
    expect(m.toServer(c)[0]).toBe(c);
  });

  it('stdio.client-pretty-printed / client-noise-on-stdin', () => {
    const m = mk('stdio.client-pretty-printed');
    const list = req(1, 'tools/list');
    const [out] = m.toServer(list) as { raw: string }[];
    expect(out.raw.split('\n').length).toBeGreaterThan(3);
    expect(JSON.parse(out.raw)).toEqual(list);
    expect(m.applied).toBe(1);
    const c = req(2, 'tools/call', { name: 'echo' });
    expect(m.toServer(c)[0]).toBe(c);

    const n = mk('stdio.client-noise-on-stdin');
    const out2 = n.toServer(list);
    expect(out2[0]).toEqual({ raw: 'client: connecting\n' });
    expect(out2[1]).toEqual(list);
    expect(n.applied).toBe(1);
    expect(n.toServer(c)[0]).toBe(c);
  });
});

describe('through the HTTP proxy (a small upstream: JSON answers, SSE for tools/call, 202 for notifications, 405 for GET and DELETE)', () => {
  let upstream: Server;
  let url = '';
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        const msg = JSON.parse(body) as Obj;
        if (!('id' in msg)) {
          res.writeHead(202).end();
          return;
        }
        if (msg.method === 'tools/call') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`data: ${JSON.stringify(note('notifications/progress', { progressToken: 1, progress: 1 }))}\n\n`);
          res.end(`data: ${JSON.stringify(ok(msg.id, { resultType: 'complete', content: [] }))}\n\n`);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ok(msg.id, { resultType: 'complete' })));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

  async function via(id: string, requests: { method?: string; headers?: Record<string, string>; body?: unknown }[]): Promise<{ status: number; type: string | null; text: string }[]> {
    const proxy = new MutatingHttpProxy(mk(id, 'http'), url);
    const at = await proxy.listen();
    try {
      const out = [];
      for (const r of requests) {
        const res = await fetch(at, { method: r.method ?? 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...r.headers }, body: r.body === undefined ? undefined : JSON.stringify(r.body) });
        out.push({ status: res.status, type: res.headers.get('content-type'), text: await res.text() });
      }
      return out;
    } finally {
      await proxy.close();
    }
  }

  it('http.legacy-event-ids-repeat numbers the events of each stream from 1', async () => {
    const [a, b] = await via('http.legacy-event-ids-repeat', [{ body: lreq(1, 'tools/call', { name: 'echo' }) }, { body: lreq(2, 'tools/call', { name: 'echo' }) }]);
    for (const r of [a, b]) expect([...r.text.matchAll(/^id: (\d+)$/gm)].map((x) => x[1])).toEqual(['1', '2']);
  });

  it('http.header-sentinel-not-decoded refuses on an SSE answer too (the error is the stream\'s response)', async () => {
    const [sse, json] = await via('http.header-sentinel-not-decoded', [
      { body: req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }), headers: { 'Mcp-Param-Text': '=?base64?aGk=?=' } },
      { body: req(2, 'prompts/get', { name: 'greeting' }), headers: { 'Mcp-Name': '=?base64?Z3JlZXRpbmc=?=' } },
    ]);
    expect(sse.text).toContain('-32020');
    expect(sse.text).toContain('notifications/progress');
    expect(json.status).toBe(400);
    expect(JSON.parse(json.text).error.code).toBe(-32020);
  });

  it('http.sse-carries-request turns a JSON answer into a stream with a ping first', async () => {
    const [r] = await via('http.sse-carries-request', [{ body: req(1, 'resources/read', { uri: 'x:/a' }) }]);
    expect(r.type).toContain('text/event-stream');
    const data = [...r.text.matchAll(/^data: (.*)$/gm)].map((x) => JSON.parse(x[1]) as Obj);
    expect(data.map((d) => d.method ?? d.id)).toEqual(['ping', 1]);
  });

  it('answers the proxy makes up: 202 with a body, GET 200 JSON, DELETE 200 empty, GET as an old SSE stream', async () => {
    const [accepted] = await via('http.notification-202-with-body', [{ body: note('notifications/initialized') }]);
    expect(accepted).toMatchObject({ status: 202, text: 'Accepted' });
    const [get] = await via('http.get-200-json', [{ method: 'GET', headers: { accept: 'text/event-stream' } }]);
    expect(get).toMatchObject({ status: 200, type: 'application/json', text: '{"status":"ok"}' });
    const [, del] = await via('http.modern-delete-200', [{ body: req(1, 'server/discover') }, { method: 'DELETE' }]);
    expect(del).toMatchObject({ status: 200, text: '' });
    const [old] = await via('http.old-sse-transport-on-get', [{ method: 'GET', headers: { accept: 'text/event-stream' } }]);
    expect(old.type).toContain('text/event-stream');
    expect(old.text).toContain('event: endpoint');
  });
});

describe('the HTTP proxy and the Host header', () => {
  it('names the upstream in the Host it forwards, unless the client chose another site on purpose (a DNS-rebinding probe)', async () => {
    const seen: string[] = [];
    const upstream = createServer((q, r) => {
      seen.push(q.headers.host ?? '');
      q.resume();
      q.on('end', () => r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ok(1))));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    const upstreamHost = `127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const proxy = new MutatingHttpProxy(mk('http.origin-not-checked', 'http'), `http://${upstreamHost}/mcp`);
    const at = new URL(await proxy.listen());
    const post = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const q = httpRequest(at, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => (res.resume(), res.on('end', () => resolve(res.statusCode ?? 0))));
        q.on('error', reject);
        q.end(JSON.stringify(lreq(1, 'ping')));
      });
    try {
      expect(await post({})).toBe(200);
      expect(await post({ Host: 'evil.example.com' })).toBe(200);
      expect(seen).toEqual([upstreamHost, 'evil.example.com']);
    } finally {
      await proxy.close();
      await new Promise<void>((r) => upstream.close(() => r()));
    }
  });
});
