import { ALL_VERSIONS, check, holds, LEGACY, MODERN, untestable, violated } from './check.js';
import { errorCode, evidence, isObj, outcome } from './exchange.js';
import { harmlessRequest } from './jsonrpc.js';
import { scenario } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange } from '../runner/session-types.js';

interface HttpObs {
  foreignOrigin: Exchange;
  notification: Exchange;
  malformed: Exchange;
  unknownSession?: Exchange;
  deleted?: Exchange;
  usesSessions: boolean;
  versionMismatch?: Exchange;
  methodMismatch?: Exchange;
  unknownMethod: Exchange;
}

const HTTP: ('http')[] = ['http'];

export const httpScenario = scenario<HttpObs>({
  id: 'http',
  title: 'Streamable HTTP rules: Origin, notifications, malformed bodies, sessions, header mirroring',
  versions: ALL_VERSIONS,
  transports: HTTP,
  async run(ctx) {
    const { session, options } = ctx;
    const t = Math.min(options.timeoutMs, 5000);
    const method = session.era === 'modern' ? 'server/discover' : 'ping';
    const foreignOrigin = await ctx.deliberate(session.request(method, {}, { headers: { Origin: 'https://evil.example' } }));
    const notification = await session.notify('notifications/cancelled', { requestId: 'mcpspec-never-sent', reason: 'test' });
    const malformed = await ctx.deliberate(session.raw('{"jsonrpc":"2.0","id":1,', { anyResponse: true, timeoutMs: t }));
    const obs: HttpObs = { foreignOrigin, notification, malformed, usesSessions: false, unknownMethod: await ctx.deliberate(session.request('mcpspec/no-such-method', {})) };
    if (session.era === 'legacy') {
      const sid = session.handshake.http?.headers['mcp-session-id'];
      obs.usesSessions = typeof sid === 'string' && sid.length > 0;
      if (obs.usesSessions) {
        // End the session as a client may (DELETE), then use its id again: that must be a 404.
        obs.deleted = await ctx.deliberate(session.raw('', { httpMethod: 'DELETE', anyResponse: true, timeoutMs: t, headers: { 'Mcp-Session-Id': sid } }));
        if (obs.deleted.http && obs.deleted.http.status !== 405) {
          obs.unknownSession = await ctx.deliberate(session.request('ping', undefined, { headers: { 'Mcp-Session-Id': sid } }));
        }
      }
    } else {
      obs.versionMismatch = await ctx.deliberate(session.request('server/discover', {}, { headers: { 'MCP-Protocol-Version': '2025-11-25' } }));
      obs.methodMismatch = await ctx.deliberate(session.raw(harmlessRequest(session, 'mcpspec-mm'), { expectId: 'mcpspec-mm', timeoutMs: t, headers: { 'Mcp-Method': 'tools/list' } }));
    }
    return obs;
  },
  checks: [
    check<HttpObs>({
      id: 'http.origin',
      title: 'a request with a foreign Origin is refused with 403 (2025-06-18: any 4xx)',
      requirements: ['HM-13'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      transports: HTTP,
      spec: SPEC.http26,
      judge({ foreignOrigin }, ctx) {
        if (foreignOrigin.http?.status === 403) return holds('403');
        // 2025-06-18 requires validating Origin but names no status; any refusal counts there.
        const status = foreignOrigin.http?.status ?? 0;
        if (ctx.version === '2025-06-18' && status >= 400 && status < 500) return holds(`refused with HTTP ${status}`);
        return violated(`Origin: https://evil.example got ${outcome(foreignOrigin)}`, [evidence('foreign Origin', foreignOrigin, { expected: 'HTTP 403' })]);
      },
    }),
    check<HttpObs>({
      id: 'http.notification-202',
      title: 'an accepted notification gets 202 with an empty body',
      requirements: ['HM-02', 'HL-02'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      transports: HTTP,
      spec: SPEC.http26,
      judge({ notification }) {
        const h = notification.http;
        if (h?.status === 202 && h.body.trim() === '') return holds('202, empty body');
        if (h && h.status >= 400) return untestable(`the server refused notifications/cancelled with HTTP ${h.status}; a refused notification may get an error status`);
        return violated(`notifications/cancelled got HTTP ${h?.status ?? 'nothing'}${h?.body ? ` with body ${h.body.slice(0, 80)}` : ''}`, [evidence('notification', notification, { expected: 'HTTP 202, empty body' })]);
      },
    }),
    check<HttpObs>({
      id: 'http.malformed-body',
      title: 'an unparseable body gets a 4xx with a JSON-RPC -32700 body, not an HTML page',
      requirements: ['JR-06', 'HM-02'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      transports: HTTP,
      spec: SPEC.http26,
      judge({ malformed }) {
        const h = malformed.http;
        const problems: string[] = [];
        if (!h || h.status < 400 || h.status > 499) problems.push(`HTTP ${h?.status ?? 'nothing'}`);
        if (!h?.contentType?.includes('json')) problems.push(`content type ${h?.contentType ?? 'none'}`);
        if (errorCode(malformed) !== -32700) problems.push(`body ${isObj(malformed.response) ? `error ${String(errorCode(malformed))}` : 'not a JSON-RPC error'}`);
        if (problems.length) return violated(`a truncated JSON body got ${problems.join(', ')}`, [evidence('malformed body', malformed, { expected: 'HTTP 4xx, application/json, error -32700' })]);
        return holds(`HTTP ${h!.status}, -32700`);
      },
    }),
    check<HttpObs>({
      id: 'http.unknown-session',
      title: 'after the session is ended with DELETE, a request carrying its Mcp-Session-Id gets 404',
      requirements: ['HL-07'],
      level: 'MUST',
      versions: LEGACY,
      transports: HTTP,
      spec: SPEC.transports25,
      judge({ usesSessions, deleted, unknownSession }) {
        if (!usesSessions) return untestable('the server issued no Mcp-Session-Id, so it does not use sessions');
        if (!unknownSession) return untestable(`the server does not let clients end sessions (DELETE got HTTP ${deleted?.http?.status ?? 'nothing'})`);
        if (unknownSession.http?.status === 404) return holds('404 after DELETE');
        return violated(`a request with the ended session's id got ${outcome(unknownSession)}`, [evidence('DELETE', deleted), evidence('request with the ended session id', unknownSession, { expected: 'HTTP 404' })]);
      },
    }),
    check<HttpObs>({
      id: 'http.header-mismatch',
      title: 'MCP-Protocol-Version or Mcp-Method headers that disagree with the body get 400 and -32020',
      requirements: ['HM-06', 'HM-08'],
      level: 'MUST',
      versions: MODERN,
      transports: HTTP,
      spec: SPEC.http26,
      judge({ versionMismatch, methodMismatch }) {
        const bad = [['MCP-Protocol-Version 2025-11-25 with a 2026-07-28 body', versionMismatch], ['Mcp-Method tools/list on a server/discover body', methodMismatch]]
          .filter(([, ex]) => !(ex && (ex as Exchange).http?.status === 400 && errorCode(ex as Exchange) === -32020)) as [string, Exchange][];
        if (bad.length) return violated(bad.map(([n, ex]) => `${n}: ${outcome(ex)}`).join('; '), bad.map(([n, ex]) => evidence(n, ex, { expected: 'HTTP 400, error -32020' })));
        return holds('both mismatches got 400 and -32020');
      },
    }),
    check<HttpObs>({
      id: 'http.unknown-method-404',
      title: 'an unknown method gets HTTP 404 with -32601 in the body',
      requirements: ['HM-07'],
      level: 'MUST',
      versions: MODERN,
      transports: HTTP,
      spec: SPEC.http26,
      judge({ unknownMethod }) {
        if (unknownMethod.http?.status === 404 && errorCode(unknownMethod) === -32601) return holds('404 with -32601');
        return violated(`mcpspec/no-such-method got ${outcome(unknownMethod)}`, [evidence('unknown method', unknownMethod, { expected: 'HTTP 404, error -32601' })]);
      },
    }),
  ],
});
