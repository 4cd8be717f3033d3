// The scripted server mcpspec plays for a client under test: a small, correct MCP server for both
// eras (a tool, a prompt, a resource), whose behaviour each client scenario (in its spec area's
// client-scenarios.ts) bends through ScriptOptions (legacy only, version counter-offer, input_required
// rounds, SSE answers, near-valid results). Pure logic over the ScriptedServer port: the runner
// carries the bytes.

import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, META_SERVER_INFO } from '../../protocol/meta.js';
import { isObj } from '../../protocol/jsonrpc.js';
import type { Received, ScriptedReply, ScriptedServer } from '../ports/scripted-server.js';

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSIONS_SERVED = ['2025-11-25', '2025-06-18', '2025-03-26'];
export const SCRIPTED_INFO = { name: 'mcpspec-scripted-server', version: '1' };
export const SESSION_ID = 'mcpspec-session-7f3a9c';

// Its text argument is declared x-mcp-header: an HTTP client mirrors it into Mcp-Param-Text (client.http-param-headers).
export const TOOL = { name: 'echo', title: 'Echo', description: 'Echoes its text argument', inputSchema: { type: 'object', properties: { text: { type: 'string', 'x-mcp-header': 'Text' } } }, annotations: { readOnlyHint: true } };
/**
 * A listed tool whose integer and boolean arguments are declared x-mcp-header (SEP-2243, HM-10), and
 * whose `text` is not: listed first by the client-param-types scenario (suites/transports/http/client-scenarios.ts), a client that calls it (the first listed tool, as most clients pick) mirrors
 * `count` and `enabled` in decimal and as true/false, and sends no header for `text`.
 */
export const TYPED_TOOL = {
  name: 'mcpspec_typed',
  title: 'Typed echo',
  description: 'Echoes its text; its count and enabled arguments are mirrored into Mcp-Param-Count and Mcp-Param-Enabled',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      enabled: { type: 'boolean', 'x-mcp-header': 'Enabled' },
    },
  },
  annotations: { readOnlyHint: true },
};

export const PROMPT = { name: 'greeting', description: 'A greeting', arguments: [{ name: 'name', description: 'who to greet', required: false }] };
export const RESOURCE = { uri: 'mcpspec://scripted/readme', name: 'readme', mimeType: 'text/plain' };
const CAPS = { tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false, subscribe: false } };

export interface ScriptOptions {
  /** Which eras the server speaks: discover (modern) and initialize (legacy). */
  modern: boolean;
  legacy: boolean;
  /** Answer every request as an SSE stream (HTTP). */
  sse?: boolean;
  /**
   * Hold each initialize answer for clientPaceMs(timeoutMs) from its arrival (LC-06 gets a chance
   * to show): a fixed time, not the client's pace, so a client that does not wait is seen in every run.
   */
  holdInitialize?: boolean;
  /** Legacy: before answering the first request after notifications/initialized, send ping and the declared server->client requests. */
  serverRequests?: boolean;
  /** The request timeout (waits for the client's answers). */
  timeoutMs: number;
  /** Capabilities the legacy server declares in its initialize result (default: tools, prompts, resources). */
  legacyCapabilities?: Record<string, unknown>;
  /** Answer every modern request with -32022 naming only the legacy versions (a counter-offer). */
  counterOffer?: boolean;
  /**
   * HTTP, legacy: refuse every request outside a session (modern ones included) with this answer,
   * e.g. as the 1.x SDK's servers do (lifecycle/client-scenarios.ts): 400 with -32000 and a null
   * id, which is no recognised modern error (ED-04).
   */
  refuseOutsideSession?: ScriptedReply;
  /** A scenario's own answers: return undefined to let the plain server answer. */
  override?: (msg: Request, ctx: MessageContext) => unknown;
  /**
   * HTTP, 2025-11-25 sessions: the first `count` answers after initialize come by polling (HL-04):
   * the stream names `retryMs` and closes, the answer waits for the client's GET with Last-Event-ID.
   */
  poll?: { retryMs: number; count: number };
  /**
   * HTTP, 2026-07-28 (HM-05): the answer streams of the first `n` requests other than server/discover
   * close before their answers, which are never sent: the client must re-issue each with a new id.
   */
  breakStreams?: number;
  /** stdio, 2026-07-28 (IO-06): the server process dies on the first `n` requests other than server/discover. */
  dieOn?: number;
  /** Legacy: answer every initialize with this protocolVersion, whatever was asked (LC-04). */
  initializeVersion?: string;
}

