// Mutations of per-request `_meta` (requirements digest §4, MT-01..MT-11, server side): how a server
// treats a request missing a required key (MT-02) or a client capability it needs (MT-05), the
// serverInfo it puts in result `_meta` (MT-06), not basing behaviour on clientInfo (MT-07), the
// subscription id on listen streams (MT-08), trace context values (MT-09), and the key grammar of
// the `_meta` it sends (MT-10, both eras). A request without the protocolVersion key is a legacy
// request to the proxy, so the MT-02 mutations are about the other required key, clientCapabilities.

import { isRequest } from '../../protocol/jsonrpc.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SERVER_INFO } from '../../protocol/meta.js';
import { isObj, metaOf, onError, onNotification, onResult } from '../edits.js';
import { mutation, SERVER_ANY as server, SERVER_MODERN as modern, type Mutation, type SeenRequest } from '../mutation.js';
import { errorOf, metaOfRequest } from './versioning.js';

type Obj = Record<string, unknown>;

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** A modern request (it names its version) that lacks the required clientCapabilities key. */
function lacksCapabilities(req: SeenRequest | undefined): boolean {
  const meta = metaOfRequest(req);
  return META_PROTOCOL_VERSION in meta && !(META_CLIENT_CAPABILITIES in meta);
}

function isMissingCapability(e: Obj): boolean {
  return e.code === -32021;
}

/** Adds a `_meta` key to a result (when it is not there yet). */
function addMetaKey(key: string, value: unknown) {
  return (r: Obj): boolean => {
    const meta = metaOf(r);
    if (key in meta) return false;
    meta[key] = value;
    return true;
  };
}

