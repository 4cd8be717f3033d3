import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { BackgroundReads } from '../../runner/background-reads.js';
import { HttpTransport } from '../../runner/http-transport.js';
import { decodeHeaderValue, encodeHeaderValue } from '../../protocol/http-headers.js';
import { TargetStartError } from '../../runner/transport.js';
import { startFakeHttp, type FakeHttp } from './fake-http-server.js';
import { req } from './helpers.js';

const servers: FakeHttp[] = [];
async function fake(opts: Parameters<typeof startFakeHttp>[0]): Promise<FakeHttp> {
  const s = await startFakeHttp(opts);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A legacy transport with a session already established. */
async function legacyTransport(s: FakeHttp): Promise<HttpTransport> {
  const t = new HttpTransport({ url: s.url });
  await t.open();
  await t.exchange(req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }), {
    expectId: 0,
    timeoutMs: 3000,
  });
  return t;
}

describe('HttpTransport', () => {
  it('sends the content-negotiation headers and reads a JSON response', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange(req(1, 'echo/headers'), { expectId: 1, timeoutMs: 3000 });
    expect(r.http?.status).toBe(200);
    expect(r.http?.contentType).toBe('application/json');
    const headers = (r.response as { result: { headers: Record<string, string> } }).result.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers.accept).toBe('application/json, text/event-stream');
    expect(r.messages).toHaveLength(1);
  });

  it('captures the session id from initialize and echoes it on later requests', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    expect(t.getSessionId()).toBe('sess-123');
    t.setProtocolVersionHeader('2025-11-25');
    await t.exchange(req(1, 'echo/headers'), { expectId: 1, timeoutMs: 3000 });
    const last = s.seen.at(-1);
    expect(last?.headers['mcp-session-id']).toBe('sess-123');
    expect(last?.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(t.recorder.events().some((e) => e.note === 'session-id')).toBe(true);
  });

  it('collects every SSE message until the response (notification first)', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange(req(2, 'sse/progress'), { expectId: 2, timeoutMs: 3000 });
    expect(r.timedOut).toBe(false);
    expect(r.http?.contentType).toBe('text/event-stream');
    expect(r.messages.map((m) => (m as { method?: string }).method ?? 'response')).toEqual(['notifications/progress', 'response']);
    expect(r.response).toEqual({ jsonrpc: '2.0', id: 2, result: { done: true } });
    const ev = t.recorder.events().find((e) => e.kind === 'message' && e.dir === 'in' && e.data?.sseId === '1');
    expect(ev?.data?.sseEvent).toBe('message');
  });

  it('keeps what came in the same read as the response, behind it: recorded after it and among the messages, not the seqs', async () => {
    const response = { jsonrpc: '2.0', id: 4, result: { tools: [] } };
    const late = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 2 } };
    const server = createHttpServer((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/event-stream' });
      r.end(`event: message\ndata: ${JSON.stringify(response)}\n\nevent: message\ndata: ${JSON.stringify(late)}\n\n`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const t = new HttpTransport({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp` });
      const r = await t.exchange(req(4, 'tools/list'), { expectId: 4, timeoutMs: 3000 });
      expect(r.response).toEqual(response);
      expect(r.messages).toEqual([response, late]);
      const events = t.recorder.events().filter((e) => e.dir === 'in' && e.kind === 'message');
      const [answer, after] = [events.find((e) => (e.message as { id?: number }).id === 4)!, events.find((e) => (e.message as { method?: string }).method === late.method)!];
      expect(after.seq).toBeGreaterThan(answer.seq);
      expect(after.data?.afterResponse).toBe(true);
      expect(r.seq).not.toContain(after.seq);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('modern: a session id the server hands out is noted, never echoed (2026-07-28 has no sessions)', async () => {
    const seen: (string | undefined)[] = [];
    const server = createHttpServer((q, r) => {
      seen.push(q.headers['mcp-session-id'] as string | undefined);
      q.resume();
      q.on('end', () => r.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'minted-1' }).end(JSON.stringify({ jsonrpc: '2.0', id: seen.length, result: {} })));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const t = new HttpTransport({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp` });
      t.setModernHeaders(true);
      await t.exchange(req(1, 'tools/list'), { expectId: 1, timeoutMs: 3000 });
      await t.exchange(req(2, 'tools/list'), { expectId: 2, timeoutMs: 3000 });
      expect(seen).toEqual([undefined, undefined]);
      expect(t.recorder.events().some((e) => e.note === 'session-id')).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('stops reading an SSE stream once the response arrived', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange(req(3, 'sse/linger'), { expectId: 3, timeoutMs: 5000 });
    expect(r.timedOut).toBe(false);
    expect(r.elapsedMs).toBeLessThan(2000);
    expect((r.response as { result: unknown }).result).toEqual({ lingering: true });
  });

  it('keeps the connection of an SSE stream the server ends after its response', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    for (const id of [6, 7, 8]) {
      expect((await t.exchange(req(id, 'sse/progress'), { expectId: id, timeoutMs: 3000 })).response).toBeDefined();
      await new Promise((r) => setTimeout(r, 50)); // the stream's end follows its response by a moment
    }
    expect(s.connections).toBe(1); // the initialize and all three streams on one kept-alive connection
  });

  it('an SSE stream that stays open after its response does not hold up the exchange; the next goes on a new connection', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    expect((await t.exchange(req(9, 'sse/linger'), { expectId: 9, timeoutMs: 5000 })).response).toBeDefined();
    const r = await t.exchange(req(10, 'sse/progress'), { expectId: 10, timeoutMs: 3000 });
    expect(r.response).toEqual({ jsonrpc: '2.0', id: 10, result: { done: true } });
    expect(s.connections).toBe(2);
  });

  it('resumes a legacy SSE answer the server closed before its response: waits its retry, then GET with Last-Event-ID (HL-04)', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange(req(21, 'sse/poll'), { expectId: 21, timeoutMs: 3000 });
    expect(r.response).toEqual({ jsonrpc: '2.0', id: 21, result: { resumed: true } });
    expect(r.streamBroken).toBeUndefined();
    expect(r.http?.eventIds).toEqual(['p-21', 'p-21-2']);
    expect(r.http?.resumed).toEqual([{ afterEventId: 'p-21', retryMs: 150, status: 200, answered: true }]);
    const get = s.seen.at(-1)!;
    expect(get.method).toBe('GET');
    expect(get.headers['last-event-id']).toBe('p-21');
    expect(get.headers['mcp-session-id']).toBe('sess-123');
    expect(r.elapsedMs).toBeGreaterThanOrEqual(140); // the server's retry (150 ms) was respected
    expect(t.recorder.events().some((e) => e.note === 'stream-resumed')).toBe(true);
  });

  it('a modern stream is not resumed (HM-05): it is broken, and the session sends the request again', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    t.setModernHeaders(true);
    // (A modern transport sends no session id of its own; this fake's sse/poll sits behind its legacy session.)
    const sid = t.recorder.events().find((e) => e.note === 'session-id')!.data!.sessionId as string;
    const r = await t.exchange(req(22, 'sse/poll'), { expectId: 22, timeoutMs: 3000, headers: { 'Mcp-Session-Id': sid } });
    expect(r.response).toBeUndefined();
    expect(r.streamBroken).toBe(true);
    expect(s.seen.some((x) => x.method === 'GET')).toBe(false);
  });

  it('a resumption the server refuses leaves the stream broken, with the refusal recorded', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange(req(23, 'sse/poll-lost'), { expectId: 23, timeoutMs: 3000 });
    expect(r.response).toBeUndefined();
    expect(r.streamBroken).toBe(true);
    expect(s.seen.filter((x) => x.method === 'GET').map((x) => x.headers['last-event-id'])).toEqual(['lost-23']);
    expect(r.http?.resumed).toEqual([{ afterEventId: 'lost-23', retryMs: 50, status: 405, refused: true }]);
    expect(t.recorder.events().some((e) => e.kind === 'http-response' && e.http?.method === 'GET' && e.http.status === 405)).toBe(true);
  });

  it('legacy: opens the standalone GET stream on request, answers a server request on it, and ends it on close (HL-05)', async () => {
    const s = await fake({ mode: 'legacy', standalone: true });
    const t = await legacyTransport(s);
    t.onServerRequest = (req) => ({ jsonrpc: '2.0', id: req.id, result: { roots: [] } });
    expect(await t.openStandaloneStream(3000)).toEqual({ status: 200, contentType: 'text/event-stream' });
    for (let i = 0; i < 50 && !s.seen.some((x) => x.json?.id === 'g1'); i++) await new Promise((r) => setTimeout(r, 20));
    // The reply went back as a POST, in the session; the question is recorded as from the GET stream.
    const reply = s.seen.find((x) => x.json?.id === 'g1')!;
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 'g1', result: { roots: [] } });
    expect(reply.headers['mcp-session-id']).toBe('sess-123');
    expect(t.recorder.events().find((e) => e.dir === 'in' && e.kind === 'message' && (e.message as { id?: string }).id === 'g1')?.data?.stream).toBe('get');
    await t.close();
  });

  it('a server without a standalone stream (405): nothing is opened', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    expect(await t.openStandaloneStream(3000)).toEqual({ status: 405 });
    t.setModernHeaders(true);
    expect(await t.openStandaloneStream(3000)).toBeUndefined(); // 2026-07-28 has no such stream
  });

  it('tells whether an SSE answer was primed with an event id and empty data (HL-04)', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const primed = await t.exchange(req(11, 'sse/progress'), { expectId: 11, timeoutMs: 3000 });
    const unprimed = await t.exchange(req(12, 'sse/unprimed'), { expectId: 12, timeoutMs: 3000 });
    expect(primed.http?.ssePrimed).toBe(true);
    expect(unprimed.http?.ssePrimed).toBe(false);
    expect(unprimed.response).toEqual({ jsonrpc: '2.0', id: 12, result: { primed: false } });
    // A JSON answer has no stream to prime.
    expect((await t.exchange(req(13, 'echo/headers'), { expectId: 13, timeoutMs: 3000 })).http?.ssePrimed).toBeUndefined();
  });

  it('an SSE stream ended after its response is "ended"; one still open at the request timeout is "open", known once the reads settle', async () => {
    const s = await fake({ mode: 'legacy' });
    const reads = new BackgroundReads();
    const t = new HttpTransport({ url: s.url }, undefined, { backgroundReads: reads });
    await t.exchange(req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }), { expectId: 0, timeoutMs: 3000 });
    const ended = await t.exchange(req(1, 'sse/progress'), { expectId: 1, timeoutMs: 3000 });
    const began = Date.now();
    const open = await t.exchange(req(2, 'sse/linger'), { expectId: 2, timeoutMs: 600 });
    // The exchange came back with its answer at once; the stream's fate is not known yet.
    expect(open.response).toEqual({ jsonrpc: '2.0', id: 2, result: { lingering: true } });
    expect(open.http?.sseAfterAnswer).toBeUndefined();
    expect(reads.size).toBe(1);
    await reads.settled();
    expect(Date.now() - began).toBeGreaterThanOrEqual(550); // never decided before the request's timeout
    expect(ended.http?.sseAfterAnswer).toBe('ended');
    expect(open.http?.sseAfterAnswer).toBe('open');
    expect(t.recorder.events().some((e) => e.note === 'stream-open')).toBe(true);
  });

  it('a late answer gets a whole timeout for its stream to end: ending it after the request timeout has passed is still "ended"', async () => {
    const s = await fake({ mode: 'legacy' });
    const reads = new BackgroundReads();
    const t = new HttpTransport({ url: s.url }, undefined, { backgroundReads: reads });
    await t.exchange(req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }), { expectId: 0, timeoutMs: 3000 });
    // Answered at 500 ms of a 700 ms timeout; the stream ends 400 ms later, past the request's timeout.
    const late = await t.exchange(req(3, 'sse/late-end', { answerMs: 500, endMs: 400 }), { expectId: 3, timeoutMs: 700 });
    expect(late.response).toEqual({ jsonrpc: '2.0', id: 3, result: { late: true } });
    await reads.settled();
    expect(late.http?.sseAfterAnswer).toBe('ended');
  });

  it('the run ending leaves a stream still open after its answer unknown, at once', async () => {
    const s = await fake({ mode: 'legacy' });
    const reads = new BackgroundReads();
    const t = new HttpTransport({ url: s.url }, undefined, { backgroundReads: reads });
    await t.exchange(req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }), { expectId: 0, timeoutMs: 3000 });
    const open = await t.exchange(req(2, 'sse/linger'), { expectId: 2, timeoutMs: 60_000 });
    const run = new AbortController();
    const began = Date.now();
    setTimeout(() => run.abort(), 100);
    await reads.settled(run.signal);
    expect(Date.now() - began).toBeLessThan(2000);
    expect(open.http?.sseAfterAnswer).toBeUndefined();
  });

  it('without a registry, a stream still open a moment after its answer is cut at once, its end unknown', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const open = await t.exchange(req(2, 'sse/linger'), { expectId: 2, timeoutMs: 60_000 });
    const began = Date.now();
    await t.close();
    expect(Date.now() - began).toBeLessThan(2000);
    expect(open.http?.sseAfterAnswer).toBeUndefined();
  });

  it('times out an SSE stream that never answers, keeping what arrived', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange(req(4, 'sse/hang'), { expectId: 4, timeoutMs: 400 });
    expect(r.timedOut).toBe(true);
    expect(r.elapsedMs).toBeLessThan(1500);
    expect(r.messages).toHaveLength(1);
    expect(t.recorder.incidents().some((f) => f.type === 'timeout')).toBe(true);
  });

  it('times out a request whose response headers never come', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange(req(5, 'json/hang'), { expectId: 5, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.http).toBeUndefined();
  });

  it('ends a notification with 202 and an empty body', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange({ jsonrpc: '2.0', method: 'notifications/initialized' }, { timeoutMs: 3000 });
    expect(r.http?.status).toBe(202);
    expect(r.http?.body).toBe('');
    expect(r.messages).toEqual([]);
    expect(r.timedOut).toBe(false);
  });

  it('answers a server->client request inside an SSE stream by POSTing the reply', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    t.onServerRequest = (r) => ({ jsonrpc: '2.0', id: r.id, result: { roots: [{ uri: 'file:///tmp' }] } });
    const r = await t.exchange(req(6, 'sse/server-request'), { expectId: 6, timeoutMs: 3000 });
    expect((r.response as { result: { reply: unknown } }).result.reply).toEqual({
      jsonrpc: '2.0',
      id: 's1',
      result: { roots: [{ uri: 'file:///tmp' }] },
    });
    const replyPost = s.seen.find((x) => x.json?.id === 's1');
    expect(replyPost?.headers['mcp-session-id']).toBe('sess-123');
  });

  it('sends DELETE on close for a legacy session and ignores 405', async () => {
    for (const deleteStatus of [200, 405]) {
      const s = await fake({ mode: 'legacy', deleteStatus });
      const t = await legacyTransport(s);
      expect(await t.close()).toBeUndefined();
      const del = s.seen.find((x) => x.method === 'DELETE');
      expect(del?.headers['mcp-session-id']).toBe('sess-123');
      expect(t.getSessionId()).toBeUndefined();
    }
  });

  it('does not send DELETE without a session', async () => {
    const s = await fake({ mode: 'modern' });
    const t = new HttpTransport({ url: s.url });
    await t.close();
    expect(s.seen).toHaveLength(0);
  });

  it('lets per-exchange headers override or remove transport headers', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    t.setProtocolVersionHeader('2025-11-25');
    await t.exchange(req(7, 'echo/headers'), {
      expectId: 7,
      timeoutMs: 3000,
      headers: { 'mcp-protocol-version': undefined, 'Content-Type': 'application/json; charset=utf-8', 'X-Extra': 'yes' },
    });
    const h = s.seen.at(-1)?.headers ?? {};
    expect(h['mcp-protocol-version']).toBeUndefined();
    expect(h['content-type']).toBe('application/json; charset=utf-8');
    expect(h['x-extra']).toBe('yes');
    expect(h['mcp-session-id']).toBe('sess-123');
  });

  it('adds modern Mcp-Method / Mcp-Name headers, base64-encoding unsafe names', async () => {
    const s = await fake({ mode: 'modern' });
    const t = new HttpTransport({ url: s.url });
    t.setModernHeaders(true);
    t.setProtocolVersionHeader('2026-07-28');
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const plain = await t.exchange(req(1, 'tools/call', { name: 'get_weather', _meta: meta }), { expectId: 1, timeoutMs: 3000 });
    expect((plain.response as { result: { mcpName: string } }).result.mcpName).toBe('get_weather');
    expect(s.seen.at(-1)?.headers['mcp-method']).toBe('tools/call');

    const fancy = await t.exchange(req(2, 'tools/call', { name: 'Hello, 世界', _meta: meta }), { expectId: 2, timeoutMs: 3000 });
    expect((fancy.response as { result: { mcpName: string } }).result.mcpName).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');

    const uri = await t.exchange(req(3, 'resources/read', { uri: 'file:///a b.txt', _meta: meta }), { expectId: 3, timeoutMs: 3000 });
    expect((uri.response as { result: { mcpName: string } }).result.mcpName).toBe('file:///a b.txt');

    // no Mcp-Name for methods without a name source, and none on notifications
    await t.exchange(req(4, 'echo/headers', { _meta: meta }), { expectId: 4, timeoutMs: 3000 });
    expect(s.seen.at(-1)?.headers['mcp-name']).toBeUndefined();
    await t.exchange({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }, { timeoutMs: 3000 });
    expect(s.seen.at(-1)?.headers['mcp-method']).toBeUndefined();

    // a mismatching header override reaches the server (header-mismatch tests)
    const bad = await t.exchange(req(5, 'tools/call', { name: 'x', _meta: meta }), {
      expectId: 5,
      timeoutMs: 3000,
      headers: { 'Mcp-Method': 'tools/list' },
    });
    expect(bad.http?.status).toBe(400);
    expect((bad.response as { error: { code: number } }).error.code).toBe(-32020);
  });

  it('throws a clear error for a header value that cannot go on the wire (a test bug, not a target failure)', async () => {
    const s = await fake({ mode: 'modern' });
    const t = new HttpTransport({ url: s.url });
    const err = await t.exchange(req(1, 'x'), { expectId: 1, timeoutMs: 1000, headers: { 'Mcp-Name': 'a\nb' } }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(TargetStartError);
    expect((err as Error).message).toMatch(/^invalid HTTP header in exchange options/);
  });

  it('sends nothing for a header an override removes (no Accept: */* filled in), and keeps header-name case', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    await t.exchange(req(1, 'echo/headers'), { expectId: 1, timeoutMs: 3000, headers: { Accept: undefined, 'X-Odd-CASE': 'v' } });
    const seen = s.seen.at(-1)!;
    expect(seen.headers.accept).toBeUndefined();
    expect(seen.headers['user-agent']).toBeUndefined();
    expect(seen.headers['x-odd-case']).toBe('v');
  });

  it('follows a 307/308 redirect with the same method and body, as fetch did', async () => {
    const s = await fake({ mode: 'legacy' });
    const hop = createHttpServer((q, r) => r.writeHead(q.url === '/mcp' ? 307 : 308, { location: q.url === '/mcp' ? '/mcp/' : s.url }).end());
    await new Promise<void>((r) => hop.listen(0, '127.0.0.1', r));
    try {
      const port = (hop.address() as { port: number }).port;
      const t = new HttpTransport({ url: `http://127.0.0.1:${port}/mcp` });
      const init = req(3, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
      const r = await t.exchange(init, { expectId: 3, timeoutMs: 3000 });
      expect(r.response).toMatchObject({ id: 3, result: { protocolVersion: '2025-11-25' } });
      expect(s.seen.at(-1)?.method).toBe('POST');
      expect(s.seen.at(-1)?.json).toMatchObject({ id: 3, method: 'initialize' });
    } finally {
      await new Promise((r) => hop.close(r));
    }
  });

  it('a redirect to another origin does not carry the configured credentials there (as fetch does)', async () => {
    const s = await fake({ mode: 'legacy' });
    const seen: Record<string, string | string[] | undefined>[] = [];
    const hop = createHttpServer((q, r) => {
      seen.push(q.headers);
      r.writeHead(307, { location: s.url }).end();
    });
    await new Promise<void>((r) => hop.listen(0, '127.0.0.1', r));
    try {
      const port = (hop.address() as { port: number }).port;
      const t = new HttpTransport({ url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer secret-token-1', Cookie: 'c=1', 'X-Other': 'kept' } });
      const init = req(3, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
      expect((await t.exchange(init, { expectId: 3, timeoutMs: 3000 })).response).toMatchObject({ id: 3 });
      expect(seen[0].authorization).toBe('Bearer secret-token-1');
      const arrived = s.seen.at(-1)!.headers;
      expect([arrived.authorization, arrived.cookie, arrived['x-other']]).toEqual([undefined, undefined, 'kept']);
    } finally {
      await new Promise((r) => hop.close(r));
    }
  });

  it('sends configured target headers but redacts credentials in the recording', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = new HttpTransport({ url: s.url, headers: { Authorization: 'Bearer s3cret' } });
    await t.exchange(req(1, 'tools/list'), { expectId: 1, timeoutMs: 3000 });
    expect(s.seen.at(-1)?.headers.authorization).toBe('Bearer s3cret');
    expect(JSON.stringify(t.recorder.toJSON())).not.toContain('s3cret');
  });

  it('encodes header values per the sentinel rules', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(encodeHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
    expect(encodeHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    expect(decodeHeaderValue(encodeHeaderValue('Hello, 世界'))).toBe('Hello, 世界');
  });

  it('keeps an id-less JSON-RPC error from a 400 as the response', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = new HttpTransport({ url: s.url });
    const r = await t.exchange(req(1, 'tools/list'), { expectId: 1, timeoutMs: 3000 });
    expect(r.http?.status).toBe(400);
    expect(r.response).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } });
  });

  it('rejects the first request with TargetStartError when nothing listens', async () => {
    // find a free port, then close it so the connection is refused
    const port = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const t = new HttpTransport({ url: `http://127.0.0.1:${port}/mcp` });
    const err = await t.exchange(req(1, 'initialize'), { expectId: 1, timeoutMs: 3000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetStartError);
    expect((err as Error).message).toBe(`cannot reach http://127.0.0.1:${port}/mcp: connection refused`);
  });

  it('reports a lost connection after the server was reachable as closed', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    await s.close();
    servers.splice(servers.indexOf(s), 1);
    const r = await t.exchange(req(1, 'echo/headers'), { expectId: 1, timeoutMs: 3000 });
    expect(r.closed).toBeDefined();
    expect(r.closed?.lastSent).toContain('echo/headers');
  });

  it('waits the whole timeout: a slow JSON answer is received', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const r = await t.exchange(req(1, 'json/delay', { ms: 600 }), { expectId: 1, timeoutMs: 1200 });
    expect(r.timedOut).toBe(false);
    expect(r.response).toEqual({ jsonrpc: '2.0', id: 1, result: { delayedMs: 600 } });
  });

  it('a timed-out request does not hand its late answer to the next one', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const late = await t.exchange(req(1, 'json/delay', { ms: 400 }), { expectId: 1, timeoutMs: 150 });
    expect(late.timedOut).toBe(true);
    expect(late.response).toBeUndefined();
    const next = await t.exchange(req(2, 'json/delay', { ms: 500 }), { expectId: 2, timeoutMs: 3000 });
    expect(next.response).toEqual({ jsonrpc: '2.0', id: 2, result: { delayedMs: 500 } });
  });

  it('answers to concurrent requests each come back on their own response', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const [slow, fast] = await Promise.all([
      t.exchange(req(1, 'json/delay', { ms: 300 }), { expectId: 1, timeoutMs: 3000 }),
      t.exchange(req(2, 'json/delay', { ms: 10 }), { expectId: 2, timeoutMs: 3000 }),
    ]);
    expect((slow.response as { id: number }).id).toBe(1);
    expect((fast.response as { id: number }).id).toBe(2);
  });

  it('attributes an id-less answer on its own HTTP response to an id-less probe', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const [a, b] = await Promise.all([
      t.exchange('{broken', { idless: true, timeoutMs: 3000 }),
      t.exchange('{broken too', { idless: true, timeoutMs: 3000 }),
    ]);
    for (const r of [a, b]) {
      expect(r.http?.status).toBe(400);
      expect(r.response).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    }
  });

  it('ends a wait at once when the signal fires', async () => {
    const s = await fake({ mode: 'legacy' });
    const t = await legacyTransport(s);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const [headers, stream] = await Promise.all([
      t.exchange(req(1, 'json/hang'), { expectId: 1, timeoutMs: 10_000, signal: ac.signal }),
      t.exchange(req(2, 'sse/hang'), { expectId: 2, timeoutMs: 10_000, signal: ac.signal }),
    ]);
    for (const r of [headers, stream]) {
      expect(r.aborted).toBe(true);
      expect(r.timedOut).toBe(false);
      expect(r.elapsedMs).toBeLessThan(1000);
    }
    expect(stream.messages).toHaveLength(1); // what arrived before the abort is kept
    expect(t.recorder.incidents().filter((f) => f.type === 'timeout')).toEqual([]);
    const pre = await t.exchange(req(3, 'echo/headers'), { expectId: 3, timeoutMs: 3000, signal: ac.signal });
    expect(pre.aborted).toBe(true);
  });
});