export interface Request {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

export interface MessageContext {
  received: Received;
  era: 'modern' | 'legacy';
  /** Capabilities the client declared: on this request (modern) or at initialize (legacy). */
  capabilities: Record<string, unknown>;
}

const ok = (id: unknown, result: Record<string, unknown>) => ({ jsonrpc: '2.0', id, result });

/** A DiscoverResult from the scripted server: its versions and capabilities, public, cached `ttlMs`. */
export const discoverResult = (supportedVersions: string[], capabilities: Record<string, unknown>, ttlMs = 0) => ({
  resultType: 'complete',
  supportedVersions,
  capabilities,
  ttlMs,
  cacheScope: 'public',
  _meta: { [META_SERVER_INFO]: SCRIPTED_INFO },
});
export const rpcError = (id: unknown, code: number, message: string, data?: unknown) => ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });

/** An answer with an HTTP status (errors of the modern HTTP transport have their own statuses). */
function withStatus(response: unknown, status: number): ScriptedReply {
  return { scripted: true, response, status };
}

export function modernMetaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = isObj(params) ? params._meta : undefined;
  return isObj(meta) && typeof meta[META_PROTOCOL_VERSION] === 'string' ? meta : undefined;
}

/** The plain results, per era (modern ones carry resultType, ttlMs, cacheScope and serverInfo); `alsoListed` follows TOOL in tools/list. */
export function plainResult(method: string, params: Record<string, unknown>, era: 'modern' | 'legacy', alsoListed: readonly Record<string, unknown>[] = []): Record<string, unknown> | undefined {
  const cache = era === 'modern' ? { ttlMs: 0, cacheScope: 'public' } : {};
  let r: Record<string, unknown> | undefined;
  switch (method) {
    case 'ping': r = {}; break;
    case 'tools/list': r = { tools: [TOOL, ...alsoListed], ...cache }; break;
    case 'prompts/list': r = { prompts: [PROMPT], ...cache }; break;
    case 'resources/list': r = { resources: [RESOURCE], ...cache }; break;
    case 'resources/templates/list': r = { resourceTemplates: [], ...cache }; break;
    case 'tools/call': {
      const text = isObj(params.arguments) && typeof params.arguments.text === 'string' ? params.arguments.text : '';
      r = { content: [{ type: 'text', text: `echo: ${text}` }], isError: false };
      break;
    }
    case 'prompts/get': r = { description: 'A greeting', messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] }; break;
    case 'resources/read': r = params.uri === RESOURCE.uri ? { contents: [{ uri: RESOURCE.uri, mimeType: 'text/plain', text: 'mcpspec scripted resource' }], ...cache } : undefined; break;
    case 'completion/complete': r = { completion: { values: [], total: 0, hasMore: false } }; break;
    default: return undefined;
  }
  if (r && era === 'modern') return { resultType: 'complete', ...r, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } };
  return r;
}

/** The key of a legacy session: the stdio connection, or the HTTP session id. */
function sessionKey(r: Received): string {
  return r.headers ? `http:${r.headers['mcp-session-id'] ?? ''}` : `stdio:${r.connection}`;
}

/** What the script did that judges need to know. */
export interface ScriptLog {
  /** Server-to-client requests sent (legacy); `declared` says whether the client declared the capability. */
  serverRequests: { id: string; method: string; declared: boolean }[];
  /** -32022 answers: the request id and the version refused. */
  refused: { id: unknown; version: unknown; supported: string[] }[];
  /** How long each initialize answer was held (ScriptOptions.holdInitialize). */
  initializeHeldMs?: number;
}

/**
 * A wait of the scripted server's own (a held initialize answer, a list_changed sent later): a fixed
 * time, not the client's pace, long beside any client's own turnaround and short beside the timeout.
 */
export function clientPaceMs(timeoutMs: number): number {
  return Math.min(1000, Math.floor(timeoutMs / 4));
}

