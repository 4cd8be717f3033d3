// The accepting side of Streamable HTTP: mcpspec listens on 127.0.0.1 (a port chosen at run time)
// and answers a client under test. Every message the client sends and every answer is recorded.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonRpcMessage, serializeBody, tryParseJson } from '../protocol/jsonrpc.js';
import type { Received } from '../suites/ports.js';
import { redactHeaders } from './redact.js';
import type { Recorder } from './recorder.js';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type MessageHandler = (message: unknown, headers: Record<string, string>) => unknown;

export class HttpListener {
  private server?: Server;
  private handler: MessageHandler = () => undefined;
  private readonly log: Received[] = [];
  private urlValue?: string;

  constructor(
    readonly recorder: Recorder,
    readonly path = '/mcp',
  ) {}

  /** The endpoint clients connect to. */
  get url(): string {
    if (!this.urlValue) throw new Error('HttpListener.url before listen()');
    return this.urlValue;
  }

  handle(h: MessageHandler): void {
    this.handler = h;
  }

  received(): Received[] {
    return this.log.slice();
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
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== this.path) {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const body = await readBody(req);
    const parsed = body === undefined ? ({ ok: false } as const) : tryParseJson(body);
    const ev = this.recorder.record({
      dir: 'in',
      channel: 'http',
      raw: body ?? '',
      kind: parsed.ok && isJsonRpcMessage(parsed.value) ? 'message' : parsed.ok ? undefined : 'parse-error',
      message: parsed.ok ? parsed.value : undefined,
      http: { method: 'POST', headers: redactHeaders(headers), url: url.pathname },
    });
    const entry: Received = { message: parsed.ok ? parsed.value : body, headers, seq: ev.seq };
    this.log.push(entry);
    if (!parsed.ok) {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }));
      return;
    }
    const reply = await this.handler(parsed.value, headers);
    if (reply === undefined) {
      res.writeHead(202).end();
      return;
    }
    entry.reply = reply;
    const text = serializeBody(reply);
    this.recorder.record({ dir: 'out', channel: 'http', raw: text, kind: 'message', message: reply, http: { method: 'POST', status: 200, headers: { 'content-type': 'application/json' }, url: url.pathname } });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
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
