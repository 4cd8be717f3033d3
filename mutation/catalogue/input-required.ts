// Mutations of multi round-trip requests (requirements digest §6, IR-01..IR-17; server side, modern
// era only): the InputRequiredResult a server sends for tools/call, prompts/get and resources/read,
// its embedded input requests, and how it serves the retries. Mutations that act across rounds keep
// the rounds of a request (its method, name or uri, and arguments) in their state.

import { META_CLIENT_CAPABILITIES } from '../../protocol/meta.js';
import { isObj, onError, onResult } from '../edits.js';
import { mutation, raw, SERVER_MODERN as modern, type Emitted, type HttpAnswer, type Mutation, type MutationContext, type MutationHooks, type SeenRequest } from '../mutation.js';

type Obj = Record<string, unknown>;
type Capability = 'elicitation' | 'sampling' | 'roots';

/** The only methods that may answer input_required (IR-01). */
const MRTR = ['tools/call', 'prompts/get', 'resources/read'];
const INPUT_REQUIRED = 'input_required';

function isInputRequired(r: unknown): r is Obj {
  return isObj(r) && r.resultType === INPUT_REQUIRED;
}

function declared(req: SeenRequest | undefined): Obj {
  const meta = req?.params._meta;
  const caps = isObj(meta) ? meta[META_CLIENT_CAPABILITIES] : undefined;
  return isObj(caps) ? caps : {};
}

/** A retry: the request carries the state or the responses of an earlier round (IR-07). */
function isRetry(req: SeenRequest | undefined): boolean {
  return !!req && ('requestState' in req.params || 'inputResponses' in req.params);
}

/** The rounds of one request: its method and its params without the per-round and per-request parts. */
function flowKey(req: SeenRequest): string {
  const { _meta, inputResponses, requestState, ...rest } = req.params;
  void _meta;
  void inputResponses;
  void requestState;
  return `${req.method} ${JSON.stringify(rest)}`;
}

/** An input request that needs the capability (a plain form elicitation, a sampling request, roots/list). */
function askFor(cap: Capability): Obj {
  switch (cap) {
    case 'elicitation':
      return { method: 'elicitation/create', params: { mode: 'form', message: 'Please confirm to continue', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } } };
    case 'sampling':
      return { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the request in five words' } }], maxTokens: 50 } };
    case 'roots':
      return { method: 'roots/list', params: {} };
  }
}

/** An input request for something the request did not declare (IR-04), or undefined when it declared everything. */
function undeclaredAsk(caps: Obj): Obj | undefined {
  for (const cap of ['roots', 'sampling', 'elicitation'] as const) if (!(cap in caps)) return askFor(cap);
  if (isObj(caps.elicitation) && !('url' in caps.elicitation)) {
    return { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in to continue', url: 'https://example.com/mcp/sign-in' } };
  }
  if (isObj(caps.sampling) && !('tools' in caps.sampling)) {
    const ask = askFor('sampling');
    (ask.params as Obj).tools = [{ name: 'lookup', description: 'Looks a word up', inputSchema: { type: 'object', properties: { word: { type: 'string' } } } }];
    return ask;
  }
  return undefined;
}

function inputRequests(r: Obj): Obj | undefined {
  return isObj(r.inputRequests) ? r.inputRequests : undefined;
}

/** Elicitation requests among an input_required result's input requests. */
function elicitations(r: Obj): Obj[] {
  return Object.values(inputRequests(r) ?? {}).filter((v): v is Obj => isObj(v) && v.method === 'elicitation/create' && isObj(v.params));
}

/** The same kind of request, asking something else (for a key that means two things). */
function variantOf(v: unknown): Obj {
  const other: Obj = isObj(v) ? structuredClone(v) : { method: 'roots/list' };
  const params: Obj = isObj(other.params) ? other.params : {};
  other.params = params;
  if (typeof params.message === 'string') params.message = `${params.message} (asked differently)`;
  else if (typeof params.maxTokens === 'number') params.maxTokens = params.maxTokens + 100;
  else params._meta = { 'com.example/variant': 2 };
  return other;
}

/** A complete result of each MRTR method, as if the server had done the work. */
function completeFor(req: SeenRequest): Obj {
  switch (req.method) {
    case 'prompts/get':
      return { resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'Rendered without the input it asked for.' } }] };
    case 'resources/read':
      return { resultType: 'complete', contents: [{ uri: String(req.params.uri), mimeType: 'text/plain', text: 'Read without the input it asked for.' }], ttlMs: 0, cacheScope: 'private' };
    default:
      return { resultType: 'complete', content: [{ type: 'text', text: 'Done without the input it asked for.' }] };
  }
}

function book<T>(ctx: MutationContext, name: string, make: () => T): T {
  if (ctx.state[name] === undefined) ctx.state[name] = make();
  return ctx.state[name] as T;
}

/** Input_required results of the three methods: the edit gets the result. */
function onInputRequired(edit: (r: Obj, ctx: MutationContext, m: Obj) => Emitted[] | boolean | undefined): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(m, ctx) {
      if (!isInputRequired(m.result) || !MRTR.includes(ctx.request?.method ?? '')) return undefined;
      const out = edit(m.result, ctx, m);
      if (out === true) return [m];
      return out === false ? undefined : out;
    },
  };
}