/** Install the scripted server on the port (the handler lives as long as the scenario). */
export function runScript(server: ScriptedServer, opts: ScriptOptions): ScriptLog {
  const log: ScriptLog = { serverRequests: [], refused: [], ...(opts.holdInitialize ? { initializeHeldMs: clientPaceMs(opts.timeoutMs) } : {}) };
  const sessions = new Map<string, { version: string; capabilities: Record<string, unknown>; initialized: boolean; requestsSent: boolean }>();
  let nextServerId = 1;
  const http = server.kind === 'http';

  const answer = (reply: unknown): unknown => {
    if (!opts.sse) return reply;
    const r: ScriptedReply = isScriptedReplyLike(reply) ? reply : { scripted: true, response: reply };
    return { ...r, sse: true };
  };
  let polls = 0;
  let breaks = 0;
  let deaths = 0;
  /** A legacy answer, by polling while the scenario asks for it (2025-11-25 sessions over HTTP). */
  const legacy = (reply: unknown, version: string): unknown => {
    const r: ScriptedReply = isScriptedReplyLike(reply) ? reply : { scripted: true, response: reply };
    // Only plain 200 answers: an HTTP error status cannot ride on a resumed stream.
    if (!opts.poll || !http || version !== '2025-11-25' || polls >= opts.poll.count || (r.status ?? 200) !== 200 || r.stream) return answer(reply);
    polls++;
    return { ...r, sse: true, poll: { retryMs: opts.poll.retryMs } };
  };

  server.handle((message, received) => {
    if (!isObj(message) || typeof message.method !== 'string') return undefined; // responses, notifications of no method
    if (!('id' in message)) {
      if (message.method === 'notifications/initialized') {
        const s = sessions.get(sessionKey(received));
        if (s) s.initialized = true;
      }
      return undefined;
    }
    const req: Request = { id: message.id as string | number, method: message.method, params: isObj(message.params) ? message.params : {} };
    const meta = modernMetaOf(req.params);
    if (req.method === 'initialize') return answer(initialize(req, received));
    if (meta) {
      if (opts.counterOffer) {
        log.refused.push({ id: req.id, version: meta[META_PROTOCOL_VERSION], supported: supportedList() });
        return answer(withStatus(rpcError(req.id, -32022, 'Unsupported protocol version', { supported: supportedList(), requested: meta[META_PROTOCOL_VERSION] }), http ? 400 : 200));
      }
      if (!opts.modern) {
        if (http && opts.refuseOutsideSession && !sessions.get(sessionKey(received))) return answer(opts.refuseOutsideSession);
        if (req.method === 'server/discover') return answer(withStatus(rpcError(req.id, -32601, 'Method not found'), http ? 404 : 200));
        const s = sessions.get(sessionKey(received));
        if (!s) return answer(withStatus(rpcError(req.id, -32600, 'Server not initialized'), http ? 400 : 200));
        return legacy(legacyAnswer(req, received, s), s.version);
      }
      if (meta[META_PROTOCOL_VERSION] !== MODERN_VERSION) {
        log.refused.push({ id: req.id, version: meta[META_PROTOCOL_VERSION], supported: supportedList() });
        return answer(withStatus(rpcError(req.id, -32022, 'Unsupported protocol version', { supported: supportedList(), requested: meta[META_PROTOCOL_VERSION] }), http ? 400 : 200));
      }
      if (http && breaks < (opts.breakStreams ?? 0) && req.method !== 'server/discover') {
        breaks++;
        return { scripted: true, broken: true } satisfies ScriptedReply;
      }
      if (!http && deaths < (opts.dieOn ?? 0) && req.method !== 'server/discover') {
        deaths++;
        return { scripted: true, die: true } satisfies ScriptedReply;
      }
      const capabilities = isObj(meta[META_CLIENT_CAPABILITIES]) ? (meta[META_CLIENT_CAPABILITIES] as Record<string, unknown>) : {};
      const own = opts.override?.(req, { received, era: 'modern', capabilities });
      if (own !== undefined) return answer(own);
      if (req.method === 'server/discover') {
        return answer(ok(req.id, discoverResult(supportedList(), CAPS)));
      }
      const r = plainResult(req.method, req.params, 'modern', server.alsoListed);
      if (r) return answer(ok(req.id, r));
      if (req.method === 'resources/read') return answer(withStatus(rpcError(req.id, -32602, 'Resource not found'), http ? 400 : 200));
      return answer(withStatus(rpcError(req.id, -32601, 'Method not found'), http ? 404 : 200));
    }
    // No modern _meta: a legacy request (or a malformed modern one).
    const s = sessions.get(sessionKey(received));
    if (req.method === 'ping') return answer(ok(req.id, {}));
    if (!s && http && opts.refuseOutsideSession) return answer(opts.refuseOutsideSession);
    if (!s || !opts.legacy) return answer(withStatus(rpcError(req.id, opts.legacy ? -32600 : -32602, opts.legacy ? 'Server not initialized' : 'Missing _meta: this server speaks 2026-07-28'), http ? 400 : 200));
    return legacy(legacyAnswer(req, received, s), s.version);
  });
  return log;

  function supportedList(): string[] {
    return [...(opts.modern ? [MODERN_VERSION] : []), ...(opts.legacy ? LEGACY_VERSIONS_SERVED : [])];
  }

  function initialize(req: Request, received: Received): unknown {
    const asked = typeof req.params.protocolVersion === 'string' ? req.params.protocolVersion : '';
    if (!opts.legacy) return withStatus(rpcError(req.id, -32022, 'Unsupported protocol version: this server speaks 2026-07-28 only', { supported: supportedList(), requested: asked }), http ? 400 : 200);
    const version = opts.initializeVersion ?? (LEGACY_VERSIONS_SERVED.includes(asked) ? asked : LEGACY_VERSIONS_SERVED[0]);
    const capabilities = isObj(req.params.capabilities) ? req.params.capabilities : {};
    const key = http ? `http:${SESSION_ID}` : `stdio:${received.connection}`;
    sessions.set(key, { version, capabilities, initialized: false, requestsSent: false });
    const response = ok(req.id, { protocolVersion: version, capabilities: opts.legacyCapabilities ?? CAPS, serverInfo: SCRIPTED_INFO });
    const reply: ScriptedReply = { scripted: true, response, headers: http ? { 'Mcp-Session-Id': SESSION_ID } : undefined };
    if (log.initializeHeldMs) reply.response = server.pause(log.initializeHeldMs).then(() => response);
    return reply;
  }

  function legacyAnswer(req: Request, received: Received, s: { version: string; capabilities: Record<string, unknown>; initialized: boolean; requestsSent: boolean }): unknown {
    const own = opts.override?.(req, { received, era: 'legacy', capabilities: s.capabilities });
    let response: unknown = own;
    if (response === undefined) {
      const r = plainResult(req.method, req.params, 'legacy', server.alsoListed);
      response = r ? ok(req.id, r) : req.method === 'resources/read' ? rpcError(req.id, -32002, 'Resource not found') : rpcError(req.id, -32601, 'Method not found');
    }
    if (!opts.serverRequests || s.requestsSent || !s.initialized) return response;
    // The first request after notifications/initialized: ask the client what it declared, and ping it.
    s.requestsSent = true;
    const asks = serverRequestsFor(s.capabilities).map((r) => ({ jsonrpc: '2.0', id: `mcpspec-${nextServerId++}`, method: r.method, ...(r.params ? { params: r.params } : {}), declared: r.declared }));
    for (const a of asks) log.serverRequests.push({ id: a.id, method: a.method, declared: a.declared });
    for (const a of asks) delete (a as { declared?: boolean }).declared;
    const answered = Promise.all(asks.map((a) => server.waitFor((x) => isObj(x.message) && x.message.id === a.id && !('method' in x.message), opts.timeoutMs)));
    return { scripted: true, before: asks, response: answered.then(() => (isScriptedReplyLike(response) ? response.response : response)) } satisfies ScriptedReply;
  }
}

