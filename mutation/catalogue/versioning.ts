// Mutations of modern per-request version negotiation (requirements digest §3b, VN-01..VN-10 and
// ED-06, server side; §4 MT-11 / §14 EX-02 for the extension ids a server announces): the -32022
// refusal of an unsupported version, the server/discover result, unknown and removed methods,
// statelessness across requests, and lists that must not change as a side-effect of other requests.

import { isRequest } from '../../protocol/jsonrpc.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, META_SERVER_INFO } from '../../protocol/meta.js';
import { DEFAULT_MODERN_VERSION, LEGACY_VERSIONS, MODERN_VERSIONS, eraOf } from '../../protocol/versions.js';
import { drop, isObj, list, onAnswer, onError, onResult } from '../edits.js';
import { mutation, SERVER_MODERN as modern, type HttpAnswer, type Mutation, type MutationContext, type MutationHooks, type SeenRequest } from '../mutation.js';

type Obj = Record<string, unknown>;

/**
 * Runs a toClient hook and, on HTTP, gives the answers it changed the status `status` (an answer
 * turned from an error into a result, or the other way round, must not keep the old status).
 */
export function withStatus(status: number, hooks: Pick<MutationHooks, 'toClient'>): Pick<MutationHooks, 'toClient' | 'httpAnswer'> {
  const changed = (ctx: MutationContext): Set<string> => {
    if (!(ctx.state.statusChanged instanceof Set)) ctx.state.statusChanged = new Set<string>();
    return ctx.state.statusChanged as Set<string>;
  };
  const key = (id: unknown) => `${typeof id}:${String(id)}`;
  return {
    toClient(m, ctx) {
      const out = hooks.toClient?.(m, ctx);
      if (out !== undefined && ctx.request && ctx.transport === 'http') changed(ctx).add(key(ctx.request.id));
      return out;
    },
    httpAnswer(answer: HttpAnswer, ctx: MutationContext): HttpAnswer | undefined {
      if (answer.sse || !answer.request || !changed(ctx).delete(key(answer.request.id)) || answer.status === status) return undefined;
      return { ...answer, status };
    },
  };
}

/** An HTTP answer's single JSON-RPC error, when it is one. */
export function errorOf(answer: HttpAnswer): Obj | undefined {
  const m = answer.messages.length === 1 ? answer.messages[0] : undefined;
  return isObj(m) && isObj(m.error) ? m.error : undefined;
}

/** The request's per-request `_meta` (modern), or an empty object. */
export function metaOfRequest(req: SeenRequest | undefined): Obj {
  return isObj(req?.params._meta) ? (req!.params._meta as Obj) : {};
}

/** Every method of MCP, either era (core and tasks): a method outside it is unknown. */
const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'subscriptions/listen',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
  'tasks/update',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
]);

/** Methods 2026-07-28 removed (CL26): unknown methods in the modern era (-32601). */
const REMOVED_IN_MODERN = ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'tasks/result', 'tasks/list'];

function supportedSeen(ctx: MutationContext): Set<string> {
  if (!(ctx.state.supported instanceof Set)) ctx.state.supported = new Set<string>();
  return ctx.state.supported as Set<string>;
}

/** A version the server (as far as the proxy saw) or MCP knows: such a request is left alone. */
function knownVersion(ctx: MutationContext, v: string): boolean {
  return supportedSeen(ctx).has(v) || (MODERN_VERSIONS as readonly string[]).includes(v) || (LEGACY_VERSIONS as readonly string[]).includes(v) || v === '2024-11-05';
}

/** The modern version the server serves (from its server/discover answers, else the default). */
function servedVersion(ctx: MutationContext): string {
  return [...supportedSeen(ctx)].find((v) => eraOf(v) === 'modern') ?? DEFAULT_MODERN_VERSION;
}

function unsupportedAsk(ctx: MutationContext, req: SeenRequest | undefined): string | undefined {
  const v = metaOfRequest(req)[META_PROTOCOL_VERSION];
  return typeof v === 'string' && !knownVersion(ctx, v) ? v : undefined;
}

function isUnsupportedVersionError(e: Obj): boolean {
  return e.code === -32022;
}

/** server/discover capabilities, created when missing. */
function discoverExtensions(r: Obj): Obj | undefined {
  if (!isObj(r.capabilities)) return undefined;
  if (!isObj(r.capabilities.extensions)) r.capabilities.extensions = {};
  return r.capabilities.extensions as Obj;
}

