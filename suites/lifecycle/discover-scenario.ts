import { MCPSPEC_INFO, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, modernMeta } from '../../protocol/meta.js';
import { MODERN } from '../../protocol/versions.js';
import type { Exchange, Session } from '../ports/session.js';
import { scenario, type ScenarioContext } from '../kit/scenario.js';
import { BOGUS_VERSION } from './counteroffer-scenario.js';

export interface DiscoverObs {
  discover: Exchange;
  version: string;
  /** A good request (both required _meta keys and clientInfo), and the same request without clientInfo. */
  withInfo?: Exchange;
  withoutInfo?: Exchange;
}

/** A request naming an unsupported version; on HTTP the header names it too, so only the version is wrong. */
function withBogusVersion(session: Session, method: string, ctx: ScenarioContext): Promise<Exchange> {
  return ctx.deliberate(session.request(method, {}, { metaOverrides: { [META_PROTOCOL_VERSION]: BOGUS_VERSION }, headers: { 'MCP-Protocol-Version': BOGUS_VERSION } }));
}

/** The method to probe besides discover: a list the server declared, else discover again. */
export function secondMethod(session: Session): string {
  for (const [cap, method] of [['tools', 'tools/list'], ['prompts', 'prompts/list'], ['resources', 'resources/list']]) {
    if (cap in session.capabilities) return method;
  }
  return 'server/discover';
}

/**
 * server/discover as the handshake; then, on the same connection after a good request, requests in
 * an unsupported version and requests missing required `_meta` keys. Their answers are judged by
 * the oracles version.unsupported-every-request and meta.required-keys, with every other such
 * request of the run.
 */
export const discoverScenario = scenario<DiscoverObs>({
  id: 'discover',
  title: 'server/discover, then unsupported versions and missing _meta keys on the same connection',
  versions: MODERN,
  async run(ctx) {
    const { session } = ctx;
    const withInfo = await session.request(secondMethod(session)); // a good request first: state must not carry over
    // clientInfo is optional (MT-01 requires two keys; MT-03 is the client's SHOULD): still served without it.
    const withoutInfo = await ctx.deliberate(session.request(secondMethod(session), {}, { metaOverrides: { [META_CLIENT_INFO]: undefined } }));
    // One after the other, so over HTTP they tend to reuse the connection the good request used.
    await withBogusVersion(session, 'server/discover', ctx);
    await withBogusVersion(session, secondMethod(session), ctx);
    await Promise.all([
      ctx.deliberate(session.request('server/discover', {}, { metaOverrides: { [META_PROTOCOL_VERSION]: undefined } })),
      ctx.deliberate(session.request('server/discover', {}, { metaOverrides: { [META_CLIENT_CAPABILITIES]: undefined } })),
      ctx.deliberate(session.request(secondMethod(session), {}, { meta: 'none' })),
    ]);
    return { discover: session.handshake, version: session.version, withInfo, withoutInfo };
  },
});

export interface FirstObs {
  first: Exchange;
}

/** The very first message on a fresh connection names an unsupported version. */
export const versionFirstRequest = scenario<FirstObs>({
  id: 'version.first-request',
  title: 'an unsupported version on the first request of a connection',
  versions: MODERN,
  async run({ openRaw }) {
    const target = await openRaw();
    const msg = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta(BOGUS_VERSION) } };
    const headers = { 'MCP-Protocol-Version': BOGUS_VERSION, 'Mcp-Method': 'server/discover' };
    return { first: await target.send(msg, { expectId: 1, headers }) };
  },
});

export interface NotPinnedObs {
  /** The opening request of a fresh connection, without any version `_meta`. */
  claimless: Exchange;
  /** Then, on that connection, 2026-07-28 requests: server/discover and a list. */
  discover: Exchange;
  list: Exchange;
  /** The same list on the scenario's own session, where nothing came before it: the baseline. */
  baseline: Exchange;
  listMethod: string;
}

