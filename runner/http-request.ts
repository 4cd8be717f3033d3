// One HTTP request on node:http(s), for the Streamable HTTP client transport. Node's global fetch
// (undici) costs a noticeable start-up (it is loaded on first use) and several times the CPU per
// request through its web streams; a conformance run sends hundreds of small requests, so the plain
// client is used instead. What fetch did that the transport relied on is kept: redirects are
// followed (at most 5; 307/308 resend the method and body, 301/302/303 turn a POST into a GET as
// fetch does) without carrying credentials to another origin, response header names are lower case
// and repeated ones are joined with ", ", and an invalid header name or value throws before anything
// is sent. Unlike fetch, nothing is added (no Accept, User-Agent or Accept-Encoding) and header names
// keep their case.

import { Agent as HttpAgent, request as httpRequest, validateHeaderName, validateHeaderValue, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface HttpRequest {
  method: 'POST' | 'GET' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The URL that answered (differs from the request's after a redirect). */
  url: string;
  /** The body as it arrives; `destroy()` it to stop reading early. */
  body: IncomingMessage;
}

const MAX_REDIRECTS = 5;
/** Dropped when a redirect leaves the origin (the Fetch standard drops Authorization; cookies and proxy credentials go too). */
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie)$/i;
// Keep-alive: a run sends hundreds of requests to one endpoint.
const httpAgent = new HttpAgent({ keepAlive: true, noDelay: true } as ConstructorParameters<typeof HttpAgent>[0]);
const httpsAgent = new HttpsAgent({ keepAlive: true, noDelay: true } as ConstructorParameters<typeof HttpsAgent>[0]);

/** Throw (like `new Headers()`) on a header name or value that cannot go on the wire. */
export function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
  }
}

function flatten(raw: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** A kept-alive connection the server had already closed when the request went out on it. */
interface StaleSocketError extends Error {
  staleSocket?: boolean;
}

const guarded = new WeakSet<object>();

function once(url: URL, req: HttpRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) {
      headers['Content-Length'] = String(Buffer.byteLength(req.body));
    }
    const secure = url.protocol === 'https:';
    const r = (secure ? httpsRequest : httpRequest)(url, { method: req.method, headers, agent: secure ? httpsAgent : httpAgent, signal: req.signal }, resolve);
    // Between a response's end and the socket's return to the pool Node leaves the socket without an
    // 'error' listener (a reset there would end mcpspec); one listener per socket closes that gap,
    // while errors during a request still reach the request's own listener below.
    r.on('socket', (socket) => {
      if (guarded.has(socket)) return;
      guarded.add(socket);
      socket.on('error', () => undefined);
    });
    r.on('error', (err: StaleSocketError) => {
      // The usual keep-alive race: the server closed an idle connection just as it was reused.
      // Nothing reached the server, so the caller may send again on a fresh connection.
      const code = (err as NodeJS.ErrnoException).code;
      if (r.reusedSocket && !req.signal.aborted && (code === 'ECONNRESET' || code === 'EPIPE')) err.staleSocket = true;
      reject(err);
    });
    r.end(req.body);
  });
}

/** `once`, sent again when it went out on a connection the server had closed (the agent drops it). */
async function fresh(url: URL, req: HttpRequest): Promise<IncomingMessage> {
  for (let tries = 1; ; tries++) {
    try {
      return await once(url, req);
    } catch (err) {
      if (!(err as StaleSocketError).staleSocket || tries >= 4) throw err;
    }
  }
}

/** Send one request (following redirects); resolves when the response head has arrived. */
export async function sendHttp(target: string, req: HttpRequest): Promise<HttpResponse> {
  checkHeaders(req.headers);
  let url = new URL(target);
  let current = req;
  for (let hops = 0; ; hops++) {
    const res = await fresh(url, current);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (hops < MAX_REDIRECTS && location && [301, 302, 303, 307, 308].includes(status)) {
      res.resume(); // drain the redirect's own body so the socket can be reused
      const next = new URL(location, url);
      // As fetch does: credentials are for the origin they were given for, never for where a redirect points.
      if (next.origin !== url.origin) current = { ...current, headers: Object.fromEntries(Object.entries(current.headers).filter(([k]) => !CREDENTIAL_HEADERS.test(k))) };
      url = next;
      if (status !== 307 && status !== 308 && current.method === 'POST') {
        const headers = Object.fromEntries(Object.entries(current.headers).filter(([k]) => !/^content-/i.test(k)));
        current = { ...current, method: 'GET', headers, body: undefined };
      }
      continue;
    }
    return { status, headers: flatten(res.headers), url: url.href, body: res };
  }
}