export const VERSIONING_MUTATIONS: Mutation[] = [
  mutation({
    ...modern,
    id: 'versioning.unsupported-version-served',
    requirements: ['VN-02'],
    description: 'a request naming a protocol version the server does not implement is served as if it named the server\'s modern version (the proxy rewrites _meta and the MCP-Protocol-Version header on the way in)',
    toServer(m, ctx) {
      if (!isRequest(m) || !isObj(m.params) || !isObj(m.params._meta)) return undefined;
      const v = m.params._meta[META_PROTOCOL_VERSION];
      if (typeof v !== 'string' || knownVersion(ctx, v)) return undefined;
      m.params._meta[META_PROTOCOL_VERSION] = servedVersion(ctx);
      return [m];
    },
    httpAsk(ask, ctx) {
      const asked = unsupportedAsk(ctx, ctx.request);
      if (asked === undefined || ask.headers['mcp-protocol-version'] !== asked) return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-protocol-version': servedVersion(ctx) } };
    },
    // Learns the versions the server lists, so a version it implements is never rewritten.
    toClient(m, ctx) {
      if (ctx.request?.method === 'server/discover' && isObj(m.result)) for (const v of list(m.result, 'supportedVersions') ?? []) if (typeof v === 'string') supportedSeen(ctx).add(v);
      return undefined;
    },
  }),
  mutation({
    ...modern,
    id: 'versioning.unsupported-version-code',
    requirements: ['VN-02'],
    description: 'the refusal of an unsupported version says -32602 (the 2025 initialize convention) instead of -32022; its data stays',
    ...onError('*', (e) => {
      if (!isUnsupportedVersionError(e)) return false;
      e.code = -32602;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'versioning.unsupported-version-no-supported',
    requirements: ['VN-02'],
    description: 'the -32022 refusal of an unsupported version lacks data.supported',
    ...onError('*', (e) => isUnsupportedVersionError(e) && drop(e.data, 'supported')),
  }),
  mutation({
    ...modern,
    id: 'versioning.unsupported-version-requested-wrong',
    requirements: ['VN-02'],
    description: 'the -32022 refusal names the server\'s own version in data.requested instead of echoing the version the request asked for',
    ...onError('*', (e) => {
      const data = e.data;
      if (!isUnsupportedVersionError(e) || !isObj(data)) return false;
      const own = (Array.isArray(data.supported) ? data.supported.find((v) => typeof v === 'string' && v !== data.requested) : undefined) ?? DEFAULT_MODERN_VERSION;
      if (data.requested === own) return false;
      data.requested = own;
      return true;
    }),
  }),
  mutation({
    role: 'server',
    eras: ['modern'],
    transports: ['http'],
    id: 'versioning.unsupported-version-http-200',
    requirements: ['VN-02'],
    related: ['HM-06', 'HM-12'],
    description: 'the -32022 refusal of an unsupported version comes with HTTP status 200 instead of 400',
    httpAnswer(answer) {
      const e = errorOf(answer);
      if (!e || !isUnsupportedVersionError(e) || answer.status === 200) return undefined;
      return { ...answer, status: 200 };
    },
  }),
  mutation({
    ...modern,
    id: 'versioning.discover-not-found',
    requirements: ['VN-04'],
    description: 'server/discover is answered with -32601 (method not found; HTTP 404), as by a server that does not implement it',
    ...withStatus(
      404,
      onAnswer(['server/discover'], (m) => {
        if (!isObj(m.result)) return undefined;
        delete m.result;
        m.error = { code: -32601, message: 'Method not found: server/discover' };
        return [m];
      }),
    ),
  }),
  mutation({
    ...modern,
    id: 'versioning.discover-no-supported-versions',
    requirements: ['VN-06'],
    description: 'the server/discover result lacks supportedVersions',
    ...onResult(['server/discover'], (r) => drop(r, 'supportedVersions')),
  }),
  mutation({
    ...modern,
    id: 'versioning.discover-omits-served-version',
    requirements: ['VN-06'],
    related: ['VN-02'],
    description: 'the server/discover result leaves out of supportedVersions the very version the request named (and that the server serves)',
    ...onResult(['server/discover'], (r, ctx) => {
      const asked = metaOfRequest(ctx.request)[META_PROTOCOL_VERSION];
      const versions = list(r, 'supportedVersions');
      if (typeof asked !== 'string' || !versions?.includes(asked)) return false;
      r.supportedVersions = versions.filter((v) => v !== asked);
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'versioning.discover-no-capabilities',
    requirements: ['VN-06'],
    description: 'the server/discover result lacks capabilities',
    ...onResult(['server/discover'], (r) => drop(r, 'capabilities')),
  }),
  mutation({
    ...modern,
    id: 'versioning.discover-server-info-top-level',
    requirements: ['VN-06'],
    related: ['MT-06'],
    description: 'the server/discover result carries the server identity as a top-level serverInfo (the early SEP-2575 shape) instead of in _meta["io.modelcontextprotocol/serverInfo"]',
    ...onResult(['server/discover'], (r) => {
      if (!isObj(r._meta) || !(META_SERVER_INFO in r._meta)) return false;
      r.serverInfo = r._meta[META_SERVER_INFO];
      delete r._meta[META_SERVER_INFO];
      if (Object.keys(r._meta).length === 0) delete r._meta;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'versioning.removed-method-served',
    requirements: ['VN-07'],
    description: 'methods 2026-07-28 removed (ping, logging/setLevel, resources/subscribe, ...) get an empty complete result (HTTP 200) in the modern era instead of -32601',
    ...withStatus(
      200,
      onError(REMOVED_IN_MODERN, (e, _ctx, m) => {
        if (e.code !== -32601) return false;
        delete m.error;
        m.result = { resultType: 'complete' };
        return true;
      }),
    ),
  }),
  mutation({
    ...modern,
    id: 'versioning.unknown-method-internal-error',
    requirements: ['VN-07'],
    description: 'requests of a method MCP does not define are answered with -32603 (internal error) instead of -32601',
    ...onError('*', (e, ctx) => {
      const method = ctx.request?.method;
      if (e.code !== -32601 || !method || KNOWN_METHODS.has(method)) return false;
      e.code = -32603;
      e.message = 'Internal error';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'versioning.sticky-capabilities',
    requirements: ['VN-08'],
    related: ['MT-05', 'IR-04', 'TB-03'],
    description: 'the server remembers client capabilities across requests: a request that declares fewer than an earlier one is served as if it declared them too (the proxy merges them in on the way in)',
    toServer(m, ctx) {
      if (!isRequest(m) || !isObj(m.params) || !isObj(m.params._meta) || !isObj(m.params._meta[META_CLIENT_CAPABILITIES])) return undefined;
      const caps = m.params._meta[META_CLIENT_CAPABILITIES] as Obj;
      const seen: Obj = isObj(ctx.state.caps) ? (ctx.state.caps as Obj) : {};
      let added = false;
      for (const [k, v] of Object.entries(seen)) {
        if (!(k in caps)) {
          caps[k] = structuredClone(v);
          added = true;
        } else if (isObj(v) && isObj(caps[k])) {
          const inner = caps[k] as Obj;
          for (const [ik, iv] of Object.entries(v)) {
            if (!(ik in inner)) {
              inner[ik] = structuredClone(iv);
              added = true;
            }
          }
        }
      }
      ctx.state.caps = structuredClone(caps);
      return added ? [m] : undefined;
    },
  }),
  mutation({
    ...modern,
    id: 'versioning.tools-list-after-call',
    requirements: ['VN-10'],
    description: 'once any tools/call was answered, first pages of tools/list lack their last tool (no list_changed is sent)',
    toClient(m, ctx) {
      if (ctx.request?.method === 'tools/call') {
        ctx.state.called = true;
        return undefined;
      }
      if (ctx.request?.method !== 'tools/list' || !ctx.state.called || 'cursor' in ctx.request.params || !isObj(m.result)) return undefined;
      const tools = list(m.result, 'tools');
      if (!tools) return undefined;
      tools.pop();
      return [m];
    },
  }),
  mutation({
    // An initialize request carries no modern `_meta`, so its exchange counts as legacy: the rule is
    // the modern-only server's (ED-06), the exchange it applies to is initialize.
    role: 'server',
    eras: ['legacy', 'modern'],
    transports: ['stdio', 'http'],
    id: 'versioning.initialize-refusal-names-no-version',
    requirements: ['ED-06'],
    description: 'the error refusing initialize (where it names supported versions) names none: no data, a message without versions',
    ...onError(['initialize'], (e) => {
      const namesVersions = (isObj(e.data) && 'supported' in e.data) || (typeof e.message === 'string' && /\d{4}-\d{2}-\d{2}/.test(e.message));
      if (!namesVersions) return false;
      delete e.data;
      e.message = 'initialize is not supported';
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'versioning.extension-id-unprefixed',
    requirements: ['MT-11', 'EX-02'],
    description: 'the server/discover capabilities.extensions also announce an extension id without a vendor prefix ("ui")',
    ...onResult(['server/discover'], (r) => {
      const ext = discoverExtensions(r);
      if (!ext || 'ui' in ext) return false;
      ext.ui = {};
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'versioning.extension-id-bad-label',
    requirements: ['MT-11', 'EX-02'],
    description: 'the server/discover capabilities.extensions also announce an extension id whose prefix label holds an underscore ("com.example_corp/widgets")',
    ...onResult(['server/discover'], (r) => {
      const ext = discoverExtensions(r);
      if (!ext || 'com.example_corp/widgets' in ext) return false;
      ext['com.example_corp/widgets'] = {};
      return true;
    }),
  }),
];
