/**
 * HTTP delay proxy: makes a Streamable HTTP MCP server look slow. Started in-process by tests:
 *
 *   const proxy = await startDelayProxy({ target: server.url, delayMs: 1500, errorsOnly: false });
 *   // point the client at proxy.url (same path as the target), then: await proxy.close();
 *
 * Listens on 127.0.0.1 (port chosen by the OS). Every request (method, path and query, headers
 * except hop-by-hop ones, body) is forwarded to the target's origin; the answer (status, headers,
 * body) is sent back delayed:
 *
 * - non-SSE answers (JSON, empty 202s, errors) are buffered whole, then sent `delayMs` later, or,
 *   with `errorsOnly`, only if the body is a JSON-RPC error (a JSON object with an `error` member,
 *   or a batch array holding one); otherwise at once. Content-Length is recomputed.
 * - `text/event-stream` answers go through a delay line, so a stream that stays open works too:
 *   the head and each event are sent `delayMs` after they arrived (order kept). With `errorsOnly`,
 *   only events whose `data:` is a JSON-RPC error are delayed (later events of the same stream
 *   wait behind them, so the stream's order is kept); the head is held until the first event (and
 *   goes with it), the end of the stream, or `headHoldMs`, whichever comes first.
 *
 * `close()` stops listening, aborts upstream requests, drops open connections and pending timers.
 */
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayProxyOptions {
  /** The target's MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  target: string;
  /** How long to hold back an answer. */
  delayMs: number;
  /** Delay only JSON-RPC error answers (default false: delay every answer). */
  errorsOnly?: boolean;
  /** errorsOnly + SSE: how long the head of an event stream may wait for its first event (default 200 ms). */
  headHoldMs?: number;
}

export interface DelayProxy {
  /** The proxy's endpoint: the target URL with the proxy's origin. */
  url: string;
  /** Number of answers (or SSE events) that were held back so far. */
  delayed(): number;
  /** Upstream failures so far (each also answered 502, or the stream cut), for failure messages. */
  errors(): string[];
  /** Stops the proxy. Idempotent. */
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Copies headers, dropping hop-by-hop ones (and those named in Connection), content-length and `extraDrop`. */
function endToEndHeaders(headers: IncomingHttpHeaders, extraDrop: string[] = []): OutgoingHttpHeaders {
  const drop = new Set([...HOP_BY_HOP, 'content-length', ...extraDrop]);
  const connection = headers.connection;
  if (typeof connection === 'string') for (const name of connection.split(',')) drop.add(name.trim().toLowerCase());
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || drop.has(name.toLowerCase())) continue;
    out[name] = value;
  }
  return out;
}

/** Whether a parsed JSON-RPC payload is (or, for a batch, holds) an error answer. */
export function isJsonRpcError(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isJsonRpcError);
  return value !== null && typeof value === 'object' && Object.hasOwn(value, 'error');
}

function parsesAsError(text: string): boolean {
  try {
    return isJsonRpcError(JSON.parse(text));
  } catch {
    return false;
  }
}

/** The `data:` payload of one raw SSE event block (lines joined with `\n`), or undefined if none. */
function sseData(block: string): string | undefined {
  const data = block
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith('data:') || line === 'data')
    .map((line) => line.slice(5).replace(/^ /, ''));
  return data.length > 0 ? data.join('\n') : undefined;
}

/** Splits off complete SSE events (each with its blank-line terminator) from the front of `buffer`. */
function takeEvents(buffer: string): { events: string[]; rest: string } {
  const events: string[] = [];
  const boundary = /(\r\n|\r|\n)(\r\n|\r|\n)/g;
  let start = 0;
  let match: RegExpExecArray | null;
  while ((match = boundary.exec(buffer)) !== null) {
    // A lone `\r` at the very end may be the first half of `\r\n`: wait for more.
    if (match.index + match[0].length === buffer.length && buffer.endsWith('\r')) break;
    const end = match.index + match[0].length;
    events.push(buffer.slice(start, end));
    start = end;
  }
  return { events, rest: buffer.slice(start) };
}

