// Mutations of the http area (requirements digest §13b, §13c): what a Streamable HTTP server makes of
// its answers (status, headers, SSE streams) and of the headers it is asked to check. A server that
// does not check a header is played by putting the header right before the request reaches it
// (httpAsk), so it answers as a server that never looked at it would; everything else rewrites the
// answer's head (httpAnswer) or its messages (toClient).

import { randomUUID } from 'node:crypto';
import { decodeHeaderValue, encodeHeaderValue } from '../../protocol/http-headers.js';
import { isObj, isRequest, isResponse, type RequestId } from '../../protocol/jsonrpc.js';
import { META_PROTOCOL_VERSION } from '../../protocol/meta.js';
import { PARAM_HEADER_PREFIX, paramHeaderDeclarations, paramHeadersFor, type ParamHeaderDeclaration } from '../../protocol/param-headers.js';
import { LEGACY_VERSIONS, MODERN_VERSIONS } from '../../protocol/versions.js';
import { mutation, raw, type HttpAnswer, type HttpAsk, type Mutation, type MutationContext } from '../mutation.js';

type Obj = Record<string, unknown>;

const server = { role: 'server', eras: ['legacy', 'modern'], transports: ['http'] } as const;
const serverModern = { role: 'server', eras: ['modern'], transports: ['http'] } as const;
const serverLegacy = { role: 'server', eras: ['legacy'], transports: ['http'] } as const;

/** The handshake of either era: its answer is left alone so the session stays usable. */
const HANDSHAKE = ['initialize', 'server/discover'];
/** Requests a server might answer with a stream of related messages first. */
const CALLS = ['tools/call', 'prompts/get', 'resources/read'];
/** Versions a legacy server could have negotiated (or a modern one names). */
const KNOWN_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS, '2024-11-05'];
/** Which body field the `Mcp-Name` header mirrors, per method (HM-08, TB-19). */
const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

/** A request id as a map key (1 and "1" are different ids). */
export function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

/** A map kept in the mutation's state under `name`. */
export function stateMap<V>(ctx: MutationContext, name: string): Map<string, V> {
  if (!(ctx.state[name] instanceof Map)) ctx.state[name] = new Map<string, V>();
  return ctx.state[name] as Map<string, V>;
}

/** A set kept in the mutation's state under `name`. */
function stateSet(ctx: MutationContext, name: string): Set<string> {
  if (!(ctx.state[name] instanceof Set)) ctx.state[name] = new Set<string>();
  return ctx.state[name] as Set<string>;
}

/** The error code of a one-message answer, if it is an error response. */
function errorCode(a: HttpAnswer): number | undefined {
  const m = a.messages.length === 1 ? a.messages[0] : undefined;
  return isObj(m) && isObj(m.error) && typeof m.error.code === 'number' ? m.error.code : undefined;
}

/** An answer with its status changed when it has `from` and carries error `code`. */
function statusFor(code: number, from: number, to: number) {
  return (a: HttpAnswer): HttpAnswer | undefined => (a.status === from && errorCode(a) === code ? { ...a, status: to } : undefined);
}

/** The request body of an ask, when it is a JSON-RPC request. */
function requestBody(ask: HttpAsk): (Obj & { method: string; id: RequestId }) | undefined {
  return isObj(ask.body) && isRequest(ask.body) ? ask.body : undefined;
}

function paramsOf(m: Obj): Obj {
  return isObj(m.params) ? m.params : {};
}

/** An Origin that names no loopback host (or cannot be read): one a local server must refuse. */
export function isForeignOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return false;
  try {
    const host = new URL(origin).hostname;
    return !['localhost', '127.0.0.1', '[::1]', '::1'].includes(host);
  } catch {
    return true;
  }
}

/** A GET or DELETE the server refused: the answer a mutation may turn into something else. */
function refusedBodiless(a: HttpAnswer, method: string): boolean {
  return a.method === method && !a.request && (a.status === 405 || a.status === 404);
}

/** An empty body (the proxy writes the raw text as it is). */
const EMPTY = raw('');

