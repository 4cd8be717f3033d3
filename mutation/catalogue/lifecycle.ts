// Mutations of the legacy handshake (requirements digest §3a, LC-01..LC-10; legacy era only, server
// side): the version a server chooses in its initialize answer, what it sends before the client's
// notifications/initialized, whether it keeps to the capabilities both sides declared, and how it
// answers ping. Mutations that need the declared capabilities learn them from the initialize
// request and answer going by (one stdio process holds one session; on HTTP the sessions of one
// server announce the same capabilities).

import { isRequest, isResponse } from '../../protocol/jsonrpc.js';
import { isObj, onAnswer, onResult } from '../edits.js';
import { mutation, SERVER_LEGACY as legacy, type Mutation, type MutationContext, type MutationHooks } from '../mutation.js';

type Obj = Record<string, unknown>;

/** Legacy versions, newest first (the ones a legacy server can plausibly fall back to). */
const LEGACY_LADDER = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** Server capability families whose list can change, with the notification that says so. */
const LIST_FAMILIES = ['prompts', 'resources', 'tools'] as const;

/** The methods each server capability gates. */
const GATED: Record<string, readonly string[]> = {
  prompts: ['prompts/list', 'prompts/get'],
  resources: ['resources/list', 'resources/read', 'resources/templates/list'],
  completions: ['completion/complete'],
};

/** Ids of the requests these mutations send in the server's place (their answers never reach the server). */
const INJECTED_PREFIX = 'mcpspec-mutation-';

function askedVersion(ctx: MutationContext): string | undefined {
  const v = ctx.request?.params.protocolVersion;
  return typeof v === 'string' ? v : undefined;
}

/** The initialize result's capabilities, as a server announced them. */
function serverCaps(ctx: MutationContext): Obj {
  return isObj(ctx.state.serverCaps) ? (ctx.state.serverCaps as Obj) : {};
}

/** Remembers the capabilities of each initialize answer going by, then runs the hook. */
function learningServerCaps(hook: NonNullable<MutationHooks['toClient']>): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(m, ctx) {
      if (ctx.request?.method === 'initialize' && isObj(m.result) && isObj(m.result.capabilities)) ctx.state.serverCaps = structuredClone(m.result.capabilities);
      return hook(m, ctx);
    },
  };
}

/** A request of the server to its client that needs one client capability (roots, sampling, elicitation). */
function serverRequest(capability: string, ctx: MutationContext): Obj {
  const n = typeof ctx.state.injected === 'number' ? ctx.state.injected + 1 : 1;
  ctx.state.injected = n;
  const id = `${INJECTED_PREFIX}${n}`;
  switch (capability) {
    case 'roots':
      return { jsonrpc: '2.0', id, method: 'roots/list', params: {} };
    case 'sampling':
      return { jsonrpc: '2.0', id, method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 } };
    default:
      return {
        jsonrpc: '2.0',
        id,
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
      };
  }
}

/** Swallows the client's answers to the requests a mutation sent in the server's place. */
const swallowInjectedAnswers: Pick<MutationHooks, 'toServer'> = {
  toServer(m) {
    if (!isResponse(m) || typeof m.id !== 'string' || !m.id.startsWith(INJECTED_PREFIX)) return undefined;
    return [];
  },
};

const CLIENT_CAPS = ['roots', 'sampling', 'elicitation'] as const;

