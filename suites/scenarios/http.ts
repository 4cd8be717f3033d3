import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Exchange } from '../ports.js';
import { scenario } from '../scenario.js';
import { harmlessMethod, harmlessRequest } from './jsonrpc.js';

export interface HttpObs {
  foreignOrigin: Exchange;
  notification: Exchange;
  malformed: Exchange;
  /** Legacy: the server issued an Mcp-Session-Id. */
  usesSessions: boolean;
  deleted?: Exchange;
  unknownSession?: Exchange;
  unknownMethod: Exchange;
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
    const obs: HttpObs = { foreignOrigin, notification, malformed, unknownMethod, usesSessions: false };
    const sid = session.httpSessionId;
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