export async function startDelayProxy(options: DelayProxyOptions): Promise<DelayProxy> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:') throw new Error(`delay proxy: only http targets are supported, not ${target.protocol}`);
  const delayMs = options.delayMs;
  const errorsOnly = options.errorsOnly ?? false;
  const headHoldMs = options.headHoldMs ?? 200;
  // A fresh upstream connection per request: reusing idle keep-alive sockets races with the
  // target closing them (ECONNRESET on a POST, which cannot be retried) and would be blamed on it.
  const agent = new http.Agent({ keepAlive: false });
  const errors: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const upstreams = new Set<http.ClientRequest>();
  let delayedCount = 0;
  let closed = false;

  /** Runs `fn` after `ms` (at once if `ms` <= 0), unless the proxy is closed first. */
  function later(ms: number, fn: () => void): void {
    if (ms <= 0) {
      fn();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) fn();
    }, ms);
    timers.add(timer);
  }

  function relayBuffered(up: http.IncomingMessage, res: http.ServerResponse, headers: OutgoingHttpHeaders): void {
    const chunks: Buffer[] = [];
    up.on('data', (chunk: Buffer) => chunks.push(chunk));
    up.on('end', () => {
      const body = Buffer.concat(chunks);
      const hold = !errorsOnly || parsesAsError(body.toString('utf8'));
      if (hold) delayedCount++;
      later(hold ? delayMs : 0, () => {
        if (res.destroyed) return;
        res.writeHead(up.statusCode ?? 502, up.statusMessage, { ...headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
  }

  function relayEventStream(up: http.IncomingMessage, res: http.ServerResponse, headers: OutgoingHttpHeaders): void {
    // A delay line: each piece is due at arrival + its delay, and pieces leave strictly in the order
    // they arrived. One timer serves the queue: separate timers can fire out of order under load
    // (each measures from the event loop's cached clock), which could end the stream before its event.
    let headSent = false;
    let headScheduled = false;
    const queue: { at: number; fn: () => void }[] = [];
    let queueTimer: NodeJS.Timeout | undefined;
    const drain = (): void => {
      if (queueTimer) timers.delete(queueTimer);
      queueTimer = undefined;
      if (closed) return;
      while (queue.length > 0 && queue[0].at <= Date.now()) {
        const piece = queue.shift()!;
        if (!res.destroyed) piece.fn();
      }
      if (queue.length > 0) {
        queueTimer = setTimeout(drain, Math.max(1, queue[0].at - Date.now()));
        timers.add(queueTimer);
      }
    };
    const schedule = (extraMs: number, fn: () => void): void => {
      queue.push({ at: Date.now() + extraMs, fn });
      if (queue.length === 1 && !queueTimer) drain();
    };
    const sendHead = (): void => {
      if (headSent) return;
      headSent = true;
      res.writeHead(up.statusCode ?? 502, up.statusMessage, headers);
      res.flushHeaders();
    };
    const scheduleHead = (extraMs: number): void => {
      if (headScheduled) return;
      headScheduled = true;
      clearTimeout(headTimer);
      schedule(extraMs, sendHead);
    };
    // Delay-everything: the head is delayed like the rest. errorsOnly: it waits for the first event.
    let headTimer: NodeJS.Timeout | undefined;
    if (!errorsOnly) scheduleHead(delayMs);
    else {
      headTimer = setTimeout(() => scheduleHead(0), headHoldMs);
      timers.add(headTimer);
    }

    let text = '';
    up.setEncoding('utf8');
    up.on('data', (chunk: string) => {
      const { events, rest } = takeEvents(text + chunk);
      text = rest;
      for (const event of events) {
        const data = sseData(event);
        const hold = !errorsOnly || (data !== undefined && parsesAsError(data));
        if (hold && data !== undefined) delayedCount++;
        scheduleHead(hold ? delayMs : 0);
        schedule(hold ? delayMs : 0, () => res.write(event));
      }
    });
    up.on('end', () => {
      const tail = text;
      text = '';
      scheduleHead(errorsOnly ? 0 : delayMs);
      schedule(errorsOnly ? 0 : delayMs, () => {
        sendHead();
        res.end(tail);
      });
    });
    up.on('error', (error) => {
      if (!closed && !res.destroyed) errors.push(`SSE stream: ${error.message}`);
      res.destroy();
    });
  }

  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      if (closed) {
        res.destroy();
        return;
      }
      const payload = Buffer.concat(body);
      const headers = endToEndHeaders(req.headers, ['host']);
      headers.host = target.host;
      if (payload.length > 0 || req.headers['content-length'] !== undefined) headers['content-length'] = String(payload.length);
      const upstream = http.request(
        { protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
        (up) => {
          const outHeaders = endToEndHeaders(up.headers);
          const type = String(up.headers['content-type'] ?? '');
          if (type.includes('text/event-stream')) relayEventStream(up, res, outHeaders);
          else relayBuffered(up, res, outHeaders);
        },
      );
      upstreams.add(upstream);
      upstream.on('close', () => upstreams.delete(upstream));
      upstream.on('error', (error) => {
        if (!closed && !res.destroyed) errors.push(`${req.method} ${req.url}: ${error.message}`);
        if (res.headersSent || res.destroyed) {
          res.destroy();
          return;
        }
        const text = `delay proxy: upstream error: ${error.message}`;
        res.writeHead(502, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(text)) });
        res.end(text);
      });
      // The client went away: stop talking to the target for it.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(payload);
    });
    req.on('error', () => res.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = new URL(target.href);
  url.protocol = 'http:';
  url.hostname = '127.0.0.1';
  url.port = String(port);

  let closing: Promise<void> | undefined;
  return {
    url: url.href,
    delayed: () => delayedCount,
    errors: () => [...errors],
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        closed = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const upstream of upstreams) upstream.destroy();
        upstreams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      });
      return closing;
    },
  };
}