/**
 * For mutations that turn an error answer into another kind of answer (a result, or an error of
 * another code): on Streamable HTTP the JSON answer goes with the status a server sending that answer
 * would use (200 for a result, 404 for -32601), not the 400/404 of the error it replaced. Shared by
 * the feature areas (tasks, logging, completion, subscriptions import it).
 */
export function withHttpStatus(status: number, hooks: Pick<MutationHooks, 'toClient'>): Pick<MutationHooks, 'toClient' | 'httpAnswer'> {
  const changed = (ctx: MutationContext): Set<string> => {
    if (!(ctx.state.statusFor instanceof Set)) ctx.state.statusFor = new Set<string>();
    return ctx.state.statusFor as Set<string>;
  };
  const idKey = (id: unknown) => `${typeof id}:${String(id)}`;
  return {
    toClient(m, ctx) {
      const out = hooks.toClient?.(m, ctx);
      if (out !== undefined && ctx.request && ctx.transport === 'http') changed(ctx).add(idKey(ctx.request.id));
      return out;
    },
    httpAnswer(answer: HttpAnswer, ctx: MutationContext): HttpAnswer | undefined {
      if (answer.sse || !answer.request || !changed(ctx).delete(idKey(answer.request.id)) || answer.status === status) return undefined;
      return { ...answer, status };
    },
  };
}