/**
 * A fresh connection opens with a request carrying no version `_meta` (neither `initialize` nor a
 * 2026-07-28 request), then sends 2026-07-28 requests. Those are self-describing, so they must be
 * served as on any other connection (VN-08): a server that let the opener pin the connection to a
 * legacy era answers them by legacy rules.
 */
export const versionNotPinned = scenario<NotPinnedObs>({
  id: 'version.not-pinned',
  title: 'a fresh connection opened without version _meta, then 2026-07-28 requests on it',
  versions: MODERN,
  async run({ session, openRaw, version }) {
    const listMethod = secondMethod(session);
    const raw = await openRaw();
    const modern = (id: number, method: string) =>
      raw.send(
        { jsonrpc: '2.0', id, method, params: { _meta: modernMeta(version) } },
        { expectId: id, headers: { 'MCP-Protocol-Version': version, 'Mcp-Method': method } },
      );
    // On stdio the messages are written in this order at once: a server that reads in order sees the
    // opener first. HTTP requests in flight together have no order, so there the opener is answered first.
    const opener = raw.send({ jsonrpc: '2.0', id: 1, method: listMethod }, { expectId: 1 });
    if (raw.kind === 'http') await opener;
    const [claimless, discover, list, baseline] = await Promise.all([
      opener,
      modern(2, 'server/discover'),
      modern(3, listMethod),
      session.request(listMethod),
    ]);
    return { claimless, discover, list, baseline, listMethod };
  },
});

export interface InitializeObs {
  /** A legacy client's first message, initialize for 2025-11-25, on a fresh connection. */
  initialize: Exchange;
  /** What server/discover listed (the versions an error to initialize should name). */
  supported: string[];
  /** The methods 2026-07-28 removed, each sent as a 2026-07-28 request (its `_meta`; over HTTP its headers). */
  removed: { method: string; exchange: Exchange }[];
  /** initialize sent as a 2026-07-28 request (nothing but `_meta` in its params), the session's last request. */
  modernInitialize: Exchange;
}

/** The version a legacy client's initialize asks for in version.initialize. */
export const LEGACY_ASKED = '2025-11-25';

/** A uri for resources/subscribe and unsubscribe sent the 2026-07-28 way (any uri: the method itself is unknown). */
export const REMOVED_PROBE_URI = 'mcpspec://probe/removed-method';

/**
 * The requests 2026-07-28 removed (changelog: ping, logging/setLevel, resources/subscribe and
 * unsubscribe), with the params a 2025-era server would take, so only the era is wrong.
 */
export const REMOVED_METHODS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['ping', {}],
  ['logging/setLevel', { level: 'info' }],
  ['resources/subscribe', { uri: REMOVED_PROBE_URI }],
  ['resources/unsubscribe', { uri: REMOVED_PROBE_URI }],
];

/**
 * A legacy client opens a fresh connection with initialize: a modern-only server refuses it, and says
 * what it speaks. On the scenario's 2026-07-28 session, the removed methods and then initialize are
 * sent as 2026-07-28 requests (initialize last: a dual-era server may take it as a legacy handshake).
 */
export const initializeProbe = scenario<InitializeObs>({
  id: 'version.initialize',
  title: 'initialize from a legacy client, on a fresh connection; the methods 2026-07-28 removed, and initialize, as 2026-07-28 requests',
  versions: MODERN,
  async run({ session, openRaw, deliberate }) {
    const legacy = async () => {
      const raw = await openRaw();
      const msg = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY_ASKED, capabilities: {}, clientInfo: MCPSPEC_INFO } };
      return raw.send(msg, { expectId: 1 });
    };
    const [initialize, removed] = await Promise.all([
      legacy(),
      Promise.all(REMOVED_METHODS.map(async ([method, params]) => ({ method, exchange: await deliberate(session.request(method, { ...params })) }))),
    ]);
    const modernInitialize = await deliberate(session.request('initialize'));
    const listed = (session.handshake?.response as { result?: { supportedVersions?: unknown } } | undefined)?.result?.supportedVersions;
    return { initialize, supported: Array.isArray(listed) ? listed.filter((v): v is string => typeof v === 'string') : [], removed, modernInitialize };
  },
});
