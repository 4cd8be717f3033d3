/**
 * Unit tests of the two delay proxies used by test/integration/slow-server.test.ts: the stdio one
 * (test/helpers/delay-proxy.mjs, a child process) and the HTTP one (delay-http-proxy.ts,
 * in-process). They must be right on their own, so that a failure of the slow-server acceptance
 * test can only be blamed on mcpspec.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startDelayProxy, type DelayProxy } from '../helpers/delay-http-proxy.js';
import { discoverRequest, ENTRY, initializeRequest, modernMeta, readJsonRpcBody, REPO_ROOT, startHttpTarget, targetAvailable, type HttpTarget } from '../helpers/targets.js';

const PROXY = path.join(REPO_ROOT, 'test', 'helpers', 'delay-proxy.mjs');
const NODE = process.execPath;
/** Long enough to tell "delayed" from "at once" on a busy machine. */
const DELAY = 2500; // long enough that "not delayed" stays clear of load: a busy machine can stall a fast answer for a second
const LATE = DELAY * 0.9;
const FAST = DELAY * 0.6;

// ---------------------------------------------------------------------------------------------
// stdio

/** A target that echoes every stdin line to stdout; `exit N` on a line makes it exit with N. */
const ECHO = `
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => {
  buf += c;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i + 1);
    buf = buf.slice(i + 1);
    if (line.startsWith('stderr ')) process.stderr.write(line.slice(7));
    else process.stdout.write(line);
  }
});
process.stdin.on('end', () => { process.stdout.write(buf); process.exitCode = Number(process.env.ECHO_EXIT ?? 0); });
`;

interface Proxied {
  child: ChildProcess;
  /** Stdout lines with their arrival time (ms since spawn), exact text (the `\n` removed). */
  lines: Array<{ text: string; at: number }>;
  stdout(): string;
  stderr(): string;
  nextLine(timeoutMs?: number): Promise<{ text: string; at: number }>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  startedAt: number;
}

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