/** Sentinel-shaped (`=?base64?...?=`) with a valid Base64 payload. */
function validSentinel(value: string): boolean {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return false;
  const b64 = value.slice('=?base64?'.length, -2);
  return b64.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(b64) && Buffer.from(b64, 'base64').toString('base64') === b64;
}

export const HTTP_MUTATIONS: Mutation[] = [
  // ---------------------------------------------------------------- notifications (HL-02, HM-02)
  mutation({
    ...server,
    id: 'http.notification-200',
    requirements: ['HL-02', 'HM-02'],
    description: 'POSTed notifications and responses the server accepted are answered 200 instead of 202',
    httpAnswer(a) {
      if (a.method !== 'POST' || a.request || a.status !== 202) return undefined;
      return { ...a, status: 200 };
    },
  }),
  mutation({
    ...server,
    id: 'http.notification-202-with-body',
    requirements: ['HL-02', 'HM-02'],
    description: 'the 202 answering an accepted notification or response carries a body ("Accepted", text/plain) instead of none',
    httpAnswer(a) {
      if (a.method !== 'POST' || a.request || a.status !== 202 || a.messages.length) return undefined;
      return { ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' }, messages: [raw('Accepted')] };
    },
  }),

  // ---------------------------------------------------------------- content type (HL-03, HM-03)
  mutation({
    ...server,
    id: 'http.json-content-type-wrong',
    requirements: ['HL-03', 'HM-03'],
    description: 'JSON answers to requests other than the handshake say Content-Type: text/plain (the body is unchanged)',
    httpAnswer(a) {
      if (a.sse || !a.request || HANDSHAKE.includes(a.request.method) || !(a.headers['content-type'] ?? '').includes('json')) return undefined;
      return { ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' } };
    },
  }),

  // ---------------------------------------------------------------- statuses of modern errors (HM-07, HM-12, HM-06, HM-08)
  mutation({
    ...serverModern,
    id: 'http.unknown-method-200',
    requirements: ['HM-07'],
    related: ['VN-07'],
    description: 'the -32601 answer to an unknown method comes with HTTP 200 instead of 404',
    httpAnswer: statusFor(-32601, 404, 200),
  }),
  mutation({
    ...serverModern,
    id: 'http.unknown-method-404-plain',
    requirements: ['HM-07'],
    related: ['VN-07', 'ED-04'],
    description: 'an unknown method gets a plain-text 404 ("Not Found") without the -32601 JSON-RPC body',
    httpAnswer(a) {
      if (a.status !== 404 || errorCode(a) !== -32601) return undefined;
      return { ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' }, messages: [raw('Not Found')] };
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.header-mismatch-200',
    requirements: ['HM-08'],
    related: ['HM-06', 'HM-11', 'HM-12'],
    description: 'the -32020 (header mismatch) answer comes with HTTP 200 instead of 400',
    httpAnswer: statusFor(-32020, 400, 200),
  }),
  mutation({
    ...serverModern,
    id: 'http.missing-capability-200',
    requirements: ['HM-12'],
    related: ['MT-05'],
    description: 'the -32021 (missing client capability) answer comes with HTTP 200 instead of 400',
    httpAnswer: statusFor(-32021, 400, 200),
  }),
  mutation({
    ...serverModern,
    id: 'http.unsupported-version-200',
    requirements: ['HM-12', 'VN-02'],
    related: ['HM-06'],
    description: 'the -32022 (unsupported protocol version) answer comes with HTTP 200 instead of 400',
    httpAnswer: statusFor(-32022, 400, 200),
  }),
  mutation({
    ...serverModern,
    id: 'http.missing-meta-200',
    requirements: ['HM-12'],
    related: ['MT-02'],
    description: 'a -32602 answered with HTTP 400 (a request lacking required _meta) comes with 200 instead',
    httpAnswer: statusFor(-32602, 400, 200),
  }),

  // ---------------------------------------------------------------- sessions at a modern server (HM-14)
  mutation({
    ...serverModern,
    id: 'http.modern-mints-session-id',
    requirements: ['HM-14'],
    description: 'answers to modern requests carry an Mcp-Session-Id header (one random id for the whole run)',
    httpAnswer(a, ctx) {
      if (!a.request || 'mcp-session-id' in a.headers) return undefined;
      if (typeof ctx.state.sid !== 'string') ctx.state.sid = randomUUID();
      return { ...a, headers: { ...a.headers, 'mcp-session-id': ctx.state.sid as string } };
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.modern-echoes-session-id',
    requirements: ['HM-14'],
    description: 'an answer to a request (or GET/DELETE) that carried an Mcp-Session-Id echoes that header back',
    httpAsk(ask, ctx) {
      const sid = ask.headers['mcp-session-id'];
      if (sid === undefined) return undefined;
      stateMap<string>(ctx, 'sids').set(ctx.request ? idKey(ctx.request.id) : `no-body:${ask.method}`, sid);
      return undefined;
    },
    httpAnswer(a, ctx) {
      const sids = stateMap<string>(ctx, 'sids');
      const k = a.request ? idKey(a.request.id) : `no-body:${a.method}`;
      const sid = sids.get(k);
      if (sid === undefined || 'mcp-session-id' in a.headers) return undefined;
      sids.delete(k);
      return { ...a, headers: { ...a.headers, 'mcp-session-id': sid } };
    },
  }),
  mutation({
    ...server,
    id: 'http.get-200-json',
    requirements: ['HL-05', 'HM-14'],
    related: ['HM-01'],
    description: 'a GET the server refused with 405 is answered 200 with a JSON body ({"status":"ok"}) instead: neither an SSE stream nor 405',
    httpAnswer(a) {
      if (!refusedBodiless(a, 'GET') || a.status !== 405) return undefined;
      return { ...a, status: 200, headers: { 'content-type': 'application/json' }, messages: [{ status: 'ok' }], sse: false };
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.modern-delete-200',
    requirements: ['HM-14'],
    description: 'a DELETE the modern server refused with 405 is answered 200 with an empty body',
    httpAnswer(a) {
      if (!refusedBodiless(a, 'DELETE') || a.status !== 405) return undefined;
      return { ...a, status: 200, headers: {}, messages: [EMPTY], sse: false };
    },
  }),

  // ---------------------------------------------------------------- SSE answers (HM-04, HM-15, HL-04)
  mutation({
    ...serverModern,
    id: 'http.sse-no-accel-buffering',
    requirements: ['HM-04'],
    description: 'SSE answers lose their X-Accel-Buffering: no header',
    httpAnswer(a) {
      if (!a.sse || !('x-accel-buffering' in a.headers)) return undefined;
      const headers = { ...a.headers };
      delete headers['x-accel-buffering'];
      return { ...a, headers };
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.sse-carries-request',
    requirements: ['HM-04'],
    related: ['JR-09'],
    description: 'answers to tools/call, prompts/get and resources/read come as an SSE stream that first carries a JSON-RPC request (ping) to the client',
    toClient(m, ctx) {
      if (!isResponse(m) || !ctx.request || !CALLS.includes(ctx.request.method)) return undefined;
      const n = (typeof ctx.state.asks === 'number' ? ctx.state.asks : 0) + 1;
      ctx.state.asks = n;
      return [{ jsonrpc: '2.0', id: `mcpspec-mutant-ask-${n}`, method: 'ping' }, m];
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.list-changed-on-request-stream',
    requirements: ['HM-15'],
    related: ['HM-04', 'SB-02'],
    description: 'answers to tools/call come as an SSE stream that first carries notifications/tools/list_changed (not on a subscriptions/listen stream)',
    toClient(m, ctx) {
      if (!isResponse(m) || ctx.request?.method !== 'tools/call') return undefined;
      return [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, m];
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.sse-foreign-progress',
    requirements: ['HM-04'],
    related: ['PR-01'],
    description: 'answers to tools/call come as an SSE stream that first carries a progress notification for a token the request never sent',
    toClient(m, ctx) {
      if (!isResponse(m) || ctx.request?.method !== 'tools/call') return undefined;
      return [{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'mcpspec-mutant-other-request', progress: 1 } }, m];
    },
  }),
  mutation({
    ...server,
    id: 'http.sse-message-after-response',
    requirements: ['HM-04', 'HL-04'],
    related: ['PR-01', 'IR-15'],
    description: 'an answer to a request that asked for progress is followed on its SSE stream by one more progress notification for that token',
    toClient(m, ctx) {
      if (!isResponse(m) || !ctx.request) return undefined;
      const meta = ctx.request.params._meta;
      const token = isObj(meta) ? meta.progressToken : undefined;
      if (typeof token !== 'string' && typeof token !== 'number') return undefined;
      return [m, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1_000_000 } }];
    },
  }),

  // ---------------------------------------------------------------- legacy sessions and streams (HL-05..HL-08)
  mutation({
    ...serverLegacy,
    id: 'http.legacy-session-id-invisible',
    requirements: ['HL-07'],
    description: 'the Mcp-Session-Id the server issues has a space in the middle (not visible ASCII); the echoed id is put right again on its way in',
    httpAnswer(a, ctx) {
      const sid = a.headers['mcp-session-id'];
      if (sid === undefined || sid.includes(' ')) return undefined;
      const half = Math.max(1, Math.floor(sid.length / 2));
      const shown = `${sid.slice(0, half)} ${sid.slice(half)}`;
      stateMap<string>(ctx, 'shown').set(shown, sid);
      return { ...a, headers: { ...a.headers, 'mcp-session-id': shown } };
    },
    httpAsk(ask, ctx) {
      const sid = ask.headers['mcp-session-id'];
      const real = sid === undefined ? undefined : stateMap<string>(ctx, 'shown').get(sid);
      if (real === undefined) return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-session-id': real } };
    },
  }),
  mutation({
    ...serverLegacy,
    id: 'http.legacy-session-survives-delete',
    requirements: ['HL-07'],
    description: 'DELETE of a session is acknowledged 200 but the session lives on (later requests with its id are served, not 404)',
    httpAsk(ask, ctx) {
      const sid = ask.headers['mcp-session-id'];
      if (ask.method !== 'DELETE' || sid === undefined) return undefined;
      // A count, not a flag: sessions end side by side, and each refused DELETE must be turned into 200.
      ctx.state.deleting = ((ctx.state.deleting as number | undefined) ?? 0) + 1;
      // The server is asked to end a session that does not exist, so the real one stays.
      return { ...ask, headers: { ...ask.headers, 'mcp-session-id': `${sid}-mcpspec-kept` } };
    },
    httpAnswer(a, ctx) {
      const deleting = (ctx.state.deleting as number | undefined) ?? 0;
      if (a.method !== 'DELETE' || deleting === 0 || (a.status !== 404 && a.status !== 400)) return undefined;
      ctx.state.deleting = deleting - 1;
      return { ...a, status: 200, headers: {}, messages: [EMPTY], sse: false };
    },
  }),
  mutation({
    ...serverLegacy,
    id: 'http.legacy-get-stream-response',
    requirements: ['HL-05'],
    related: ['HL-06'],
    description: 'the GET stream carries a JSON-RPC response (a replay of the last answer): before each message the server sends on it, or as the whole stream when the server refused GET with 405',
    toClient(m, ctx) {
      if (isResponse(m) && m.id !== undefined && m.id !== null) {
        ctx.state.last = structuredClone(m);
        return undefined;
      }
      // Only what comes on the GET stream belongs to no POSTed request.
      if (ctx.request || !isObj(ctx.state.last)) return undefined;
      return [structuredClone(ctx.state.last), m];
    },
    httpAnswer(a, ctx) {
      if (!refusedBodiless(a, 'GET') || a.status !== 405 || !isObj(ctx.state.last)) return undefined;
      return { ...a, status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, messages: [structuredClone(ctx.state.last)], sse: true };
    },
  }),
  mutation({
    ...serverLegacy,
    id: 'http.legacy-event-ids-repeat',
    requirements: ['HL-06'],
    description: 'events of each POST answer stream are numbered from 1 again (id: 1, 2, ...), so event ids repeat within the session',
    httpAnswer(a, ctx) {
      if (a.sse && a.request) stateMap<number>(ctx, 'streams').set(idKey(a.request.id), 0);
      return undefined;
    },
    toClient(m, ctx) {
      const streams = stateMap<number>(ctx, 'streams');
      const k = ctx.request ? idKey(ctx.request.id) : undefined;
      const n = k === undefined ? undefined : streams.get(k);
      if (k === undefined || n === undefined) return undefined;
      if (isResponse(m)) streams.delete(k);
      else streams.set(k, n + 1);
      return [raw(`id: ${n + 1}\nevent: message\ndata: ${JSON.stringify(m)}\n\n`)];
    },
  }),
  mutation({
    ...serverLegacy,
    id: 'http.legacy-version-header-not-checked',
    requirements: ['HL-08'],
    description: 'an MCP-Protocol-Version header naming no known version is served as if it named the negotiated one (no 400)',
    toClient(m, ctx) {
      if (ctx.request?.method === 'initialize' && isResponse(m) && isObj(m.result) && typeof m.result.protocolVersion === 'string') ctx.state.negotiated = m.result.protocolVersion;
      return undefined;
    },
    httpAsk(ask, ctx) {
      const v = ask.headers['mcp-protocol-version'];
      if (v === undefined || KNOWN_VERSIONS.includes(v) || typeof ctx.state.negotiated !== 'string') return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-protocol-version': ctx.state.negotiated } };
    },
  }),
  mutation({
    ...server,
    id: 'http.old-sse-transport-on-get',
    requirements: ['HM-16'],
    related: ['HL-05', 'HM-14'],
    description: 'a GET the server refused with 405 or 404 opens a deprecated HTTP+SSE stream instead (an "endpoint" event naming a message URL)',
    httpAnswer(a) {
      if (!refusedBodiless(a, 'GET')) return undefined;
      return { ...a, status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, messages: [raw('event: endpoint\ndata: /messages?sessionId=mcpspec-mutant\n\n')], sse: true };
    },
  }),

  // ---------------------------------------------------------------- Origin (HM-13)
  mutation({
    ...server,
    id: 'http.origin-not-checked',
    requirements: ['HM-13'],
    description: 'requests with a foreign Origin are served as if they had none (the server never looks at Origin)',
    httpAsk(ask) {
      if (!isForeignOrigin(ask.headers.origin)) return undefined;
      const headers = { ...ask.headers };
      delete headers.origin;
      return { ...ask, headers };
    },
  }),
  mutation({
    ...server,
    id: 'http.origin-refused-400',
    requirements: ['HM-13'],
    description: 'requests the server refuses for their foreign Origin get 400 instead of 403',
    httpAsk(ask, ctx) {
      if (ctx.request && isForeignOrigin(ask.headers.origin)) stateSet(ctx, 'foreign').add(idKey(ctx.request.id));
      return undefined;
    },
    httpAnswer(a, ctx) {
      const foreign = stateSet(ctx, 'foreign');
      if (!a.request || a.status !== 403 || !foreign.has(idKey(a.request.id))) return undefined;
      foreign.delete(idKey(a.request.id));
      return { ...a, status: 400 };
    },
  }),

  // ---------------------------------------------------------------- mirror headers the server should check (HM-06, HM-08, HM-09, HM-11)
  mutation({
    ...serverModern,
    id: 'http.method-header-not-checked',
    requirements: ['HM-08'],
    description: 'a request whose Mcp-Method header is missing or disagrees with its body is served (the server never compares them)',
    httpAsk(ask) {
      const body = requestBody(ask);
      if (!body) return undefined;
      const h = ask.headers['mcp-method'];
      if (h !== undefined && decodeHeaderValue(h) === body.method) return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-method': encodeHeaderValue(body.method) } };
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.name-header-not-checked',
    requirements: ['HM-08'],
    related: ['TB-19'],
    description: 'a tools/call, prompts/get, resources/read or tasks request whose Mcp-Name header is missing or disagrees with its body is served',
    httpAsk(ask) {
      const body = requestBody(ask);
      const field = body ? NAME_FIELD[body.method] : undefined;
      const want = body && field ? paramsOf(body)[field] : undefined;
      if (typeof want !== 'string') return undefined;
      const h = ask.headers['mcp-name'];
      if (h !== undefined && decodeHeaderValue(h) === want) return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-name': encodeHeaderValue(want) } };
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.version-header-not-checked',
    requirements: ['HM-06'],
    related: ['VN-01'],
    description: 'a request whose MCP-Protocol-Version header is missing or differs from its _meta protocolVersion is served as if they agreed',
    httpAsk(ask) {
      const body = requestBody(ask);
      const meta = body ? paramsOf(body)._meta : undefined;
      const v = isObj(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
      if (typeof v !== 'string' || ask.headers['mcp-protocol-version'] === v) return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-protocol-version': v } };
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.param-header-not-checked',
    requirements: ['HM-11'],
    description: 'a tools/call whose Mcp-Param-* headers are missing, malformed or disagree with its arguments is served (the headers are put right before the server sees them)',
    toClient(m, ctx) {
      if (ctx.request?.method !== 'tools/list' || !isResponse(m) || !isObj(m.result) || !Array.isArray(m.result.tools)) return undefined;
      const tools = stateMap<ParamHeaderDeclaration[]>(ctx, 'declarations');
      for (const t of m.result.tools) {
        if (!isObj(t) || typeof t.name !== 'string') continue;
        const d = paramHeaderDeclarations(t.inputSchema).declarations;
        if (d?.length) tools.set(t.name, d);
      }
      return undefined;
    },
    httpAsk(ask, ctx) {
      const body = requestBody(ask);
      if (!body || body.method !== 'tools/call') return undefined;
      const params = paramsOf(body);
      const declarations = typeof params.name === 'string' ? stateMap<ParamHeaderDeclaration[]>(ctx, 'declarations').get(params.name) : undefined;
      if (!declarations) return undefined;
      const want = Object.fromEntries(Object.entries(paramHeadersFor(declarations, params.arguments)).map(([k, v]) => [k.toLowerCase(), v]));
      const declared = declarations.map((d) => `${PARAM_HEADER_PREFIX}${d.header}`.toLowerCase());
      const headers = { ...ask.headers };
      let changed = false;
      for (const name of declared) {
        const got = headers[name];
        const expected = want[name];
        if (expected === undefined) {
          if (got !== undefined) {
            delete headers[name];
            changed = true;
          }
        } else if (got === undefined || decodeHeaderValue(got) !== decodeHeaderValue(expected) || (got.startsWith('=?base64?') && !validSentinel(got))) {
          headers[name] = expected;
          changed = true;
        }
      }
      return changed ? { ...ask, headers } : undefined;
    },
  }),
  mutation({
    ...serverModern,
    id: 'http.header-sentinel-not-decoded',
    requirements: ['HM-09'],
    related: ['HM-11', 'HM-08'],
    description: 'a request whose Mcp-Name or Mcp-Param-* header is correctly Base64-encoded (=?base64?...?=) is refused with 400 and -32020, as if the server compared the encoded text',
    httpAsk(ask, ctx) {
      if (!ctx.request) return undefined;
      const encoded = Object.entries(ask.headers).find(([k, v]) => (k === 'mcp-name' || k.startsWith(PARAM_HEADER_PREFIX.toLowerCase())) && validSentinel(v));
      if (encoded) stateMap<string>(ctx, 'encoded').set(idKey(ctx.request.id), encoded[0]);
      return undefined;
    },
    toClient(m, ctx) {
      const k = ctx.request && isResponse(m) ? idKey(ctx.request.id) : undefined;
      const encoded = stateMap<string>(ctx, 'encoded');
      const header = k === undefined ? undefined : encoded.get(k);
      if (k === undefined || !header) return undefined;
      encoded.delete(k);
      stateSet(ctx, 'refused').add(k);
      return [{ jsonrpc: '2.0', id: m.id, error: { code: -32020, message: `Header mismatch: ${header} does not match the request body` } }];
    },
    // A JSON answer's head comes after its message (an SSE head before its events: it keeps its 200).
    httpAnswer(a, ctx) {
      const refused = stateSet(ctx, 'refused');
      if (!a.request || !refused.delete(idKey(a.request.id))) return undefined;
      return a.sse || a.status === 400 ? undefined : { ...a, status: 400 };
    },
  }),
];
