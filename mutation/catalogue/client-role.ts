// Mutations of what a CLIENT sends (role client), whatever their spec area: mcpspec plays a scripted
// server and the proxy sits between it and the real client. Most rewrite the client's messages
// (toServer) or HTTP requests (httpAsk). A message the mutation adds on the client's behalf whose
// answer the real client never asked for is answered into the void (its answer goes no further). A
// few client behaviours can only be shown by what the client is told: those rewrite what the server
// sends (toClient) so that a correct client acts as the broken one would, and say so. Mutations that
// send more than one message for one, or drop a message the client waits on, are stdio only: the HTTP
// proxy forwards one message per POST and could only leave a dropped POST hanging.

import { decodeHeaderValue, encodeHeaderValue } from '../../protocol/http-headers.js';
import { isObj, isRequest, isResponse, type RequestId } from '../../protocol/jsonrpc.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../protocol/meta.js';
import { PARAM_HEADER_PREFIX } from '../../protocol/param-headers.js';
import { LEGACY_VERSIONS, MODERN_VERSIONS } from '../../protocol/versions.js';
import { onClientRequest } from '../edits.js';
import { CLIENT_ANY, CLIENT_LEGACY, CLIENT_MODERN, mutation, raw, type HttpAsk, type Mutation, type MutationContext } from '../mutation.js';
import { idKey, stateMap } from './http.js';

type Obj = Record<string, unknown>;

const clientStdio = { role: 'client', eras: ['legacy', 'modern'], transports: ['stdio'] } as const;
const clientModernStdio = { role: 'client', eras: ['modern'], transports: ['stdio'] } as const;
const clientLegacyStdio = { role: 'client', eras: ['legacy'], transports: ['stdio'] } as const;
const clientHttp = { role: 'client', eras: ['legacy', 'modern'], transports: ['http'] } as const;
const clientModernHttp = { role: 'client', eras: ['modern'], transports: ['http'] } as const;
const clientLegacyHttp = { role: 'client', eras: ['legacy'], transports: ['http'] } as const;