export const INPUT_REQUIRED_MUTATIONS: Mutation[] = [
  mutation({
    ...modern,
    id: 'input-required.neither-requests-nor-state',
    requirements: ['IR-02'],
    description: 'input_required results carry neither inputRequests nor requestState',
    ...onInputRequired((r) => {
      if (!('inputRequests' in r) && !('requestState' in r)) return false;
      delete r.inputRequests;
      delete r.requestState;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'input-required.asks-undeclared-capability',
    requirements: ['IR-04'],
    related: ['MT-05'],
    description: 'where the server refuses with -32021 (a client capability the request did not declare), it asks for that capability with input_required instead',
    ...withHttpStatus(200, onError(MRTR, (e, ctx, m) => {
      const needed = isObj(e.data) && isObj(e.data.requiredCapabilities) ? e.data.requiredCapabilities : {};
      const caps = declared(ctx.request);
      const cap = (['elicitation', 'sampling', 'roots'] as const).find((c) => c in needed && !(c in caps));
      if (!cap) return false;
      delete m.error;
      m.result = { resultType: INPUT_REQUIRED, inputRequests: { [cap]: askFor(cap) } };
      return true;
    })),
  }),
  mutation({
    ...modern,
    id: 'input-required.extra-undeclared-request',
    requirements: ['IR-04'],
    description: 'input_required results also ask for a capability the request did not declare (roots, sampling, elicitation, URL-mode elicitation or tool-enabled sampling)',
    ...onInputRequired((r, ctx) => {
      const requests = inputRequests(r);
      const ask = undeclaredAsk(declared(ctx.request));
      if (!requests || !ask || 'also_needed' in requests) return false;
      requests.also_needed = ask;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'input-required.embedded-jsonrpc-members',
    requirements: ['IR-03'],
    description: 'the embedded input requests carry "jsonrpc": "2.0" and an "id" like JSON-RPC requests',
    ...onInputRequired((r) => {
      const values = Object.values(inputRequests(r) ?? {}).filter(isObj);
      values.forEach((v, i) => {
        v.jsonrpc = '2.0';
        v.id = i + 1;
      });
      return values.length > 0;
    }),
  }),
  mutation({
    ...modern,
    id: 'input-required.embedded-bad-method',
    requirements: ['IR-03'],
    description: 'the first embedded input request has method "ping" (not elicitation/create, sampling/createMessage or roots/list)',
    ...onInputRequired((r) => {
      const first = Object.values(inputRequests(r) ?? {}).find(isObj);
      if (!first) return false;
      first.method = 'ping';
      first.params = {};
      return true;
    }),
  }),
  mutation({
    role: 'server',
    eras: ['modern'],
    transports: ['stdio'],
    id: 'input-required.duplicate-key',
    requirements: ['IR-03'],
    description: 'the inputRequests object names its first key twice, the first time for another request (raw JSON text; parsers keep the last)',
    ...onInputRequired((r, _ctx, m) => {
      const requests = inputRequests(r);
      const entries = Object.entries(requests ?? {});
      if (!requests || entries.length === 0) return false;
      const marker = '__mcpspec_duplicate_key__';
      r.inputRequests = marker;
      const body = [`${JSON.stringify(entries[0][0])}:${JSON.stringify(variantOf(entries[0][1]))}`, ...entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)].join(',');
      return [raw(`${JSON.stringify(m).replace(JSON.stringify(marker), () => `{${body}}`)}\n`)];
    }),
  }),
  mutation({
    ...modern,
    id: 'input-required.retry-loses-state',
    requirements: ['IR-13'],
    related: ['IR-09', 'IR-06'],
    description: 'retries that echo a requestState get -32603 "unknown or expired requestState" where the server would have gone on (it kept the round in memory)',
    ...onResult(MRTR, (_r, ctx, m) => {
      if (typeof ctx.request?.params.requestState !== 'string') return false;
      delete m.result;
      m.error = { code: -32603, message: 'Internal error: unknown or expired requestState' };
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'input-required.cache-fields',
    requirements: ['IR-14'],
    related: ['CA-06'],
    description: 'input_required results carry "ttlMs": 60000 and "cacheScope": "private"',
    ...onInputRequired((r) => {
      r.ttlMs = 60000;
      r.cacheScope = 'private';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'input-required.on-list-method',
    requirements: ['IR-01'],
    related: ['RT-06'],
    description: 'completion/complete, prompts/list and resources/templates/list are answered with input_required (requestState only) instead of their result',
    ...onResult(['completion/complete', 'prompts/list', 'resources/templates/list'], (r) => {
      if (r.resultType !== 'complete') return false;
      for (const k of Object.keys(r)) if (k !== '_meta') delete r[k];
      r.resultType = INPUT_REQUIRED;
      r.requestState = Buffer.from(JSON.stringify({ round: 1 })).toString('base64url');
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'input-required.error-instead-of-ask',
    requirements: ['IR-10'],
    description: 'a retry that lacks a response the previous round asked for gets -32602 "inputResponses.<key> is missing" instead of a fresh input_required',
    toClient(m, ctx) {
      const req = ctx.request;
      if (!req || !MRTR.includes(req.method) || !isInputRequired(m.result)) return undefined;
      const asked = book(ctx, 'asked', () => new Map<string, string[]>());
      const flow = flowKey(req);
      const before = asked.get(flow);
      asked.set(flow, Object.keys(inputRequests(m.result) ?? {}));
      if (!isRetry(req) || !before?.length) return undefined;
      const given = isObj(req.params.inputResponses) ? req.params.inputResponses : {};
      const missing = before.find((k) => !(k in given));
      if (missing === undefined) return undefined;
      delete m.result;
      m.error = { code: -32602, message: `inputResponses.${missing} is missing` };
      return [m];
    },
  }),
  mutation({
    ...modern,
    id: 'input-required.tampered-state-accepted',
    requirements: ['IR-11'],
    related: ['IR-12'],
    description: 'a retry whose requestState the server never issued (tampered or made up) is served with a complete result instead of being rejected',
    toClient(m, ctx) {
      const req = ctx.request;
      if (!req || !MRTR.includes(req.method)) return undefined;
      const issued = book(ctx, 'issued', () => new Set<string>());
      if (isInputRequired(m.result) && typeof m.result.requestState === 'string') {
        issued.add(m.result.requestState);
        return undefined;
      }
      const state = req.params.requestState;
      if (!isObj(m.error) || typeof state !== 'string' || issued.has(state)) return undefined;
      delete m.error;
      m.result = completeFor(req);
      return [m];
    },
  }),
  mutation({
    role: 'server',
    eras: ['modern'],
    transports: ['http'],
    id: 'input-required.after-final-on-stream',
    requirements: ['IR-15'],
    related: ['JR-04'],
    description: 'on Streamable HTTP an input_required answer is followed on its stream by a second copy of itself',
    ...onInputRequired((_r, ctx, m) => (ctx.transport === 'http' ? [m, structuredClone(m)] : false)),
  }),
  mutation({
    ...modern,
    id: 'input-required.url-elicitation-retired-error',
    requirements: ['IR-16'],
    description: 'input_required results that ask for an elicitation become the retired -32042 URLElicitationRequired error (with data.elicitations in URL mode)',
    ...onInputRequired((r, _ctx, m) => {
      const asks = elicitations(r);
      if (asks.length === 0) return false;
      delete m.result;
      const list = asks.map((a, i) => ({ mode: 'url', elicitationId: `elicitation-${i + 1}`, url: `https://example.com/mcp/elicit/${i + 1}`, message: String((a.params as Obj).message ?? 'Continue in the browser') }));
      m.error = { code: -32042, message: 'This request requires more information.', data: { elicitations: list } };
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'input-required.form-asks-secret',
    requirements: ['IR-17'],
    description: "form-mode elicitations in input_required results also ask for the user's password (a required string property \"password\")",
    ...onInputRequired((r) => {
      let changed = false;
      for (const a of elicitations(r)) {
        const params = a.params as Obj;
        if (params.mode === 'url' || !isObj(params.requestedSchema)) continue;
        const schema = params.requestedSchema;
        schema.properties = { ...(isObj(schema.properties) ? schema.properties : {}), password: { type: 'string', title: 'Password', description: 'Your account password', minLength: 1 } };
        schema.required = [...(Array.isArray(schema.required) ? schema.required : []), 'password'];
        params.message = `${String(params.message ?? '')} Please also enter your password.`.trim();
        changed = true;
      }
      return changed;
    }),
  }),
];