function isScriptedReplyLike(v: unknown): v is ScriptedReply {
  return isObj(v) && v.scripted === true;
}

const SERVER_ASKS: [capability: string, method: string, params?: Record<string, unknown>][] = [
  ['roots', 'roots/list'],
  ['sampling', 'sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 16 }],
  ['elicitation', 'elicitation/create', { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }],
];

/**
 * The server->client requests a legacy server sends: ping always, the rest for what the client
 * declared, and one (the first) it did not declare: a client answers that with an error, not a result.
 */
export function serverRequestsFor(capabilities: Record<string, unknown>): { method: string; params?: Record<string, unknown>; declared: boolean }[] {
  const out: { method: string; params?: Record<string, unknown>; declared: boolean }[] = [{ method: 'ping', declared: true }];
  for (const [cap, method, params] of SERVER_ASKS) if (cap in capabilities) out.push({ method, ...(params ? { params } : {}), declared: true });
  const undeclared = SERVER_ASKS.find(([cap]) => !(cap in capabilities));
  if (undeclared) out.push({ method: undeclared[1], ...(undeclared[2] ? { params: undeclared[2] } : {}), declared: false });
  return out;
}

/** The input requests a modern server may embed for what the client declared on this request. */
export function inputRequestsFor(capabilities: Record<string, unknown>): Record<string, { method: string; params?: Record<string, unknown> }> {
  const out: Record<string, { method: string; params?: Record<string, unknown> }> = {};
  const elicitation = capabilities.elicitation;
  if (isObj(elicitation) && (Object.keys(elicitation).length === 0 || 'form' in elicitation)) {
    out.name = { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } };
  }
  if (isObj(capabilities.sampling)) out.draft = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 16 } };
  if (isObj(capabilities.roots)) out.roots = { method: 'roots/list', params: {} };
  return out;
}
