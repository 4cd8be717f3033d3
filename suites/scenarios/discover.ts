import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, modernMeta } from '../../protocol/meta.js';
import { MODERN } from '../../protocol/versions.js';
import type { Exchange, Session } from '../ports.js';
import { scenario, type ScenarioContext } from '../scenario.js';
import { BOGUS_VERSION } from './counteroffer.js';

export interface DiscoverObs {
  discover: Exchange;
  version: string;
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
    await session.request(secondMethod(session)); // a good request first: state must not carry over
    // One after the other, so over HTTP they tend to reuse the connection the good request used.
    await withBogusVersion(session, 'server/discover', ctx);
    await withBogusVersion(session, secondMethod(session), ctx);
    await Promise.all([
      ctx.deliberate(session.request('server/discover', {}, { metaOverrides: { [META_PROTOCOL_VERSION]: undefined } })),
      ctx.deliberate(session.request('server/discover', {}, { metaOverrides: { [META_CLIENT_CAPABILITIES]: undefined } })),
      ctx.deliberate(session.request(secondMethod(session), {}, { meta: 'none' })),
    ]);
    return { discover: session.handshake, version: session.version };
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