export const META_MUTATIONS: Mutation[] = [
  mutation({
    ...modern,
    id: 'meta.missing-capabilities-served',
    requirements: ['MT-02'],
    description: 'a request whose _meta lacks io.modelcontextprotocol/clientCapabilities is served as if it declared {} instead of refused with -32602 (the proxy adds the key on the way in)',
    toServer(m) {
      if (!isRequest(m) || !isObj(m.params) || !isObj(m.params._meta)) return undefined;
      const meta = m.params._meta;
      if (!(META_PROTOCOL_VERSION in meta) || META_CLIENT_CAPABILITIES in meta) return undefined;
      meta[META_CLIENT_CAPABILITIES] = {};
      return [m];
    },
  }),
  mutation({
    ...modern,
    id: 'meta.missing-key-wrong-code',
    requirements: ['MT-02'],
    description: 'the -32602 refusal of a request lacking io.modelcontextprotocol/clientCapabilities says -32600 (invalid request) instead',
    ...onError('*', (e, ctx) => {
      if (e.code !== -32602 || !lacksCapabilities(ctx.request)) return false;
      e.code = -32600;
      return true;
    }),
  }),
  mutation({
    role: 'server',
    eras: ['modern'],
    transports: ['http'],
    id: 'meta.missing-key-http-200',
    requirements: ['MT-02'],
    related: ['HM-12'],
    description: 'the -32602 refusal of a request lacking io.modelcontextprotocol/clientCapabilities comes with HTTP status 200 instead of 400',
    httpAnswer(answer) {
      const e = errorOf(answer);
      if (!e || e.code !== -32602 || !lacksCapabilities(answer.request) || answer.status === 200) return undefined;
      return { ...answer, status: 200 };
    },
  }),
  mutation({
    ...modern,
    id: 'meta.missing-capability-wrong-code',
    requirements: ['MT-05'],
    description: 'the refusal of a request that needs an undeclared client capability says -32602 instead of -32021 (data stays)',
    ...onError('*', (e) => {
      if (!isMissingCapability(e)) return false;
      e.code = -32602;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'meta.missing-capability-no-data',
    requirements: ['MT-05'],
    description: 'the -32021 refusal carries no data (so no data.requiredCapabilities)',
    ...onError('*', (e) => {
      if (!isMissingCapability(e) || !('data' in e)) return false;
      delete e.data;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'meta.missing-capability-names-nothing',
    requirements: ['MT-05'],
    description: 'the -32021 refusal names no capability: data.requiredCapabilities is {}',
    ...onError('*', (e) => {
      if (!isMissingCapability(e) || !isObj(e.data) || (isObj(e.data.requiredCapabilities) && Object.keys(e.data.requiredCapabilities).length === 0)) return false;
      e.data.requiredCapabilities = {};
      return true;
    }),
  }),
  mutation({
    role: 'server',
    eras: ['modern'],
    transports: ['http'],
    id: 'meta.missing-capability-http-200',
    requirements: ['MT-05'],
    related: ['HM-12'],
    description: 'the -32021 refusal comes with HTTP status 200 instead of 400',
    httpAnswer(answer) {
      const e = errorOf(answer);
      if (!e || !isMissingCapability(e) || answer.status === 200) return undefined;
      return { ...answer, status: 200 };
    },
  }),
  mutation({
    ...modern,
    id: 'meta.server-info-missing',
    requirements: ['MT-06'],
    description: 'results other than server/discover lack _meta["io.modelcontextprotocol/serverInfo"]',
    ...onResult('*', (r, ctx) => {
      if (ctx.request?.method === 'server/discover' || !isObj(r._meta) || !(META_SERVER_INFO in r._meta)) return false;
      delete r._meta[META_SERVER_INFO];
      if (Object.keys(r._meta).length === 0) delete r._meta;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'meta.discover-server-info-missing',
    requirements: ['MT-06'],
    related: ['VN-06'],
    description: 'the server/discover result lacks _meta["io.modelcontextprotocol/serverInfo"]',
    ...onResult(['server/discover'], (r) => {
      if (!isObj(r._meta) || !(META_SERVER_INFO in r._meta)) return false;
      delete r._meta[META_SERVER_INFO];
      if (Object.keys(r._meta).length === 0) delete r._meta;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'meta.server-info-no-version',
    requirements: ['MT-06'],
    description: 'the serverInfo in result _meta lacks its required version',
    ...onResult('*', (r) => {
      const info = isObj(r._meta) ? r._meta[META_SERVER_INFO] : undefined;
      if (!isObj(info) || !('version' in info)) return false;
      delete info.version;
      return true;
    }),
  }),
  mutation({
    ...modern,
    id: 'meta.requires-client-info',
    requirements: ['MT-07'],
    description: 'requests without io.modelcontextprotocol/clientInfo (which is optional) are refused with -32602 "clientInfo is required" in the server\'s place',
    toServer(m, ctx) {
      if (!isRequest(m) || !isObj(m.params) || !isObj(m.params._meta)) return undefined;
      const meta = m.params._meta;
      if (!(META_PROTOCOL_VERSION in meta) || !(META_CLIENT_CAPABILITIES in meta) || META_CLIENT_INFO in meta) return undefined;
      ctx.reply({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: 'clientInfo is required' } });
      return [];
    },
  }),
  mutation({
    ...modern,
    id: 'meta.subscription-id-minted',
    requirements: ['MT-08'],
    related: ['SB-05', 'SB-03'],
    description: 'notifications on a listen stream carry a subscription id the server minted ("sub-1", "sub-2", ... per listen) instead of the listen request\'s id',
    ...onNotification('*', (m, ctx) => {
      const meta = isObj(m.params) && isObj(m.params._meta) ? m.params._meta : undefined;
      const id = meta?.[SUBSCRIPTION_ID];
      if (!meta || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
      if (!(ctx.state.minted instanceof Map)) ctx.state.minted = new Map<string, string>();
      const minted = ctx.state.minted as Map<string, string>;
      const key = `${typeof id}:${String(id)}`;
      if (!minted.has(key)) minted.set(key, `sub-${minted.size + 1}`);
      meta[SUBSCRIPTION_ID] = minted.get(key);
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'meta.traceparent-malformed',
    requirements: ['MT-09'],
    description: 'results carry a traceparent in _meta that is no W3C Trace Context value ("trace-12345" instead of version-traceid-parentid-flags)',
    ...onResult('*', addMetaKey('traceparent', 'trace-12345')),
  }),
  mutation({
    ...server,
    id: 'meta.result-key-bad-name',
    requirements: ['MT-10'],
    description: 'results carry a _meta key whose name starts with an underscore ("com.example/_elapsed")',
    ...onResult('*', addMetaKey('com.example/_elapsed', 12)),
  }),
  mutation({
    ...server,
    id: 'meta.result-key-bad-prefix',
    requirements: ['MT-10'],
    description: 'results carry a _meta key whose prefix label ends with a hyphen ("com.example-/elapsed")',
    ...onResult('*', addMetaKey('com.example-/elapsed', 12)),
  }),
  mutation({
    ...server,
    id: 'meta.result-key-reserved-prefix',
    requirements: ['MT-10'],
    description: 'results carry a made-up _meta key under the reserved io.modelcontextprotocol/ prefix ("io.modelcontextprotocol/elapsedMs")',
    ...onResult('*', addMetaKey('io.modelcontextprotocol/elapsedMs', 12)),
  }),
];
