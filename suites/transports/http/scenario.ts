import { isObj } from '../../../protocol/jsonrpc.js';
import { ALL_VERSIONS, MODERN } from '../../../protocol/versions.js';
import type { Exchange, Session } from '../../ports/session.js';
import { scenario } from '../../kit/scenario.js';
import { harmlessMethod, harmlessRequest } from '../../messages/jsonrpc-scenario.js';

export interface HttpObs {
  foreignOrigin: Exchange;
  notification: Exchange;
  malformed: Exchange;
  /** Legacy: the server issued an Mcp-Session-Id. */
  usesSessions: boolean;
  deleted?: Exchange;
  unknownSession?: Exchange;
  unknownMethod: Exchange;
  /** The harmless method once alone, then several of it posted at once, each on its own POST (the last attempt of each). */
  alone: Exchange;
  concurrent: Exchange[];
  /** Legacy: a GET asking for the standalone SSE stream (before any DELETE). */
  getStream?: Exchange;
  /** Modern: the versions server/discover listed (undefined if it listed none). */
  supportedVersions?: string[];
  /** Modern-only servers: 2025-era traffic (GET, DELETE, a request carrying an Mcp-Session-Id). */
  legacyTraffic?: { get: Exchange; del: Exchange; withSessionId: Exchange };
}

/** A session id no server issued: what an older client would still send. */
export const STALE_SESSION_ID = 'mcpspec-stale-session-0';
export const STALE_EVENT_ID = 'mcpspec-stale-event-0';
/** How many requests the scenario posts at once. */
export const CONCURRENT_REQUESTS = 3;

/** The versions server/discover listed, if it listed any. */
function discoveredVersions(session: Session): string[] | undefined {
  const r = isObj(session.handshake.response) ? session.handshake.response.result : undefined;
  const v = isObj(r) ? r.supportedVersions : undefined;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

/**
 * Streamable HTTP rules: Origin, notifications, malformed bodies, sessions, mismatched mirror headers
 * (judged by the http.header-mismatch oracle with every other request), unknown methods.
 */
export const httpScenario = scenario<HttpObs>({
  id: 'http',
  title: 'Streamable HTTP rules: Origin, notifications, malformed bodies, sessions, header mirroring',
  versions: ALL_VERSIONS,
  transports: ['http'],
  async run(ctx) {
    const { session } = ctx;
    const method = harmlessMethod(session);
    const mismatches =
      session.era === 'modern'
        ? [
            ctx.deliberate(session.request('server/discover', {}, { headers: { 'MCP-Protocol-Version': '2025-11-25' } })),
            ctx.probe(harmlessRequest(session, 'mcpspec-mm'), { expectId: 'mcpspec-mm', headers: { 'Mcp-Method': 'tools/list' } }),
          ]
        : [];
    const [foreignOrigin, notification, malformed, unknownMethod] = await Promise.all([
      ctx.deliberate(session.request(method, {}, { headers: { Origin: 'https://evil.example' } })),
      session.notify('notifications/cancelled', { requestId: 'mcpspec-never-sent', reason: 'test' }),
      ctx.probe('{"jsonrpc":"2.0","id":1,', { idless: true }),
      ctx.deliberate(session.request('mcpspec/no-such-method', {})),
      ...mismatches,
    ]);
    // Several requests in flight at once, each on a POST (and answer) of its own: every answer must carry its own
    // response. The same request alone first shows how the server serves it when nothing else is in flight.
    const alone = await session.request(method, {});
    const concurrent = await Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, () => session.request(method, {})));
    const obs: HttpObs = { foreignOrigin, notification, malformed, unknownMethod, alone, concurrent, usesSessions: false };
    const sid = session.httpSessionId;
    if (session.era === 'legacy') {
      obs.getStream = await ctx.probe('', { httpMethod: 'GET', sseHeadOnly: true, ...(sid ? { headers: { 'Mcp-Session-Id': sid } } : {}) });
    } else {
      obs.supportedVersions = discoveredVersions(session);
      // H26 "Earlier Streamable HTTP Revisions": only a server that speaks no earlier version (dates sort as strings) is asked to refuse their traffic.
      if (obs.supportedVersions?.length && obs.supportedVersions.every((v) => v >= MODERN[0])) {
        const [get, del, withSessionId] = await Promise.all([
          ctx.probe('', { httpMethod: 'GET', sseHeadOnly: true, headers: { 'Mcp-Session-Id': STALE_SESSION_ID } }),
          ctx.probe('', { httpMethod: 'DELETE', headers: { 'Mcp-Session-Id': STALE_SESSION_ID } }),
          // A 2025-era client's resumption header rides along: streams are not resumable, so it is ignored too.
          ctx.deliberate(session.request(method, {}, { headers: { 'Mcp-Session-Id': STALE_SESSION_ID, 'Last-Event-ID': STALE_EVENT_ID } })),
        ]);
        obs.legacyTraffic = { get, del, withSessionId };
      }
    }
    if (session.era === 'legacy' && sid) {
      obs.usesSessions = true;
      // End the session as a client may (DELETE), then use its id again: that must be a 404.
      obs.deleted = await ctx.probe('', { httpMethod: 'DELETE', headers: { 'Mcp-Session-Id': sid } });
      const status = obs.deleted.http?.status ?? 0;
      if (status >= 200 && status < 300) obs.unknownSession = await ctx.deliberate(session.request('ping', undefined, { headers: { 'Mcp-Session-Id': sid } }));
    }
    return obs;
  },
});
