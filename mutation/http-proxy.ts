// The mutating proxy over Streamable HTTP: it listens on 127.0.0.1 and forwards every request to the
// real endpoint, handing the JSON-RPC messages of each request and each answer through the mutator.
// A JSON answer is re-sent as JSON (as SSE when the mutation made several messages of it); an SSE
// answer is passed on event by event, so long-lived streams (a GET stream, a listen subscription)
// keep flowing. A message the mutation drops is never answered: the connection stays open until the
// client gives up (bounded), which is what silence looks like over HTTP.

import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import { isResponse, tryParseJson } from '../protocol/jsonrpc.js';
import { isRaw, type Emitted, type HttpAnswer, type HttpAsk, type SeenRequest } from './mutation.js';
import type { Mutator } from './mutator.js';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** How long a silenced answer keeps its connection open at most (the client's timeout ends it sooner). */
const SILENCE_MS = 10 * 60_000;
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

function flatten(raw: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

function text(value: Emitted): string {
  return isRaw(value) ? value.raw : JSON.stringify(value);
}

function sseEvent(value: Emitted, id?: string): string {
  if (isRaw(value)) return value.raw;
  return `${id ? `id: ${id}\n` : ''}event: message\ndata: ${JSON.stringify(value)}\n\n`;
}

export class MutatingHttpProxy {
  private server?: Server;
  private readonly upstream: URL;
  private readonly open = new Set<ServerResponse>();
  /** The proxy's own port: a Host naming it is the proxy's, rewritten to the upstream's. */
  private ownPort?: number;

  constructor(
    private readonly mutator: Mutator,
    upstream: string,
  ) {
    this.upstream = new URL(upstream);
  }

  /** Listens on 127.0.0.1 (port 0: any free one); the URL of the proxied endpoint, same path as upstream. */
  async listen(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      this.open.add(res);
      res.once('close', () => this.open.delete(res));
      this.onRequest(req, res).catch((e: Error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`mcpspec mutate: ${e.message}`);
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.address() as AddressInfo;
    this.ownPort = address.port;
    return `http://127.0.0.1:${address.port}${this.upstream.pathname}${this.upstream.search}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const res of this.open) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const parsed = body.length ? tryParseJson(body.toString('utf8')) : undefined;
    const seen = parsed?.ok ? this.mutator.seenFromClient(parsed.value) : undefined;
    let ask: HttpAsk = { method: req.method ?? 'GET', headers: flatten(req.headers), body: parsed?.ok ? parsed.value : undefined };
    let outBody: string | Buffer = body;
    if (parsed?.ok) {
      const out = this.mutator.toServer(parsed.value);
      const replies = this.mutator.takeReplies();
      if (out.length === 0 && replies.length) return this.replyInstead(res, replies);
      if (out.length === 0) return this.silence(res);
      if (replies.length) {
        // The server still gets the message; its client gets the proxy's answer instead of the server's.
        const sent = await this.forward(this.mutator.httpAsk({ ...ask, body: out[0] }, seen), text(out[0]), req.url ?? this.upstream.pathname, req.headers.host);
        sent.resume();
        return this.replyInstead(res, replies);
      }
      ask.body = out[0];
      if (out[0] !== parsed.value) outBody = text(out[0]);
    }
    const before = ask.body;
    ask = this.mutator.httpAsk(ask, seen);
    if (ask.body !== before) outBody = ask.body === undefined ? '' : text(ask.body);
    const upstream = await this.forward(ask, outBody, req.url ?? this.upstream.pathname, req.headers.host);
    await this.answer(upstream, res, seen, req.method ?? 'GET');
  }

  /** The proxy answers in the server's place (one message as JSON, several as SSE). */
  private replyInstead(res: ServerResponse, replies: Emitted[]): void {
    if (replies.length === 1) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text(replies[0]));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(replies.map((m) => sseEvent(m)).join(''));
  }

  private silence(res: ServerResponse): void {
    const timer = setTimeout(() => res.destroy(), SILENCE_MS);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
  }

  private forward(ask: HttpAsk, body: string | Buffer, path: string, given: string | undefined): Promise<IncomingMessage> {
    const target = new URL(path, this.upstream);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      // A Host that names another site was chosen by the client on purpose (a DNS-rebinding probe): passed on as it is.
      const host = given === undefined || hostPort(given) === this.ownPort ? target.host : given;
      const out = send(target, { method: ask.method, headers: { ...ask.headers, host, 'content-length': String(Buffer.byteLength(body)) } }, resolve);
      out.once('error', reject);
      out.end(body);
    });
  }

  private async answer(upstream: IncomingMessage, res: ServerResponse, request: SeenRequest | undefined, method: string): Promise<void> {
    const headers = flatten(upstream.headers);
    const type = headers['content-type'] ?? '';
    const status = upstream.statusCode ?? 502;
    if (type.includes('text/event-stream')) return this.stream(upstream, res, { status, headers, messages: [], sse: true, request, method });
    const body = await readBody(upstream);
    const parsed = body.length && type.includes('json') ? tryParseJson(body.toString('utf8')) : undefined;
    let messages: Emitted[] = [];
    if (parsed?.ok) {
      messages = this.mutator.toClient(parsed.value, request);
      this.mutator.settle(parsed.value);
    }
    const given: HttpAnswer = { status, headers, messages, sse: false, request, method };
    const changed = this.mutator.httpAnswer({ ...given, headers: { ...headers } });
    const untouched = changed === given || (changed.status === status && changed.messages === messages && !changed.sse && sameHeaders(changed.headers, headers));
    if (parsed?.ok && messages.length === 0 && changed.messages.length === 0) return this.silence(res);
    if (!parsed?.ok && untouched) {
      res.writeHead(status, headers);
      res.end(body);
      return;
    }
    if (changed.sse || changed.messages.length > 1) {
      // A stream the proxy makes of a JSON answer carries what a careful server's would (HM-04: unbuffered),
      // so that only the mutated rule breaks.
      res.writeHead(changed.status, { 'x-accel-buffering': 'no', ...changed.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(changed.messages.map((m) => sseEvent(m)).join(''));
      return;
    }
    const out = parsed?.ok && changed.messages.length === 1 && changed.messages[0] === parsed.value ? body : changed.messages.length ? text(changed.messages[0]) : body;
    res.writeHead(changed.status, changed.headers);
    res.end(out);
  }

  /** An SSE answer, event by event; its head goes through `httpAnswer` first (with no messages yet). */
  private stream(upstream: IncomingMessage, res: ServerResponse, head: HttpAnswer): void {
    const changed = this.mutator.httpAnswer({ ...head, headers: { ...head.headers } });
    res.writeHead(changed.status, changed.headers);
    res.flushHeaders();
    // A response the mutation dropped: the stream stays open after the server ends it, as a silent one would.
    let dropped = false;
    const parser = createParser({
      onEvent: (event) => {
        const parsed = event.data ? tryParseJson(event.data) : undefined;
        if (!parsed?.ok) {
          res.write(`${event.id !== undefined ? `id: ${event.id}\n` : ''}${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`);
          return;
        }
        const out = this.mutator.toClient(parsed.value, head.request);
        this.mutator.settle(parsed.value);
        if (out.length === 0 && isResponse(parsed.value)) dropped = true;
        if (out.length === 1 && out[0] === parsed.value) {
          res.write(`${event.id !== undefined ? `id: ${event.id}\n` : ''}${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`);
          return;
        }
        out.forEach((m, i) => res.write(sseEvent(m, i === 0 ? event.id : undefined)));
      },
      onRetry: (ms) => res.write(`retry: ${ms}\n\n`),
      onComment: (comment) => res.write(`:${comment}\n\n`),
    });
    upstream.setEncoding('utf8');
    upstream.on('data', (chunk: string) => parser.feed(chunk));
    upstream.on('end', () => (dropped ? this.silence(res) : res.end()));
    upstream.on('error', () => res.destroy());
    res.once('close', () => upstream.destroy());
  }
}

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** The port a Host header names (80 when it names none). */
function hostPort(host: string): number {
  const m = /:(\d+)$/.exec(host);
  return m ? Number(m[1]) : 80;
}