function startProxy(proxyArgs: string[], target: string[], env: Record<string, string> = {}): Proxied {
  const startedAt = Date.now();
  const child = spawn(NODE, [PROXY, ...proxyArgs, '--', ...target], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.add(child);
  const lines: Array<{ text: string; at: number }> = [];
  let out = '';
  let err = '';
  let consumed = 0;
  let wake: (() => void) | undefined;
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const at = Date.now() - startedAt;
    out += chunk;
    const parts = out.split('\n');
    const complete = parts.slice(0, -1);
    for (let i = lines.length; i < complete.length; i++) lines.push({ text: complete[i], at });
    wake?.();
  });
  child.stderr!.on('data', (chunk: string) => (err += chunk));
  child.stdin!.on('error', () => undefined);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    startedAt,
    stdout: () => out,
    stderr: () => err,
    exit,
    async nextLine(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (consumed >= lines.length) {
        if (Date.now() > deadline) throw new Error(`no line within ${timeoutMs} ms; stdout so far: ${JSON.stringify(out)}; stderr: ${err}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return lines[consumed++];
    },
  };
}

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

describe('stdio delay proxy (delay-proxy.mjs)', () => {
  it('delays every line, keeps their exact content and order, and exits with the target code once flushed', async () => {
    const p = startProxy(['--delay-ms', String(DELAY)], [NODE, '-e', ECHO], { ECHO_EXIT: '7' });
    const sent = [
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '  {"jsonrpc": "2.0", "id": 2, "result": {"text": "h\\u00e9 \\u2603 ☃"}}  ',
      'not json at all\r',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope"}}',
    ];
    const t0 = Date.now() - p.startedAt;
    p.child.stdin!.write(sent.map((l) => `${l}\n`).join(''));
    const got = [];
    for (let i = 0; i < sent.length; i++) got.push(await p.nextLine());
    expect(got.map((l) => l.text)).toEqual(sent);
    for (const line of got) expect(line.at - t0).toBeGreaterThanOrEqual(LATE);
    // The end of stdin reaches the target; a last line without a newline is flushed too.
    p.child.stdin!.end('tail without newline');
    const exit = await bounded(p.exit, 10_000, 'proxy exit');
    expect(exit).toEqual({ code: 7, signal: null });
    expect(p.stdout()).toBe(sent.map((l) => `${l}\n`).join('') + 'tail without newline');
  });

  it('--errors-only: error answers are delayed, everything else passes at once (out of order)', async () => {
    const p = startProxy(['--delay-ms', String(DELAY), '--errors-only'], [NODE, '-e', ECHO]);
    const error = '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}';
    const result = '{"jsonrpc":"2.0","id":2,"result":{"error":"a result that mentions error"}}';
    const notJson = 'log line with "error": in it';
    const array = '[{"jsonrpc":"2.0","id":4,"result":{}}]';
    // Timed from once the target is up: on a loaded machine starting it alone can take over a second.
    p.child.stdin!.write('{"jsonrpc":"2.0","id":0,"result":{}}\n');
    await p.nextLine();
    const t0 = Date.now() - p.startedAt;
    p.child.stdin!.write(`${error}\n${result}\n${notJson}\n${array}\n`);
    const got = [await p.nextLine(), await p.nextLine(), await p.nextLine(), await p.nextLine()];
    expect(got.map((l) => l.text)).toEqual([result, notJson, array, error]);
    for (const line of got.slice(0, 3)) expect(line.at - t0).toBeLessThan(FAST);
    expect(got[3].at - t0).toBeGreaterThanOrEqual(LATE);
    p.child.stdin!.end();
    expect(await bounded(p.exit, 10_000, 'proxy exit')).toEqual({ code: 0, signal: null });
  });

  it('passes stderr through and waits for delayed lines before exiting', async () => {
    const p = startProxy(['--delay-ms', String(DELAY)], [NODE, '-e', ECHO]);
    const t0 = Date.now() - p.startedAt;
    p.child.stdin!.end('stderr to stderr\n{"jsonrpc":"2.0","id":9,"result":{}}\n');
    const exit = await bounded(p.exit, 10_000, 'proxy exit');
    expect(exit.code).toBe(0);
    expect(Date.now() - p.startedAt - t0).toBeGreaterThanOrEqual(LATE);
    expect(p.stdout()).toBe('{"jsonrpc":"2.0","id":9,"result":{}}\n');
    expect(p.stderr()).toBe('to stderr\n');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s to the proxy kills the target too (no orphan)', async (signal) => {
    // The target ignores stdin EOF and SIGINT-free defaults: it only dies if the proxy kills it.
    const stubborn = `process.stdout.write(JSON.stringify({ pid: process.pid }) + '\\n'); setInterval(() => {}, 1000);`;
    const p = startProxy(['--delay-ms', String(DELAY), '--errors-only'], [NODE, '-e', stubborn]);
    const { pid } = JSON.parse((await p.nextLine()).text) as { pid: number };
    expect(alive(pid)).toBe(true);
    p.child.kill(signal);
    const exit = await bounded(p.exit, 10_000, 'proxy exit');
    expect(exit.code ?? exit.signal).toBe(signal === 'SIGTERM' ? 143 : 130);
    expect(await waitGone(pid, 5000)).toBe(true);
  });

  it('a target that cannot be started: exit 127 with a message', async () => {
    const p = startProxy(['--delay-ms', '10'], ['mcpspec-no-such-command-xyz']);
    const exit = await bounded(p.exit, 10_000, 'proxy exit');
    expect(exit.code).toBe(127);
    expect(p.stderr()).toMatch(/cannot start mcpspec-no-such-command-xyz/);
  });

  it.skipIf(!targetAvailable('reference'))('the reference server answers through it, late', async () => {
    const p = startProxy(['--delay-ms', String(DELAY)], [NODE, ENTRY.reference()]);
    const t0 = Date.now() - p.startedAt;
    p.child.stdin!.write(JSON.stringify(initializeRequest(1)) + '\n');
    const line = await p.nextLine();
    expect(line.at - t0).toBeGreaterThanOrEqual(LATE);
    expect(JSON.parse(line.text)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25' } });
    p.child.stdin!.end();
    expect((await bounded(p.exit, 10_000, 'proxy exit')).code).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// HTTP

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A fake MCP endpoint: POST answers by `method` of the JSON body: `ok` → JSON result, `fail` → 400 +
 * JSON-RPC error, `sse-ok` / `sse-fail` → an SSE stream (a notification, then the result or error),
 * `stream` → an SSE stream that stays open (one event now), a body without id → 202. GET → 405,
 * DELETE → 204. Every answer carries `Mcp-Session-Id: s-<n>` and echoes `MCP-Protocol-Version`.
 */
async function fakeUpstream(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const common: Record<string, string> = { 'Mcp-Session-Id': `s-${++n}`, 'X-Custom': 'kept' };
      const version = req.headers['mcp-protocol-version'];
      if (typeof version === 'string') common['MCP-Protocol-Version'] = version;
      if (req.method === 'GET') return void res.writeHead(405, { ...common, Allow: 'POST, DELETE' }).end();
      if (req.method === 'DELETE') return void res.writeHead(204, common).end();
      const msg = JSON.parse(body) as { id?: number; method: string };
      const result = { jsonrpc: '2.0', id: msg.id, result: { echo: msg.method } };
      const error = { jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'no' } };
      const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
      if (msg.id === undefined) return void res.writeHead(202, common).end();
      const json = (status: number, value: unknown): void => {
        const text = JSON.stringify(value);
        res.writeHead(status, { ...common, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) }).end(text);
      };
      const sse = (events: unknown[], end = true): void => {
        res.writeHead(200, { ...common, 'Content-Type': 'text/event-stream' });
        for (const e of events) res.write(`event: message\ndata: ${JSON.stringify(e)}\n\n`);
        if (end) res.end();
      };
      switch (msg.method) {
        case 'ok':
          return json(200, result);
        case 'fail':
          return json(400, error);
        case 'sse-ok':
          return sse([note, result]);
        case 'sse-fail':
          return sse([note, error]);
        case 'stream':
          return sse([result], false);
        default:
          return json(404, error);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'Mcp-Session-Id': 'client-session',
  'MCP-Protocol-Version': '2025-11-25',
  'Mcp-Method': 'tools/call',
  'Mcp-Name': 'echo',
  Origin: 'http://127.0.0.1',
};

async function timed(url: string, init: RequestInit): Promise<{ res: Response; text: string; ms: number }> {
  const start = Date.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  return { res, text, ms: Date.now() - start };
}

function post(url: string, body: unknown): Promise<{ res: Response; text: string; ms: number }> {
  return timed(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
}

describe('HTTP delay proxy (delay-http-proxy.ts)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function setup(errorsOnly: boolean): Promise<{ upstream: Awaited<ReturnType<typeof fakeUpstream>>; proxy: DelayProxy }> {
    const upstream = await fakeUpstream();
    cleanups.push(upstream.close);
    const proxy = await startDelayProxy({ target: upstream.url, delayMs: DELAY, errorsOnly });
    cleanups.push(proxy.close);
    return { upstream, proxy };
  }

  it('forwards method, path, query, headers and body; answers keep status, headers and body; every answer is delayed', async () => {
    const { upstream, proxy } = await setup(false);
    expect(new URL(proxy.url).pathname).toBe('/mcp');
    const body = { jsonrpc: '2.0', id: 1, method: 'ok', params: { text: 'h\u00e9 ☃' } };
    const direct = await post(upstream.url, body);
    const via = await post(proxy.url + '?q=1', body);
    expect(via.ms).toBeGreaterThanOrEqual(LATE);
    expect(via.res.status).toBe(200);
    expect(via.text).toBe(direct.text);
    expect(via.res.headers.get('mcp-session-id')).toBe('s-2');
    expect(via.res.headers.get('mcp-protocol-version')).toBe('2025-11-25');
    expect(via.res.headers.get('x-custom')).toBe('kept');
    expect(via.res.headers.get('content-type')).toBe('application/json');
    expect(via.res.headers.get('content-length')).toBe(String(Buffer.byteLength(direct.text)));
    const seen = upstream.seen[1];
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/mcp?q=1');
    expect(seen.body).toBe(JSON.stringify(body));
    expect(seen.headers.host).toBe(new URL(upstream.url).host);
    for (const [name, value] of Object.entries(HEADERS)) expect(seen.headers[name.toLowerCase()], name).toBe(value);

    // Errors with their HTTP status, 202s, SSE streams, DELETE and GET: all delayed, all intact.
    const fail = await post(proxy.url, { jsonrpc: '2.0', id: 2, method: 'fail' });
    expect([fail.res.status, fail.ms >= LATE]).toEqual([400, true]);
    expect(JSON.parse(fail.text)).toMatchObject({ id: 2, error: { code: -32602 } });
    const accepted = await post(proxy.url, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect([accepted.res.status, accepted.text, accepted.ms >= LATE]).toEqual([202, '', true]);
    const directSse = await post(upstream.url, { jsonrpc: '2.0', id: 3, method: 'sse-ok' });
    const sse = await post(proxy.url, { jsonrpc: '2.0', id: 3, method: 'sse-ok' });
    expect([sse.res.status, sse.res.headers.get('content-type'), sse.ms >= LATE]).toEqual([200, 'text/event-stream', true]);
    expect(sse.text).toBe(directSse.text);
    const del = await timed(proxy.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': 'abc' } });
    expect([del.res.status, del.ms >= LATE]).toEqual([204, true]);
    expect(upstream.seen.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 'abc' } });
    const get = await timed(proxy.url, { method: 'GET', headers: { Accept: 'text/event-stream' } });
    expect([get.res.status, get.res.headers.get('allow'), get.ms >= LATE]).toEqual([405, 'POST, DELETE', true]);
    expect(proxy.errors()).toEqual([]);
  });

  it('errorsOnly: only JSON-RPC error answers (JSON or SSE) are delayed', async () => {
    const { proxy } = await setup(true);
    const ok = await post(proxy.url, { jsonrpc: '2.0', id: 1, method: 'ok' });
    expect([ok.res.status, ok.ms < FAST]).toEqual([200, true]);
    const sseOk = await post(proxy.url, { jsonrpc: '2.0', id: 2, method: 'sse-ok' });
    expect([sseOk.res.status, sseOk.ms < FAST]).toEqual([200, true]);
    expect(sseOk.text).toContain('"result":{"echo":"sse-ok"}');
    const accepted = await post(proxy.url, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect([accepted.res.status, accepted.ms < FAST]).toEqual([202, true]);
    const fail = await post(proxy.url, { jsonrpc: '2.0', id: 3, method: 'fail' });
    expect([fail.res.status, fail.ms >= LATE]).toEqual([400, true]);
    const sseFail = await post(proxy.url, { jsonrpc: '2.0', id: 4, method: 'sse-fail' });
    expect([sseFail.res.status, sseFail.ms >= LATE]).toEqual([200, true]);
    expect(sseFail.text).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n' +
        'event: message\ndata: {"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"no"}}\n\n',
    );
    expect(proxy.delayed()).toBe(2);
    expect(proxy.errors()).toEqual([]);
  });

  it('an SSE stream that stays open is relayed event by event (delayed), not held until it ends', async () => {
    const { proxy } = await setup(false);
    const start = Date.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15_000);
    try {
      const res = await fetch(proxy.url, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'stream' }),
        signal: controller.signal,
      });
      expect(await readJsonRpcBody(res)).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: 'stream' } });
      expect(Date.now() - start).toBeGreaterThanOrEqual(LATE);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  });

  it('an unreachable target gives 502', async () => {
    const upstream = await fakeUpstream();
    await upstream.close();
    const proxy = await startDelayProxy({ target: upstream.url, delayMs: 10 });
    cleanups.push(proxy.close);
    const r = await post(proxy.url, { jsonrpc: '2.0', id: 1, method: 'ok' });
    expect(r.res.status).toBe(502);
    expect(proxy.errors()).toEqual([expect.stringMatching(/^POST \/mcp: .*ECONNREFUSED/)]);
  });

  describe.skipIf(!targetAvailable('reference'))('with the reference server', () => {
    let target: HttpTarget | undefined;
    afterAll(async () => {
      await target?.stop();
    });

    it('a legacy session: Mcp-Session-Id comes back through the proxy and is accepted on the way in', async () => {
      target = await startHttpTarget('reference');
      const proxy = await startDelayProxy({ target: target.url, delayMs: DELAY });
      cleanups.push(proxy.close);
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      const init = await timed(proxy.url, { method: 'POST', headers, body: JSON.stringify(initializeRequest(1)) });
      expect(init.res.status).toBe(200);
      expect(init.ms).toBeGreaterThanOrEqual(LATE);
      const session = init.res.headers.get('mcp-session-id');
      expect(session).toBeTruthy();
      const withSession = { ...headers, 'Mcp-Session-Id': session!, 'MCP-Protocol-Version': '2025-11-25' };
      const inited = await timed(proxy.url, {
        method: 'POST',
        headers: withSession,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      });
      expect(inited.res.status).toBe(202);
      const list = await timed(proxy.url, { method: 'POST', headers: withSession, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
      expect(list.res.status).toBe(200);
      expect(JSON.parse(list.text)).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
      const del = await timed(proxy.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': session! } });
      expect(del.res.status).toBe(200);
      const again = await timed(proxy.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': session! } });
      expect(again.res.status).toBe(404);
    });

    it('modern server/discover: the same answer as direct, only later', async () => {
      target ??= await startHttpTarget('reference');
      const proxy = await startDelayProxy({ target: target.url, delayMs: DELAY });
      cleanups.push(proxy.close);
      const headers = {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'server/discover',
      };
      const body = JSON.stringify(discoverRequest(1));
      const direct = await timed(target.url, { method: 'POST', headers, body });
      const via = await timed(proxy.url, { method: 'POST', headers, body });
      expect(via.res.status).toBe(direct.res.status);
      expect(via.text).toBe(direct.text);
      expect(via.ms).toBeGreaterThanOrEqual(LATE);
    });

    it('errorsOnly, modern tools/call of an unknown tool: the SSE error answer arrives whole, late; a good call at once', async () => {
      target ??= await startHttpTarget('reference');
      const proxy = await startDelayProxy({ target: target.url, delayMs: DELAY, errorsOnly: true });
      cleanups.push(proxy.close);
      const call = (id: number, name: string, args: Record<string, unknown>) => ({
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': name,
          // echo declares x-mcp-header "Text" (SEP-2243)
          ...(typeof args.text === 'string' ? { 'Mcp-Param-Text': args.text } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: modernMeta() } }),
      });
      const unknownDirect = await timed(target.url, call(1, 'mcpspec_no_such_tool', {}));
      const unknown = await timed(proxy.url, call(1, 'mcpspec_no_such_tool', {}));
      expect(unknown.res.status).toBe(unknownDirect.res.status);
      expect(unknownDirect.res.headers.get('content-type')).toBe('text/event-stream');
      expect(unknown.res.headers.get('content-type')).toBe('text/event-stream');
      expect(unknown.text).toBe(unknownDirect.text);
      expect(unknown.text).toMatch(/"error":\{"code":-32602/);
      expect(unknown.ms).toBeGreaterThanOrEqual(LATE);
      const echoDirect = await timed(target.url, call(2, 'echo', { text: 'hi' }));
      const echo = await timed(proxy.url, call(2, 'echo', { text: 'hi' }));
      expect(echo.text).toBe(echoDirect.text);
      expect(echo.text).toContain('"result"');
      expect(echo.ms).toBeLessThan(FAST);
      expect(proxy.errors()).toEqual([]);
    });
  });
});
