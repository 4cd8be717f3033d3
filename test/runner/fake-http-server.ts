// A throwaway Streamable HTTP server for runner tests (node:http, 127.0.0.1, port 0).
// mode 'legacy': sessions (Mcp-Session-Id minted on initialize and required afterwards, like the
// v1 SDK), server/discover before initialize -> 400 with an id-less -32000 error.
// mode 'legacy-plain': same, but the probe gets a plain-text 400.
// mode 'modern': stateless, server/discover works, header/body validation (-32020).

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  json?: Record<string, unknown>;
}

export interface FakeHttp {
  url: string;
  seen: SeenRequest[];
  /** TCP connections accepted so far (kept-alive requests share one). */
  readonly connections: number;
  close(): Promise<void>;
}

export interface FakeHttpOptions {
  mode: 'legacy' | 'legacy-plain' | 'modern';
  deleteStatus?: number;
  /** A plain GET opens a standalone stream that asks the client roots/list (id "g1") at once. */
  standalone?: boolean;
}

const SESSION = 'sess-123';

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sse(res: ServerResponse, prime = true): (msg: unknown) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  if (prime) res.write('id: 0\ndata: \n\n'); // priming event (HL-04)
  let n = 1;
  return (msg) => res.write(`id: ${n++}\nevent: message\ndata: ${JSON.stringify(msg)}\n\n`);
}

export async function startFakeHttp(opts: FakeHttpOptions): Promise<FakeHttp> {
  const seen: SeenRequest[] = [];
  const waiters = new Map<unknown, (msg: unknown) => void>();
  /** Answers of polled streams, by the last event id sent before the server closed the stream. */
  const polled = new Map<string, { answer: unknown; nextId: string }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: SeenRequest = { method: req.method ?? '', headers: req.headers, body };
      seen.push(entry);
      if (req.method === 'DELETE') {
        res.writeHead(opts.deleteStatus ?? 200).end();
        return;
      }
      if (req.method === 'GET') {
        // Resuming a polled stream (sse/poll): its answer, after the event the client names.
        const parked = polled.get(String(req.headers['last-event-id']));
        if (parked) {
          polled.delete(String(req.headers['last-event-id']));
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`id: ${parked.nextId}\nevent: message\ndata: ${JSON.stringify(parked.answer)}\n\n`);
          return;
        }
        if (opts.standalone) {
          sse(res)({ jsonrpc: '2.0', id: 'g1', method: 'roots/list', params: {} });
          return;
        }
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(body) as Record<string, unknown>;
        entry.json = msg;
      } catch {
        json(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
        return;
      }
      const { id, method } = msg as { id?: string | number; method?: string };
      if (method === undefined) {
        // a client reply to one of our server->client requests
        waiters.get(id)?.(msg);
        waiters.delete(id);
        res.writeHead(202).end();
        return;
      }
      if (id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const legacy = opts.mode !== 'modern';
      const error = (status: number, code: number, message: string, errId: unknown = id) =>
        json(res, status, { jsonrpc: '2.0', ...(errId === undefined ? {} : { id: errId }), error: { code, message } });

      if (legacy) {
        if (method === 'initialize') {
          const params = msg.params as { protocolVersion: string };
          json(
            res,
            200,
            {
              jsonrpc: '2.0',
              id,
              result: {
                protocolVersion: params.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: 'fake-http', version: '1.0.0' },
              },
            },
            { 'mcp-session-id': SESSION },
          );
          return;
        }
        if (req.headers['mcp-session-id'] !== SESSION) {
          if (opts.mode === 'legacy-plain') {
            res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request');
            return;
          }
          error(400, -32000, 'Bad Request: No valid session ID provided', null);
          return;
        }
      } else {
        // Modern validation (HM-06/HM-08): headers must mirror the body.
        const meta = (msg.params as { _meta?: Record<string, unknown> } | undefined)?._meta ?? {};
        const pv = req.headers['mcp-protocol-version'];
        if (pv !== meta['io.modelcontextprotocol/protocolVersion']) return error(400, -32020, `MCP-Protocol-Version ${String(pv)} does not match _meta`);
        if (req.headers['mcp-method'] !== method) return error(400, -32020, 'Mcp-Method does not match the body');
        if (pv !== '2026-07-28') return json(res, 400, { jsonrpc: '2.0', id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: pv } } });
      }

      switch (method) {
        case 'server/discover':
          json(res, 200, {
            jsonrpc: '2.0',
            id,
            result: {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: {} },
              ttlMs: 0,
              cacheScope: 'public',
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake-http-modern', version: '2.0.0' } },
            },
          });
          return;
        case 'echo/headers':
          json(res, 200, { jsonrpc: '2.0', id, result: { headers: req.headers, params: msg.params ?? null } });
          return;
        case 'tools/call':
        case 'resources/read':
          json(res, 200, { jsonrpc: '2.0', id, result: { mcpName: req.headers['mcp-name'] ?? null } });
          return;
        case 'sse/progress': {
          const send = sse(res);
          send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
          setTimeout(() => {
            send({ jsonrpc: '2.0', id, result: { done: true } });
            res.end();
          }, 30);
          return;
        }
        case 'sse/linger': {
          // response first, then the stream stays open: the client must stop reading on its own
          const send = sse(res);
          send({ jsonrpc: '2.0', id, result: { lingering: true } });
          return;
        }
        case 'sse/poll': {
          // HL-04 polling: a priming event with retry, then the server closes the stream before the
          // answer; the answer waits for a GET with Last-Event-ID (handled above).
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          polled.set(`p-${String(id)}`, { answer: { jsonrpc: '2.0', id, result: { resumed: true } }, nextId: `p-${String(id)}-2` });
          res.end(`retry: 150\nid: p-${String(id)}\ndata: \n\n`);
          return;
        }
        case 'sse/late-end': {
          // A slow answer (after `answerMs`), then the stream ends `endMs` later.
          const { answerMs = 0, endMs = 0 } = (msg.params as { answerMs?: number; endMs?: number } | undefined) ?? {};
          const send = sse(res);
          setTimeout(() => {
            send({ jsonrpc: '2.0', id, result: { late: true } });
            setTimeout(() => res.end(), endMs);
          }, answerMs);
          return;
        }
        case 'sse/poll-lost': {
          // Closed before the answer, and nothing parked: a GET to resume gets 405.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`retry: 50\nid: lost-${String(id)}\ndata: \n\n`);
          return;
        }
        case 'sse/unprimed': {
          // No priming event: the result is the stream's first event; the stream ends after it.
          sse(res, false)({ jsonrpc: '2.0', id, result: { primed: false } });
          res.end();
          return;
        }
        case 'sse/server-request': {
          const send = sse(res);
          waiters.set('s1', (reply) => {
            send({ jsonrpc: '2.0', id, result: { reply } });
            res.end();
          });
          send({ jsonrpc: '2.0', id: 's1', method: 'roots/list', params: {} });
          return;
        }
        case 'sse/hang': {
          const send = sse(res);
          send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'still working' } });
          return;
        }
        case 'json/hang':
          return;
        case 'json/delay': {
          const ms = (msg.params as { ms?: number } | undefined)?.ms ?? 0;
          setTimeout(() => json(res, 200, { jsonrpc: '2.0', id, result: { delayedMs: ms } }), ms);
          return;
        }
        default:
          if (legacy) error(200, -32601, 'Method not found');
          else error(404, -32601, 'Method not found');
      }
    });
  });
  let connections = 0;
  server.on('connection', () => void connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
