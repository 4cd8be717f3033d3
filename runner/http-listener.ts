// The accepting side of Streamable HTTP: mcpspec listens on 127.0.0.1 (a port chosen at run time)
// and answers a client under test. Every message the client sends and every answer is recorded.
// Answers are JSON bodies, or SSE streams (primed with an event id and a comment line) when the
// scenario asks, or streams closed before the answer (polled, or broken); a GET gets a polled answer,
// any other GET 405; DELETE (legacy session end) is recorded and accepted. A scenario may add
// routes on the same origin and a gate before the endpoint (suites/ports/scripted-http.ts); the
// headless browser reports its visits to a path of the listener's own.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonRpcMessage, isObj, serializeBody, tryParseJson } from '../protocol/jsonrpc.js';
import type { BrowserVisit, HttpAnswer, HttpExchange, HttpGate, HttpRoute, ScriptedHttp } from '../suites/ports/scripted-http.js';
import type { Received, ScriptedHandler, ScriptedReply } from '../suites/ports/scripted-server.js';
import { redactHeaders } from './redact.js';
import type { Recorder } from './recorder.js';
import { ScriptedEndpoint } from './scripted-endpoint.js';

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Where mcpspec's headless browser reports its visits (runner/headless-browser.ts), on the listener's origin. */
export const BROWSER_REPORT_PATH = '/.mcpspec/browser';

