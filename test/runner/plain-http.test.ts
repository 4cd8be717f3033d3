import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { plainHttp } from '../../runner/plain-http.js';
import { Recorder } from '../../runner/recorder.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server on 127.0.0.1 that records each request's headers and answers with `handle`. */
async function serve(handle: (req: IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<{ origin: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const s = createServer((req, res) => {
    seen.push(req);
    handle(req, res);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(s.address() as { port: number }).port}`, seen };
}

const options = (endpoint: string, recorder = new Recorder(), timeoutMs = 3000) => ({
  endpoint,
  targetHeaders: { Authorization: 'Bearer user-secret-token', 'X-Gateway': 'g' },
  timeoutMs,
  recorder,
  signal: new AbortController().signal,
});

describe('plain HTTP requests beside the MCP transport', () => {
  it("sends the user's headers only to the endpoint's origin, with overrides removing case-insensitively", async () => {
    const target = await serve((_q, r) => r.writeHead(401, { 'WWW-Authenticate': 'Bearer scope="a"' }).end('{}'));
    const other = await serve((_q, r) => r.writeHead(200, { 'Content-Type': 'application/json' }).end('{"issuer":"x"}'));
    const o = options(`${target.origin}/mcp`);
    const anonymous = await plainHttp({ method: 'POST', body: '{}', headers: { authorization: undefined }, targetHeaders: true }, o);
    expect(anonymous).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer scope="a"' }, body: '{}', timedOut: false });
    expect(target.seen[0].headers.authorization).toBeUndefined();
    expect(target.seen[0].headers['x-gateway']).toBe('g');
    await plainHttp({ method: 'POST', body: '{}', targetHeaders: true }, o);
    expect(target.seen[1].headers.authorization).toBe('Bearer user-secret-token');
    const doc = await plainHttp({ url: `${other.origin}/.well-known/oauth-authorization-server`, method: 'GET', targetHeaders: true }, o);
    expect(doc.body).toBe('{"issuer":"x"}');
    expect(other.seen[0].headers.authorization).toBeUndefined();
    expect(other.seen[0].headers['x-gateway']).toBeUndefined();
  });

  it('a redirect to another origin does not carry the credentials there', async () => {
    const elsewhere = await serve((_q, r) => r.writeHead(200).end('ok'));
    const target = await serve((_q, r) => r.writeHead(307, { Location: `${elsewhere.origin}/mcp` }).end());
    const r = await plainHttp({ method: 'POST', body: '{}', targetHeaders: true }, options(`${target.origin}/mcp`));
    expect([r.status, r.url]).toEqual([200, `${elsewhere.origin}/mcp`]);
    expect(target.seen[0].headers.authorization).toBe('Bearer user-secret-token');
    expect(elsewhere.seen[0].headers.authorization).toBeUndefined();
    expect(elsewhere.seen[0].headers['x-gateway']).toBe('g');
  });

  it('records the exchange, the body as a note (never a JSON-RPC message) and the credentials redacted', async () => {
    const target = await serve((_q, r) => r.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    const recorder = new Recorder();
    const r = await plainHttp({ method: 'GET', targetHeaders: true }, options(`${target.origin}/mcp`, recorder));
    const events = recorder.events();
    expect(r.seq).toEqual(events.map((e) => e.seq));
    expect(events.map((e) => [e.dir, e.kind ?? e.note])).toEqual([['out', undefined], ['in', 'http-response'], ['note', 'plain-http-body']]);
    expect(events.every((e) => e.message === undefined)).toBe(true);
    expect(JSON.stringify(events)).not.toContain('user-secret-token');
  });

  it('bounds the body, and says when nothing came: timeout, refused connection, not a URL', async () => {
    const big = await serve((_q, r) => r.writeHead(200).end('x'.repeat(400 * 1024)));
    const cut = await plainHttp({ method: 'GET' }, options(`${big.origin}/mcp`));
    expect([cut.truncated, cut.body.length]).toEqual([true, 256 * 1024]);
    const silent = await serve(() => undefined);
    const slow = await plainHttp({ method: 'GET' }, options(`${silent.origin}/mcp`, new Recorder(), 300));
    expect([slow.timedOut, slow.status, slow.error]).toEqual([true, undefined, undefined]);
    expect(slow.elapsedMs).toBeGreaterThanOrEqual(290);
    const refused = await plainHttp({ method: 'GET' }, options('http://127.0.0.1:1/mcp'));
    expect(refused.error).toMatch(/ECONNREFUSED/);
    expect((await plainHttp({ url: 'not a url', method: 'GET' }, options(`${big.origin}/mcp`))).error).toBe('not a URL: not a url');
  });
});