const HANDSHAKE = ['initialize', 'server/discover'];
const MRTR = ['tools/call', 'prompts/get', 'resources/read'];
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const KNOWN_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS, '2024-11-05'];
const NAME_METHODS = ['tools/call', 'prompts/get', 'resources/read', 'tasks/get', 'tasks/update', 'tasks/cancel'];
/** The client capability a legacy server request needs. */
const CAPABILITY_OF: Record<string, string> = { 'roots/list': 'roots', 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation' };
/** What a client that answers anyway answers (a plausible result of each request). */
const ANYWAY: Record<string, Obj> = {
  'roots/list': { roots: [] },
  'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: '' }, model: 'unknown' },
  'elicitation/create': { action: 'decline' },
};

function paramsOf(m: Obj): Obj {
  if (!isObj(m.params)) m.params = {};
  return m.params as Obj;
}

/** The request's modern `_meta`, when it has one. */
function modernMeta(m: Obj): Obj | undefined {
  const meta = isObj(m.params) ? m.params._meta : undefined;
  return isObj(meta) && typeof meta[META_PROTOCOL_VERSION] === 'string' ? meta : undefined;
}

/** The chain of MRTR rounds a request belongs to: its method and target. */
function chainKey(method: string, params: unknown): string {
  const p = isObj(params) ? params : {};
  return `${method} ${typeof p.name === 'string' ? p.name : typeof p.uri === 'string' ? p.uri : ''}`;
}

/** A retry of an MRTR round: it carries inputResponses or requestState. */
function isRetry(m: Obj): boolean {
  return isObj(m.params) && ('inputResponses' in m.params || 'requestState' in m.params);
}

/** Ids the mutation sent on the client's behalf: their answers are dropped. */
function injected(ctx: MutationContext): Map<string, true> {
  return stateMap<true>(ctx, 'injected');
}

function inject(ctx: MutationContext, prefix: string): string {
  const n = (typeof ctx.state.injectedCount === 'number' ? ctx.state.injectedCount : 0) + 1;
  ctx.state.injectedCount = n;
  const id = `mcpspec-mutant-${prefix}-${n}`;
  injected(ctx).set(idKey(id), true);
  return id;
}

/** toClient: drops answers to what the mutation sent itself. */
function swallowInjected(m: Obj, ctx: MutationContext): unknown[] | undefined {
  if (!isResponse(m) || !injected(ctx).has(idKey(m.id))) return undefined;
  injected(ctx).delete(idKey(m.id));
  return [];
}

/** Client ids the mutation replaced, by the id sent instead (FIFO): the answers get the client's ids back. */
function remaps(ctx: MutationContext): Map<string, RequestId[]> {
  return stateMap<RequestId[]>(ctx, 'remaps');
}

function remapOut(ctx: MutationContext, sent: unknown, real: RequestId): void {
  const q = remaps(ctx).get(idKey(sent)) ?? [];
  q.push(real);
  remaps(ctx).set(idKey(sent), q);
}

/** toClient: gives an answer to a replaced id the id the client used. */
function remapBack(m: Obj, ctx: MutationContext): unknown[] | undefined {
  if (!isResponse(m)) return undefined;
  const k = idKey(m.id);
  const q = remaps(ctx).get(k);
  if (!q?.length) return undefined;
  m.id = q.shift();
  if (!q.length) remaps(ctx).delete(k);
  return [m];
}

/** The body of an HTTP ask, when it is a JSON-RPC request. */
function requestBody(ask: HttpAsk): (Obj & { method: string; id: RequestId }) | undefined {
  return isObj(ask.body) && isRequest(ask.body) ? ask.body : undefined;
}

function withoutHeaders(ask: HttpAsk, drop: (name: string) => boolean): HttpAsk | undefined {
  const names = Object.keys(ask.headers).filter(drop);
  if (!names.length) return undefined;
  const headers = { ...ask.headers };
  for (const n of names) delete headers[n];
  return { ...ask, headers };
}

const isParamHeader = (name: string) => name.startsWith(PARAM_HEADER_PREFIX.toLowerCase());

/** The server's capabilities as the initialize result gave them (legacy). */
function recordServerCapabilities(m: Obj, ctx: MutationContext): undefined {
  if (ctx.request?.method === 'initialize' && isResponse(m) && isObj(m.result) && isObj(m.result.capabilities)) ctx.state.serverCaps = m.result.capabilities;
  return undefined;
}

function serverCaps(ctx: MutationContext): Obj | undefined {
  return isObj(ctx.state.serverCaps) ? ctx.state.serverCaps : undefined;
}

function declaresTaskCalls(caps: Obj): boolean {
  const t = caps.tasks;
  return isObj(t) && isObj(t.requests) && isObj(t.requests.tools) && isObj(t.requests.tools.call);
}

/** A request that is in flight until its answer goes by (for the in-flight rules). */
function inFlight(ctx: MutationContext): Map<string, RequestId> {
  return stateMap<RequestId>(ctx, 'inFlight');
}

/** input_required answers seen, by chain: the id of the request answered and the state issued. */
interface Chain {
  id: RequestId;
  requestState?: string;
  inputKeys: string[];
}
function recordChain(m: Obj, ctx: MutationContext): void {
  if (!ctx.request || !isResponse(m) || !isObj(m.result) || m.result.resultType !== 'input_required') return;
  const r = m.result;
  const chain: Chain = { id: ctx.request.id, inputKeys: isObj(r.inputRequests) ? Object.keys(r.inputRequests) : [] };
  if (typeof r.requestState === 'string') chain.requestState = r.requestState;
  const key = chainKey(ctx.request.method, ctx.request.params);
  const chains = stateMap<Chain>(ctx, 'chains');
  // A later round of a known chain keeps the chain's first id (what "the same id" means below).
  const prev = chains.get(key);
  chains.set(key, prev && isRetry({ params: ctx.request.params }) ? { ...chain, id: prev.id } : chain);
  ctx.state.lastChain = { key, requestState: chain.requestState };
}

/** The created tasks the client was told of: task id -> the request that created it and the task. */
function recordTask(m: Obj, ctx: MutationContext): void {
  if (!ctx.request || !isResponse(m) || !isObj(m.result)) return;
  const r = m.result;
  const task = r.resultType === 'task' && typeof r.taskId === 'string' ? r : isObj(r.task) && typeof r.task.taskId === 'string' ? r.task : undefined;
  if (task) stateMap<{ requestId: RequestId; task: Obj; modern: boolean }>(ctx, 'tasks').set(String(task.taskId), { requestId: ctx.request.id, task, modern: task === r });
}

export const CLIENT_ROLE_MUTATIONS: Mutation[] = [
  // ---------------------------------------------------------------- JSON-RPC (JR-02, JR-03, JR-07, JR-09)
  mutation({
    ...CLIENT_ANY,
    id: 'jsonrpc.client-null-id',
    requirements: ['JR-02'],
    description: 'tools/list requests carry "id": null (the answer, which then has a null id, is given the client\'s id back)',
    toServer(m, ctx) {
      if (!isRequest(m) || m.method !== 'tools/list') return undefined;
      remapOut(ctx, null, m.id);
      (m as Obj).id = null;
      return [m];
    },
    toClient: (m, ctx) => remapBack(m, ctx),
  }),
  mutation({
    ...CLIENT_LEGACY,
    id: 'jsonrpc.client-reuses-answered-id',
    requirements: ['JR-03b'],
    description: 'every legacy request after the initialize answer reuses the id of the initialize request (answers get the client\'s own ids back)',
    toServer(m, ctx) {
      if (!isRequest(m)) return undefined;
      if (m.method === 'initialize') {
        ctx.state.initId = m.id;
        return undefined;
      }
      if (ctx.state.initAnswered !== true || ctx.state.initId === undefined || idKey(ctx.state.initId) === idKey(m.id)) return undefined;
      remapOut(ctx, ctx.state.initId, m.id);
      (m as Obj).id = ctx.state.initId;
      return [m];
    },
    toClient(m, ctx) {
      if (ctx.state.initAnswered !== true) {
        if (isResponse(m) && ctx.state.initId !== undefined && idKey(m.id) === idKey(ctx.state.initId)) ctx.state.initAnswered = true;
        return undefined;
      }
      return remapBack(m, ctx);
    },
  }),
  mutation({
    ...CLIENT_ANY,
    id: 'jsonrpc.client-reuses-in-flight-id',
    requirements: ['JR-03', 'JR-03b'],
    description: 'a request sent while another is still unanswered takes that one\'s id (the second answer with that id is given the client\'s id back)',
    toServer(m, ctx) {
      if (!isRequest(m)) return undefined;
      const open = [...inFlight(ctx).values()];
      inFlight(ctx).set(idKey(m.id), m.id);
      if (HANDSHAKE.includes(m.method) || open.length === 0) return undefined;
      const taken = open[0];
      inFlight(ctx).delete(idKey(m.id));
      remapOut(ctx, taken, m.id);
      m.id = taken;
      return [m];
    },
    toClient(m, ctx) {
      if (!isResponse(m)) return undefined;
      // The first answer with a shared id is the original request's; later ones are the reusers'.
      if (inFlight(ctx).delete(idKey(m.id))) return undefined;
      return remapBack(m, ctx);
    },
  }),
  mutation({
    ...CLIENT_ANY,
    id: 'jsonrpc.client-notification-with-id',
    requirements: ['JR-07'],
    description: 'notifications the client sends (initialized, cancelled, ...) carry an id; over stdio an answer to it goes no further',
    toServer(m, ctx) {
      if (typeof m.method !== 'string' || 'id' in m) return undefined;
      m.id = inject(ctx, 'note');
      return [m];
    },
    toClient: (m, ctx) => (ctx.transport === 'stdio' ? swallowInjected(m, ctx) : undefined),
  }),
  mutation({
    ...clientModernStdio,
    id: 'jsonrpc.client-sends-response',
    requirements: ['JR-09', 'IO-04'],
    description: 'before each MRTR retry the modern client also writes each of its inputResponses as a JSON-RPC response (id = the input key)',
    toServer(m) {
      if (!isRequest(m) || !MRTR.includes(m.method) || !isObj(m.params) || !isObj(m.params.inputResponses)) return undefined;
      const responses = Object.entries(m.params.inputResponses).map(([k, v]) => ({ jsonrpc: '2.0', id: k, result: v }));
      return responses.length ? [...responses, m] : undefined;
    },
  }),

  // ---------------------------------------------------------------- per-request _meta (MT-01, MT-03, MT-10)
  mutation({
    ...CLIENT_MODERN,
    id: 'meta.client-no-protocol-version',
    requirements: ['MT-01'],
    related: ['VN-01'],
    description: 'modern requests other than server/discover lack _meta io.modelcontextprotocol/protocolVersion',
    ...onClientRequest('*', (m) => {
      const meta = modernMeta(m);
      if (!meta || m.method === 'server/discover') return undefined;
      delete meta[META_PROTOCOL_VERSION];
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'meta.client-no-capabilities',
    requirements: ['MT-01'],
    description: 'modern requests other than server/discover lack _meta io.modelcontextprotocol/clientCapabilities',
    ...onClientRequest('*', (m) => {
      const meta = modernMeta(m);
      if (!meta || m.method === 'server/discover' || !(META_CLIENT_CAPABILITIES in meta)) return undefined;
      delete meta[META_CLIENT_CAPABILITIES];
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'meta.client-no-client-info',
    requirements: ['MT-03'],
    description: 'modern requests lack _meta io.modelcontextprotocol/clientInfo',
    ...onClientRequest('*', (m) => {
      const meta = modernMeta(m);
      if (!meta || !(META_CLIENT_INFO in meta)) return undefined;
      delete meta[META_CLIENT_INFO];
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_ANY,
    id: 'meta.client-bad-meta-key',
    requirements: ['MT-10'],
    description: 'requests other than the handshake carry a _meta key whose name breaks the grammar ("com.example.app/_requestTag": the name starts with "_")',
    ...onClientRequest('*', (m) => {
      if (HANDSHAKE.includes(m.method as string)) return undefined;
      const params = paramsOf(m);
      if (!isObj(params._meta)) params._meta = {};
      (params._meta as Obj)['com.example.app/_requestTag'] = 'mcpspec';
      return [m];
    }),
  }),

  // ---------------------------------------------------------------- version negotiation (VN-01, VN-03, ED-01, HM-06)
  mutation({
    ...clientModernHttp,
    id: 'versioning.client-header-missing',
    requirements: ['VN-01', 'HM-06'],
    description: 'modern POSTs lack the MCP-Protocol-Version header',
    httpAsk: (ask) => (requestBody(ask) && modernMeta(requestBody(ask)!) ? withoutHeaders(ask, (n) => n === 'mcp-protocol-version') : undefined),
  }),
  mutation({
    ...clientModernHttp,
    id: 'versioning.client-header-differs',
    requirements: ['VN-01', 'HM-06'],
    description: 'modern POSTs say MCP-Protocol-Version: 2025-11-25 while _meta names the modern version',
    httpAsk(ask) {
      const body = requestBody(ask);
      const meta = body ? modernMeta(body) : undefined;
      if (!meta || ask.headers['mcp-protocol-version'] !== meta[META_PROTOCOL_VERSION]) return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-protocol-version': '2025-11-25' } };
    },
  }),
  mutation({
    ...CLIENT_ANY,
    id: 'versioning.client-retries-unsupported-version',
    requirements: ['VN-03'],
    description: 'after a -32022 answer, requests (and initialize) that name one of the supported versions name the refused version again',
    toClient(m, ctx) {
      if (isResponse(m) && isObj(m.error) && m.error.code === -32022 && isObj(m.error.data) && typeof m.error.data.requested === 'string' && Array.isArray(m.error.data.supported)) {
        ctx.state.refused = m.error.data.requested;
        ctx.state.supported = m.error.data.supported;
      }
      return undefined;
    },
    toServer(m, ctx) {
      const refused = ctx.state.refused;
      const supported = Array.isArray(ctx.state.supported) ? ctx.state.supported : [];
      if (!isRequest(m) || typeof refused !== 'string') return undefined;
      const meta = modernMeta(m);
      if (meta && meta[META_PROTOCOL_VERSION] !== refused && supported.includes(meta[META_PROTOCOL_VERSION])) {
        meta[META_PROTOCOL_VERSION] = refused;
        return [m];
      }
      const params = paramsOf(m);
      if (m.method === 'initialize' && params.protocolVersion !== refused && supported.includes(params.protocolVersion)) {
        params.protocolVersion = refused;
        return [m];
      }
      return undefined;
    },
  }),
  mutation({
    ...clientModernStdio,
    id: 'versioning.client-skips-discover',
    requirements: ['ED-01', 'ED-03'],
    description: 'the client\'s server/discover probe never reaches the server (it is answered -32601 in the server\'s place), as if the client went straight to initialize',
    ...onClientRequest(['server/discover'], (m, ctx) => {
      ctx.reply({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
      return [];
    }),
  }),

  // ---------------------------------------------------------------- HTTP headers (HM-08, HM-09, HM-10, HL-01, HL-07, HL-08)
  mutation({
    ...clientModernHttp,
    id: 'http.client-method-header-missing',
    requirements: ['HM-08'],
    description: 'request POSTs lack the Mcp-Method header',
    httpAsk: (ask) => (requestBody(ask) ? withoutHeaders(ask, (n) => n === 'mcp-method') : undefined),
  }),
  mutation({
    ...clientModernHttp,
    id: 'http.client-method-header-stale',
    requirements: ['HM-08'],
    description: 'the Mcp-Method header names the previous request\'s method whenever that differs from the body\'s',
    httpAsk(ask, ctx) {
      const body = requestBody(ask);
      if (!body) return undefined;
      const prev = ctx.state.prevMethod;
      ctx.state.prevMethod = body.method;
      if (typeof prev !== 'string' || prev === body.method || ask.headers['mcp-method'] === undefined) return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-method': encodeHeaderValue(prev) } };
    },
  }),
  mutation({
    ...clientModernHttp,
    id: 'http.client-name-header-missing',
    requirements: ['HM-08'],
    related: ['TB-19'],
    description: 'tools/call, prompts/get, resources/read and tasks POSTs lack the Mcp-Name header',
    httpAsk: (ask) => (requestBody(ask) && NAME_METHODS.includes(requestBody(ask)!.method) ? withoutHeaders(ask, (n) => n === 'mcp-name') : undefined),
  }),
  mutation({
    ...clientModernHttp,
    id: 'http.client-header-not-encoded',
    requirements: ['HM-09'],
    related: ['HM-08', 'HM-10'],
    description: 'Mcp-Method, Mcp-Name and Mcp-Param-* values that need the =?base64?...?= form are percent-encoded instead',
    httpAsk(ask) {
      const headers = { ...ask.headers };
      let changed = false;
      for (const [k, v] of Object.entries(headers)) {
        if ((k === 'mcp-method' || k === 'mcp-name' || isParamHeader(k)) && v.startsWith('=?base64?') && v.endsWith('?=')) {
          headers[k] = encodeURIComponent(decodeHeaderValue(v));
          changed = true;
        }
      }
      return changed ? { ...ask, headers } : undefined;
    },
  }),
  mutation({
    ...clientModernHttp,
    id: 'http.client-param-header-missing',
    requirements: ['HM-10'],
    related: ['HM-11'],
    description: 'tools/call POSTs lack the Mcp-Param-* headers the tool\'s x-mcp-header properties call for',
    httpAsk: (ask) => (requestBody(ask)?.method === 'tools/call' ? withoutHeaders(ask, isParamHeader) : undefined),
  }),
  mutation({
    ...clientModernHttp,
    id: 'http.client-param-header-misformatted',
    requirements: ['HM-10'],
    related: ['HM-11'],
    description: 'Mcp-Param-* values are written JSON-style: strings in double quotes, booleans as True/False',
    httpAsk(ask) {
      const headers = { ...ask.headers };
      let changed = false;
      for (const [k, v] of Object.entries(headers)) {
        if (!isParamHeader(k)) continue;
        const text = decodeHeaderValue(v);
        const next = text === 'true' ? 'True' : text === 'false' ? 'False' : /^-?\d+$/.test(text) ? text : JSON.stringify(text);
        if (next === text) continue;
        headers[k] = encodeHeaderValue(next);
        changed = true;
      }
      return changed ? { ...ask, headers } : undefined;
    },
  }),
  mutation({
    ...clientHttp,
    id: 'http.client-accept-json-only',
    requirements: ['HL-01', 'HM-01'],
    related: ['HL-03', 'HM-03'],
    description: 'POSTs say Accept: application/json (text/event-stream left out)',
    httpAsk(ask) {
      if (ask.method !== 'POST' || !(ask.headers.accept ?? '').includes('text/event-stream')) return undefined;
      return { ...ask, headers: { ...ask.headers, accept: 'application/json' } };
    },
  }),
  mutation({
    ...clientLegacyHttp,
    id: 'http.client-legacy-version-header-missing',
    requirements: ['HL-08'],
    description: 'legacy requests after initialize lack the MCP-Protocol-Version header',
    httpAsk(ask) {
      const body = requestBody(ask);
      if (body?.method === 'initialize') return undefined;
      return withoutHeaders(ask, (n) => n === 'mcp-protocol-version');
    },
  }),
  mutation({
    ...clientLegacyHttp,
    id: 'http.client-drops-session-id',
    requirements: ['HL-07'],
    description: 'legacy requests after initialize do not echo the Mcp-Session-Id the server issued',
    httpAsk(ask) {
      if (requestBody(ask)?.method === 'initialize') return undefined;
      return withoutHeaders(ask, (n) => n === 'mcp-session-id');
    },
  }),

  // ---------------------------------------------------------------- legacy lifecycle (LC-01..LC-10)
  mutation({
    ...CLIENT_LEGACY,
    id: 'lifecycle.client-no-client-info',
    requirements: ['LC-01'],
    description: 'initialize is sent without params.clientInfo',
    ...onClientRequest(['initialize'], (m) => (isObj(m.params) && 'clientInfo' in m.params ? (delete m.params.clientInfo, [m]) : undefined)),
  }),
  mutation({
    ...CLIENT_LEGACY,
    id: 'lifecycle.client-no-capabilities',
    requirements: ['LC-01'],
    description: 'initialize is sent without params.capabilities',
    ...onClientRequest(['initialize'], (m) => (isObj(m.params) && 'capabilities' in m.params ? (delete m.params.capabilities, [m]) : undefined)),
  }),
  mutation({
    ...CLIENT_LEGACY,
    id: 'lifecycle.client-offers-old-version',
    requirements: ['LC-02'],
    description: 'initialize offers protocolVersion 2025-03-26 instead of the newer version the client asked for',
    ...onClientRequest(['initialize'], (m) => {
      const p = paramsOf(m);
      if (typeof p.protocolVersion !== 'string' || p.protocolVersion <= '2025-03-26') return undefined;
      p.protocolVersion = '2025-03-26';
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_LEGACY,
    id: 'lifecycle.client-keeps-unsupported-version',
    requirements: ['LC-04'],
    description: 'shown by what the client is told: an initialize answer naming a version no client supports reaches the client as the version it asked for, so it goes on with the session',
    toClient(m, ctx) {
      if (ctx.request?.method !== 'initialize' || !isResponse(m) || !isObj(m.result)) return undefined;
      const asked = ctx.request.params.protocolVersion;
      const got = m.result.protocolVersion;
      if (typeof got !== 'string' || KNOWN_VERSIONS.includes(got) || typeof asked !== 'string') return undefined;
      m.result.protocolVersion = asked;
      return [m];
    },
  }),
  mutation({
    ...clientLegacyStdio,
    id: 'lifecycle.client-no-initialized',
    requirements: ['LC-05'],
    description: 'notifications/initialized is never sent',
    toServer: (m) => (m.method === 'notifications/initialized' && !('id' in m) ? [] : undefined),
  }),
  mutation({
    ...clientLegacyStdio,
    id: 'lifecycle.client-request-before-initialized',
    requirements: ['LC-06'],
    description: 'a tools/list request follows initialize at once, before its answer (its own answer goes no further)',
    toServer(m, ctx) {
      if (!isRequest(m) || m.method !== 'initialize') return undefined;
      return [m, { jsonrpc: '2.0', id: inject(ctx, 'early'), method: 'tools/list', params: {} }];
    },
    toClient: swallowInjected,
  }),
  mutation({
    ...clientLegacyStdio,
    id: 'lifecycle.client-cancels-initialize',
    requirements: ['LC-09'],
    related: ['CN-01'],
    description: 'a notifications/cancelled for the initialize request goes out just before notifications/initialized',
    toServer(m, ctx) {
      if (isRequest(m) && m.method === 'initialize') {
        ctx.state.initId = m.id;
        return undefined;
      }
      if (m.method !== 'notifications/initialized' || 'id' in m || ctx.state.initId === undefined) return undefined;
      return [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: ctx.state.initId, reason: 'Request timed out' } }, m];
    },
  }),
  mutation({
    ...CLIENT_LEGACY,
    id: 'lifecycle.client-answers-undeclared-request',
    requirements: ['LC-07'],
    description: 'the client\'s error answer to a server request of a capability it did not declare (roots, sampling, elicitation) becomes a result',
    toServer(m, ctx) {
      if (isRequest(m) && m.method === 'initialize') {
        ctx.state.clientCaps = isObj(m.params) && isObj(m.params.capabilities) ? m.params.capabilities : {};
        return undefined;
      }
      const method = ctx.request?.method;
      const cap = method ? CAPABILITY_OF[method] : undefined;
      if (!isResponse(m) || !isObj(m.error) || !cap || !isObj(ctx.state.clientCaps) || cap in ctx.state.clientCaps) return undefined;
      delete m.error;
      m.result = structuredClone(ANYWAY[method!]);
      return [m];
    },
  }),
  mutation({
    ...clientLegacyStdio,
    id: 'lifecycle.client-uses-undeclared-capability',
    requirements: ['LC-07'],
    related: ['CAP-01'],
    description: 'with notifications/initialized the client also sends logging/setLevel to a server that declared no logging capability (its answer goes no further)',
    toServer(m, ctx) {
      const caps = serverCaps(ctx);
      if (m.method !== 'notifications/initialized' || 'id' in m || !caps || 'logging' in caps) return undefined;
      return [m, { jsonrpc: '2.0', id: inject(ctx, 'set-level'), method: 'logging/setLevel', params: { level: 'info' } }];
    },
    toClient: (m, ctx) => swallowInjected(m, ctx) ?? recordServerCapabilities(m, ctx),
  }),
  mutation({
    ...clientLegacyStdio,
    id: 'lifecycle.client-ignores-ping',
    requirements: ['LC-10'],
    description: 'the client\'s answers to the server\'s ping requests never reach the server',
    toServer: (m, ctx) => (isResponse(m) && ctx.request?.method === 'ping' ? [] : undefined),
  }),

  // ---------------------------------------------------------------- multi round-trip requests (IR-05..IR-08)
  mutation({
    ...CLIENT_MODERN,
    id: 'input-required.client-reuses-id',
    requirements: ['IR-07'],
    description: 'MRTR retries reuse the JSON-RPC id of the chain\'s first request (answers get the client\'s ids back)',
    toClient(m, ctx) {
      const back = remapBack(m, ctx);
      if (!back) recordChain(m, ctx);
      return back;
    },
    toServer(m, ctx) {
      if (!isRequest(m) || !MRTR.includes(m.method) || !isRetry(m)) return undefined;
      const chain = stateMap<Chain>(ctx, 'chains').get(chainKey(m.method, m.params));
      if (!chain || idKey(chain.id) === idKey(m.id)) return undefined;
      remapOut(ctx, chain.id, m.id);
      m.id = chain.id;
      return [m];
    },
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'input-required.client-alters-request-state',
    requirements: ['IR-06'],
    description: 'the requestState of MRTR retries is NFC-normalized and trimmed (or, if that changes nothing, sent JSON-quoted)',
    ...onClientRequest(MRTR, (m) => {
      const p = paramsOf(m);
      if (typeof p.requestState !== 'string') return undefined;
      const s = p.requestState;
      const altered = s.normalize('NFC').trim();
      p.requestState = altered === s ? JSON.stringify(s) : altered;
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'input-required.client-drops-request-state',
    requirements: ['IR-06', 'IR-07'],
    description: 'MRTR retries are sent without the requestState the server issued',
    ...onClientRequest(MRTR, (m) => (isObj(m.params) && 'requestState' in m.params ? (delete m.params.requestState, [m]) : undefined)),
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'input-required.client-state-leaks',
    requirements: ['IR-08'],
    related: ['IR-06'],
    description: 'a fresh tools/call, prompts/get or resources/read carries the requestState last issued for another request',
    toClient(m, ctx) {
      recordChain(m, ctx);
      return undefined;
    },
    ...onClientRequest(MRTR, (m, ctx) => {
      const last = ctx.state.lastChain as { key: string; requestState?: string } | undefined;
      if (!last?.requestState || isRetry(m) || last.key === chainKey(m.method as string, m.params)) return undefined;
      paramsOf(m).requestState = last.requestState;
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'input-required.client-input-keys-mismatch',
    requirements: ['IR-07'],
    related: ['IR-05'],
    description: 'the inputResponses of MRTR retries are keyed by position ("0", "1", ...) instead of by the server\'s inputRequests keys',
    ...onClientRequest(MRTR, (m) => {
      const p = paramsOf(m);
      if (!isObj(p.inputResponses)) return undefined;
      const entries = Object.entries(p.inputResponses);
      if (!entries.length) return undefined;
      p.inputResponses = Object.fromEntries(entries.map(([k, v], i) => [String(i) === k ? `r${i}` : String(i), v]));
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'input-required.client-retries-without-inputs',
    requirements: ['IR-05'],
    description: 'MRTR retries are sent without the inputResponses the server asked for (requestState only)',
    ...onClientRequest(MRTR, (m) => (isObj(m.params) && 'inputResponses' in m.params ? (delete m.params.inputResponses, [m]) : undefined)),
  }),

  // ---------------------------------------------------------------- cancellation (CN-01)
  mutation({
    ...clientStdio,
    id: 'cancellation.client-cancels-never-sent',
    requirements: ['CN-01'],
    description: 'the first tools/list is preceded by a notifications/cancelled for a request id the client never used',
    ...onClientRequest(['tools/list'], (m, ctx) => {
      if (ctx.state.cancelled === true) return undefined;
      ctx.state.cancelled = true;
      return [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'mcpspec-never-sent-1', reason: 'User cancelled' } }, m];
    }),
  }),

  // ---------------------------------------------------------------- progress (PR-01)
  mutation({
    ...CLIENT_ANY,
    id: 'progress.client-reuses-progress-token',
    requirements: ['PR-01'],
    description: 'a request asking for progress while another request\'s progressToken is still active uses that same token',
    toServer(m, ctx) {
      const meta = isRequest(m) && isObj(m.params) && isObj(m.params._meta) ? m.params._meta : undefined;
      const token = meta?.progressToken;
      if (!isRequest(m) || (typeof token !== 'string' && typeof token !== 'number')) return undefined;
      const active = stateMap<string | number>(ctx, 'tokens');
      const other = [...active.values()].find((t) => idKey(t) !== idKey(token));
      active.set(idKey(m.id), other ?? token);
      if (other === undefined) return undefined;
      meta!.progressToken = other;
      return [m];
    },
    toClient(m, ctx) {
      if (isResponse(m)) stateMap<string | number>(ctx, 'tokens').delete(idKey(m.id));
      return undefined;
    },
  }),

  // ---------------------------------------------------------------- pagination (PG-02, PG-03)
  mutation({
    ...CLIENT_ANY,
    id: 'pagination.client-alters-cursor',
    requirements: ['PG-02'],
    description: 'cursors are not sent back as given: a numeric cursor is incremented (page inference), others are percent-encoded (or get "=" appended)',
    ...onClientRequest('*', (m) => {
      const p = isObj(m.params) ? m.params : undefined;
      if (typeof p?.cursor !== 'string') return undefined;
      const c = p.cursor;
      p.cursor = /^\d+$/.test(c) ? String(Number(c) + 1) : encodeURIComponent(c) !== c ? encodeURIComponent(c) : `${c}=`;
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_ANY,
    id: 'pagination.client-stops-at-empty-cursor',
    requirements: ['PG-03'],
    description: 'shown by what the client is told: a list result whose nextCursor is "" reaches the client without it, so the client stops as one treating "" as the end would',
    toClient(m) {
      if (!isResponse(m) || !isObj(m.result) || m.result.nextCursor !== '') return undefined;
      delete m.result.nextCursor;
      return [m];
    },
  }),

  // ---------------------------------------------------------------- resultType (RT-04, RT-05)
  mutation({
    ...CLIENT_MODERN,
    id: 'result-type.client-accepts-unknown',
    requirements: ['RT-04'],
    description: 'shown by what the client is told: a result with a resultType outside complete/input_required/task reaches the client as input_required, so it retries as one accepting the unknown type would',
    toClient(m) {
      if (!isResponse(m) || !isObj(m.result) || typeof m.result.resultType !== 'string' || ['complete', 'input_required', 'task'].includes(m.result.resultType)) return undefined;
      m.result.resultType = 'input_required';
      return [m];
    },
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'result-type.client-rejects-missing',
    requirements: ['RT-05'],
    description: 'shown by what the client is told: a modern result without resultType reaches the client as an invalid-response error, so it acts as one that refuses such results would',
    toClient(m, ctx) {
      if (!isResponse(m) || !isObj(m.result) || 'resultType' in m.result || !ctx.request) return undefined;
      return [{ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: 'Invalid response: result has no resultType' } }];
    },
  }),

  // ---------------------------------------------------------------- tasks (TA-02, TA-03, TA-09, TA-16, TB-09, TB-13, TB-15)
  mutation({
    ...CLIENT_LEGACY,
    id: 'tasks.client-augments-undeclared',
    requirements: ['TA-02'],
    related: ['TA-01'],
    description: 'tools/call is task-augmented (params.task) although the server declared no tasks.requests.tools.call',
    toClient: recordServerCapabilities,
    ...onClientRequest(['tools/call'], (m, ctx) => {
      const caps = serverCaps(ctx);
      const p = paramsOf(m);
      if (!caps || declaresTaskCalls(caps) || 'task' in p) return undefined;
      p.task = { ttl: 60_000 };
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_LEGACY,
    id: 'tasks.client-augments-forbidden-tool',
    requirements: ['TA-03'],
    description: 'tools/call of a tool whose execution.taskSupport is absent or "forbidden" is task-augmented although the server declared task calls',
    toClient(m, ctx) {
      recordServerCapabilities(m, ctx);
      if (ctx.request?.method === 'tools/list' && isResponse(m) && isObj(m.result) && Array.isArray(m.result.tools)) {
        const support = stateMap<string>(ctx, 'taskSupport');
        for (const t of m.result.tools) if (isObj(t) && typeof t.name === 'string') support.set(t.name, isObj(t.execution) && typeof t.execution.taskSupport === 'string' ? t.execution.taskSupport : 'forbidden');
      }
      return undefined;
    },
    ...onClientRequest(['tools/call'], (m, ctx) => {
      const caps = serverCaps(ctx);
      const p = paramsOf(m);
      const support = typeof p.name === 'string' ? stateMap<string>(ctx, 'taskSupport').get(p.name) : undefined;
      if (!caps || !declaresTaskCalls(caps) || support !== 'forbidden' || 'task' in p) return undefined;
      p.task = { ttl: 60_000 };
      return [m];
    }),
  }),
  mutation({
    ...CLIENT_MODERN,
    id: 'tasks.client-polls-undeclared',
    requirements: ['TB-15'],
    related: ['TB-01', 'TB-03', 'MT-05'],
    description: 'tasks/get, tasks/update and tasks/cancel requests leave the tasks extension out of their clientCapabilities (only tools/call declares it)',
    ...onClientRequest(['tasks/get', 'tasks/update', 'tasks/cancel'], (m) => {
      const meta = modernMeta(m);
      const caps = meta?.[META_CLIENT_CAPABILITIES];
      if (!isObj(caps) || !isObj(caps.extensions) || !(TASKS_EXTENSION in caps.extensions)) return undefined;
      delete caps.extensions[TASKS_EXTENSION];
      if (Object.keys(caps.extensions).length === 0) delete caps.extensions;
      return [m];
    }),
  }),
  mutation({
    ...clientStdio,
    id: 'tasks.client-cancels-with-notification',
    requirements: ['TA-16', 'TB-13'],
    description: 'tasks/cancel goes out as notifications/cancelled for the request that created the task (the cancel is acknowledged in the server\'s place)',
    toClient(m, ctx) {
      recordTask(m, ctx);
      return undefined;
    },
    ...onClientRequest(['tasks/cancel'], (m, ctx) => {
      const taskId = isObj(m.params) ? m.params.taskId : undefined;
      const t = typeof taskId === 'string' ? stateMap<{ requestId: RequestId; task: Obj; modern: boolean }>(ctx, 'tasks').get(taskId) : undefined;
      if (!t) return undefined;
      const ack = t.modern ? { resultType: 'complete' } : { ...t.task, status: 'cancelled', lastUpdatedAt: new Date().toISOString() };
      ctx.reply({ jsonrpc: '2.0', id: m.id, result: ack });
      return [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: t.requestId, reason: 'User cancelled' } }];
    }),
  }),
  mutation({
    ...clientStdio,
    id: 'tasks.client-ignores-poll-interval',
    requirements: ['TB-09', 'TA-09'],
    description: 'every tasks/get is sent twice at once, the second time under a fresh id, ignoring pollInterval (its answer goes no further)',
    toClient: swallowInjected,
    ...onClientRequest(['tasks/get'], (m, ctx) => [m, { ...structuredClone(m), id: inject(ctx, 'poll') }]),
  }),

  // ---------------------------------------------------------------- stdio framing of what the client writes (IO-01, IO-02)
  mutation({
    ...clientStdio,
    id: 'stdio.client-pretty-printed',
    requirements: ['IO-01'],
    description: 'tools/list requests are written pretty-printed over several lines',
    ...onClientRequest(['tools/list'], (m) => [raw(`${JSON.stringify(m, null, 2)}\n`)]),
  }),
  mutation({
    ...clientStdio,
    id: 'stdio.client-noise-on-stdin',
    requirements: ['IO-02'],
    description: 'the client writes a non-JSON line ("client: connecting") to the server\'s stdin before its first message',
    toServer(m, ctx) {
      if (ctx.state.noisy === true) return undefined;
      ctx.state.noisy = true;
      return [raw('client: connecting\n'), m];
    },
  }),
];