/** The head of every SSE answer: unbuffered by proxies (HM-04), plus the reply's own headers. */
const sseHead = (extra: Record<string, string>): Record<string, string> => ({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no', ...extra });

/** Records one message of an answer; its recording sequence number. */
type RecordReply = (message: unknown, text: string, contentType: string, status: number) => number;

export class HttpListener implements ScriptedHttp {
  private server?: Server;
  private urlValue?: string;
  readonly endpoint: ScriptedEndpoint;
  private eventId = 0;
  /** Other routes on the origin, and the gate before the endpoint (a scenario's profile of the peer). */
  private readonly routes: HttpRoute[] = [];
  private gated?: HttpGate;
  private readonly visitListeners: ((visit: BrowserVisit, seq: number) => void)[] = [];
  /** Answers of polled streams, by the event id the client resumes after. */
  private readonly parked = new Map<string, { reply: ScriptedReply; entry: Received }>();

  constructor(
    readonly recorder: Recorder,
    readonly path = '/mcp',
    signal?: AbortSignal,
  ) {
    this.endpoint = new ScriptedEndpoint(signal);
  }

  /** The endpoint clients connect to. */
  get url(): string {
    if (!this.urlValue) throw new Error('HttpListener.url before listen()');
    return this.urlValue;
  }

  /** Where the headless browser reports its visits. */
  get browserReportUrl(): string {
    return new URL(BROWSER_REPORT_PATH, this.url).href;
  }

  route(r: HttpRoute): void {
    this.routes.push(r);
  }

  gate(g: HttpGate): void {
    this.gated = g;
  }

  note(label: string, text: string, data?: Record<string, unknown>): number {
    return this.recorder.note('http', label, text, data).seq;
  }

  onBrowserVisit(listener: (visit: BrowserVisit, seq: number) => void): void {
    this.visitListeners.push(listener);
  }

  handle(h: ScriptedHandler): void {
    this.endpoint.handle(h);
  }

  received(): Received[] {
    return this.endpoint.received();
  }

  async listen(): Promise<string> {
    const server = createServer((req, res) => {
      this.onRequest(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    this.urlValue = `http://127.0.0.1:${port}${this.path}`;
    return this.urlValue;
  }

  async close(): Promise<void> {
    this.endpoint.release();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    const url = new URL(req.url ?? '/', new URL(this.url).origin);
    const method = req.method ?? 'GET';
    if (url.pathname !== this.path) {
      if (method === 'POST' && url.pathname === BROWSER_REPORT_PATH) return this.browserReport(res, await readBody(req));
      if (this.routes.length && (await this.serveRoutes(req, res, method, url, headers))) return;
      res.writeHead(404).end();
      return;
    }
    const body = method === 'POST' ? await readBody(req) : undefined;
    const parsed = body === undefined ? ({ ok: false } as const) : tryParseJson(body);
    const gated = this.gated ? await this.gated({ method, url, headers, body, ...(parsed.ok ? { message: parsed.value } : {}) }) : undefined;
    if (gated) return this.refuse(res, method, url, headers, body, parsed.ok ? parsed.value : undefined, gated);
    if (method !== 'POST') {
      // Recorded as what the client did (a legacy session's DELETE is judged), never handed to the script.
      const ev = this.recorder.record({ dir: 'in', channel: 'http', raw: '', http: { method, headers: redactHeaders(headers), url: url.pathname } });
      this.endpoint.log({ message: undefined, headers, httpMethod: method, connection: 0, seq: ev.seq, at: Date.now(), ...(url.search ? { query: url.search } : {}) });
      // A GET resuming a polled answer (Last-Event-ID naming its priming event) gets that answer.
      const parked = method === 'GET' && headers['last-event-id'] !== undefined ? this.parked.get(headers['last-event-id']) : undefined;
      if (parked) {
        this.parked.delete(headers['last-event-id']!);
        return this.writeStream(res, parked.reply, parked.entry, this.recordReply('GET', url.pathname, parked.reply.headers ?? {}));
      }
      if (method === 'DELETE') res.writeHead(200).end();
      else res.writeHead(405, { Allow: 'POST, DELETE' }).end();
      return;
    }
    const ev = this.recorder.record({
      dir: 'in',
      channel: 'http',
      raw: body ?? '',
      kind: parsed.ok && isJsonRpcMessage(parsed.value) ? 'message' : parsed.ok ? undefined : 'parse-error',
      message: parsed.ok ? parsed.value : undefined,
      http: { method: 'POST', headers: redactHeaders(headers), url: url.pathname },
    });
    const entry: Received = { message: parsed.ok ? parsed.value : body, headers, httpMethod: 'POST', connection: 0, seq: ev.seq, ...(url.search ? { query: url.search } : {}) };
    if (!parsed.ok) {
      this.endpoint.log(entry);
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }));
      return;
    }
    const reply = await this.endpoint.accept(entry);
    const extra = reply.headers ?? {};
    const record = this.recordReply('POST', url.pathname, extra);
    if (reply.poll) {
      // HL-04 polling: prime the stream with retry and an id, close it, keep the answer for the GET.
      const eventId = String(++this.eventId);
      // closedAt is read before the stream ends: no later than the client can see the end (read after
      // res.end, a preempted mcpspec read it late, and a client waiting the full retry looked early).
      entry.polled = { eventId, retryMs: reply.poll.retryMs, closedAt: Date.now() };
      res.writeHead(200, sseHead(extra));
      res.end(`retry: ${reply.poll.retryMs}\nid: ${eventId}\ndata:\n\n`);
      this.parked.set(eventId, { reply, entry });
      return;
    }
    if (reply.broken) {
      // HM-05: a 2026-07-28 stream lost before its answer; nothing to resume, the request is lost.
      entry.broken = { closedAt: Date.now() };
      res.writeHead(200, sseHead(extra));
      res.end(': mcpspec breaks this stream before its answer\n\n');
      return;
    }
    if (!reply.sse && !reply.before?.length && !reply.stream) {
      const response = await reply.response;
      if (response === undefined) {
        res.writeHead(reply.status ?? 202, extra).end();
        return;
      }
      entry.reply = response;
      const text = serializeBody(response);
      entry.replySeq = record(response, text, 'application/json', reply.status ?? 200);
      res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...extra }).end(text);
      return;
    }
    // An SSE response: a priming event (id, empty data), a comment line, the messages before, then the response.
    res.writeHead(reply.status ?? 200, sseHead(extra));
    res.write(`id: ${++this.eventId}\ndata:\n\n: mcpspec keep-alive comment\n\n`);
    return this.writeStream(res, reply, entry, record);
  }

  /** A request to the endpoint the gate answered: logged as what the client sent (never handed to the script), then the gate's answer. */
  private refuse(res: ServerResponse, method: string, url: URL, headers: Record<string, string>, body: string | undefined, parsed: unknown, answer: HttpAnswer): void {
    const message = isJsonRpcMessage(parsed) ? parsed : undefined;
    const ev = this.recorder.record({ dir: 'in', channel: 'http', raw: body ?? '', kind: message ? 'message' : undefined, message, http: { method, headers: redactHeaders(headers), url: url.pathname }, data: { refused: answer.status } });
    this.endpoint.log({ message, headers, httpMethod: method, connection: 0, seq: ev.seq, at: Date.now(), refused: answer.status, ...(url.search ? { query: url.search } : {}) });
    res.writeHead(answer.status, answer.headers).end(answer.body);
  }

  /** Offers a request to another path to the routes in turn; whether one answered it. */
  private async serveRoutes(req: IncomingMessage, res: ServerResponse, method: string, url: URL, headers: Record<string, string>): Promise<boolean> {
    const body = await readBody(req);
    let seq: number | undefined;
    let answered = false;
    const path = url.pathname;
    const x: HttpExchange = {
      method,
      url,
      headers,
      body,
      record: () => (seq ??= this.recorder.record({ dir: 'in', channel: 'http', raw: body || url.search, http: { method, headers: redactHeaders(headers), url: path } }).seq),
      answer: (a) => {
        if (answered) throw new Error(`${method} ${path} answered twice`);
        answered = true;
        x.record();
        const out = this.recorder.record({ dir: 'out', channel: 'http', raw: a.body ?? '', http: { method, status: a.status, headers: redactHeaders(a.headers ?? {}), url: path } }).seq;
        res.writeHead(a.status, a.headers).end(a.body);
        return out;
      },
    };
    for (const route of this.routes) {
      await route(x);
      if (answered) return true;
    }
    return false;
  }

  /** A report of the headless browser: a note in the recording, handed to whoever listens. */
  private browserReport(res: ServerResponse, text: string | undefined): void {
    const visit = browserVisit(text);
    if (visit) {
      const seq = this.note('browser', `headless browser: ${visit.visited.at(-1) ?? '(nothing loaded)'}: ${visit.error ?? `HTTP ${visit.status}`}`, { ...visit });
      for (const l of this.visitListeners) l(visit, seq);
    }
    res.writeHead(204).end();
  }

  /** Records what goes out on the answer to a `method` request. */
  private recordReply(method: string, path: string, extra: Record<string, string>): RecordReply {
    return (message, text, contentType, status) => this.recorder.record({ dir: 'out', channel: 'http', raw: text, kind: 'message', message, http: { method, status, headers: { 'content-type': contentType, ...extra }, url: path } }).seq;
  }

  /** The messages before, a stream's messages, then the response, as SSE events; then the stream ends. */
  private async writeStream(res: ServerResponse, reply: ScriptedReply, entry: Received, record: RecordReply): Promise<void> {
    if (!res.headersSent) res.writeHead(200, sseHead(reply.headers ?? {}));
    for (const m of reply.before ?? []) {
      const text = serializeBody(m);
      record(m, text, 'text/event-stream', 200);
      res.write(`id: ${++this.eventId}\nevent: message\ndata: ${text}\n\n`);
    }
    if (reply.stream) {
      for await (const m of reply.stream) {
        if (res.destroyed) break;
        const text = serializeBody(m);
        record(m, text, 'text/event-stream', 200);
        res.write(`id: ${++this.eventId}\nevent: message\ndata: ${text}\n\n`);
      }
    }
    const response = await reply.response;
    if (res.destroyed) return;
    if (response !== undefined) {
      entry.reply = response;
      const text = serializeBody(response);
      entry.replySeq = record(response, text, 'text/event-stream', 200);
      res.write(`id: ${++this.eventId}\nevent: message\ndata: ${text}\n\n`);
    }
    res.end();
  }
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A headless browser report, as far as it is well formed (it comes from mcpspec's own program, in the client's sandbox). */
function browserVisit(text: string | undefined): BrowserVisit | undefined {
  const parsed = tryParseJson(text ?? '');
  if (!parsed.ok || !isObj(parsed.value) || !Array.isArray(parsed.value.visited)) return undefined;
  const v = parsed.value;
  return {
    visited: (v.visited as unknown[]).filter((u): u is string => typeof u === 'string').slice(0, 10),
    ...(typeof v.status === 'number' ? { status: v.status } : {}),
    ...(typeof v.error === 'string' ? { error: v.error.slice(0, 200) } : {}),
  };
}