export const LIFECYCLE_MUTATIONS: Mutation[] = [
  mutation({
    ...legacy,
    id: 'lifecycle.version-downgraded',
    requirements: ['LC-03'],
    description: 'where the initialize answer accepts the requested version, it names the next older legacy version instead (2025-11-25 asked, 2025-06-18 answered)',
    ...onResult(['initialize'], (r, ctx) => {
      const asked = askedVersion(ctx);
      const i = LEGACY_LADDER.indexOf(asked ?? '');
      if (asked === undefined || r.protocolVersion !== asked || i < 0 || i === LEGACY_LADDER.length - 1) return false;
      r.protocolVersion = LEGACY_LADDER[i + 1];
      return true;
    }),
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.counteroffer-echoes-request',
    requirements: ['LC-03'],
    description: 'where the server counter-offers another version (the requested one is unknown to it), the initialize answer echoes the requested version instead',
    ...onResult(['initialize'], (r, ctx) => {
      const asked = askedVersion(ctx);
      if (asked === undefined || typeof r.protocolVersion !== 'string' || r.protocolVersion === asked) return false;
      r.protocolVersion = asked;
      return true;
    }),
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.counteroffer-refused',
    requirements: ['LC-03'],
    related: ['LC-08'],
    description: 'where the server would counter-offer another version, it refuses the initialize request with -32602 (data: supported, requested) instead',
    ...onAnswer(['initialize'], (m, ctx) => {
      const r = m.result;
      const asked = askedVersion(ctx);
      if (!isObj(r) || asked === undefined || typeof r.protocolVersion !== 'string' || r.protocolVersion === asked) return undefined;
      delete m.result;
      m.error = { code: -32602, message: 'Unsupported protocol version', data: { supported: [r.protocolVersion], requested: asked } };
      return [m];
    }),
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.notification-before-initialized',
    requirements: ['LC-06'],
    description: 'right after its initialize answer (before the client can send notifications/initialized) the server sends a list_changed notification of a list it announced listChanged for',
    toClient(m, ctx) {
      if (ctx.request?.method !== 'initialize' || !isObj(m.result) || !isObj(m.result.capabilities)) return undefined;
      const caps = m.result.capabilities;
      const family = LIST_FAMILIES.find((f) => isObj(caps[f]) && (caps[f] as Obj).listChanged === true);
      if (!family) return undefined;
      return [m, { jsonrpc: '2.0', method: `notifications/${family}/list_changed` }];
    },
  }),
  mutation({
    // stdio only: on HTTP the client's answer would be a POST the proxy cannot answer in the server's place.
    role: 'server',
    eras: ['legacy'],
    transports: ['stdio'],
    id: 'lifecycle.request-before-initialized',
    requirements: ['LC-06'],
    description: 'right after its initialize answer (before notifications/initialized) the server sends a request the client declared the capability for (roots/list, sampling/createMessage or elicitation/create); the client\'s answer is swallowed',
    toClient(m, ctx) {
      if (ctx.request?.method !== 'initialize' || !isObj(m.result)) return undefined;
      const caps = isObj(ctx.request.params.capabilities) ? ctx.request.params.capabilities : {};
      const cap = CLIENT_CAPS.find((c) => c in caps);
      if (!cap) return undefined;
      return [m, serverRequest(cap, ctx)];
    },
    ...swallowInjectedAnswers,
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.announced-capability-unserved',
    requirements: ['LC-07'],
    related: ['CAP-01'],
    description: 'the server announces prompts (else resources, else completions) in its initialize answer but answers the methods of that capability with -32601',
    ...learningServerCaps((m, ctx) => {
      const method = ctx.request?.method;
      if (!method || !isResponse(m)) return undefined;
      const caps = serverCaps(ctx);
      const family = Object.keys(GATED).find((f) => f in caps);
      if (!family || !GATED[family].includes(method)) return undefined;
      delete m.result;
      m.error = { code: -32601, message: `Method not found: ${method}` };
      return [m];
    }),
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.served-capability-unannounced',
    requirements: ['LC-07'],
    related: ['CAP-01'],
    description: 'the initialize answer leaves out one capability the server serves (completions, else prompts, else resources, else logging); its methods keep working',
    ...onResult(['initialize'], (r) => {
      if (!isObj(r.capabilities)) return false;
      const caps = r.capabilities;
      const gone = ['completions', 'prompts', 'resources', 'logging'].find((c) => c in caps);
      if (!gone) return false;
      delete caps[gone];
      return true;
    }),
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.list-changed-unannounced',
    requirements: ['LC-07'],
    description: 'after each tools/call answer the server sends notifications/<list>/list_changed for a list whose capability did not announce listChanged (or was not announced at all)',
    ...learningServerCaps((m, ctx) => {
      if (ctx.request?.method !== 'tools/call' || !isResponse(m) || !isObj(ctx.state.serverCaps)) return undefined;
      const caps = serverCaps(ctx);
      const quiet = (f: string) => !(isObj(caps[f]) && (caps[f] as Obj).listChanged === true);
      const family = LIST_FAMILIES.find((f) => f in caps && quiet(f)) ?? LIST_FAMILIES.find(quiet);
      if (!family) return undefined;
      return [m, { jsonrpc: '2.0', method: `notifications/${family}/list_changed` }];
    }),
  }),
  mutation({
    role: 'server',
    eras: ['legacy'],
    transports: ['stdio'],
    id: 'lifecycle.request-undeclared-client-capability',
    requirements: ['LC-07'],
    description: 'before each tools/call answer the server sends a request (roots/list, sampling/createMessage or elicitation/create) for a client capability the initialize request did not declare; the client\'s answer is swallowed',
    toServer(m, ctx) {
      if (isRequest(m) && m.method === 'initialize') {
        const params = isObj(m.params) ? m.params : {};
        ctx.state.clientCaps = isObj(params.capabilities) ? structuredClone(params.capabilities) : {};
        return undefined;
      }
      return swallowInjectedAnswers.toServer!(m, ctx);
    },
    toClient(m, ctx) {
      if (ctx.request?.method !== 'tools/call' || !isResponse(m) || !isObj(ctx.state.clientCaps)) return undefined;
      const caps = ctx.state.clientCaps as Obj;
      const cap = CLIENT_CAPS.find((c) => !(c in caps));
      if (!cap) return undefined;
      return [serverRequest(cap, ctx), m];
    },
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.ping-result-not-empty',
    requirements: ['LC-10'],
    description: 'ping is answered with a non-empty result ({"status": "ok"})',
    ...onResult(['ping'], (r) => {
      if (r.status === 'ok') return false;
      r.status = 'ok';
      return true;
    }),
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.ping-refused',
    requirements: ['LC-10'],
    description: 'ping is answered with -32601 (method not found) instead of an empty result',
    ...onAnswer(['ping'], (m) => {
      if (!isObj(m.result)) return undefined;
      delete m.result;
      m.error = { code: -32601, message: 'Method not found: ping' };
      return [m];
    }),
  }),
  mutation({
    ...legacy,
    id: 'lifecycle.ping-unanswered',
    requirements: ['LC-10'],
    // An unanswered request is what the every-request-gets-an-answer check sees.
    related: ['JR-04'],
    description: 'ping is never answered',
    ...onAnswer(['ping'], () => []),
  }),
];
