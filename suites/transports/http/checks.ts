// http.*: the Streamable HTTP transport (H26 modern shape, TR25 legacy shape).

import { decodeHeaderValue } from '../../../protocol/http-headers.js';
import { META_PROTOCOL_VERSION } from '../../../protocol/meta.js';
import { SPEC } from '../../../protocol/spec-links.js';
import { ALL_VERSIONS, LEGACY, MODERN } from '../../../protocol/versions.js';
import { check, holds, oracle, skip, untestable, violated } from '../../kit/check.js';
import { clipJson, errorCode, errorOf, evidence, isObj, outcome, unanswerable } from '../../kit/exchange.js';
import { every, firstOffenders } from '../../kit/judge.js';
import type { Exchange } from '../../ports/session.js';
import { namesVersion, sentHeaders, sentRequest } from '../../kit/request-shape.js';
import { CONCURRENT_REQUESTS, httpScenario, STALE_EVENT_ID, STALE_SESSION_ID } from './scenario.js';
import { paramHeadersScenario } from './param-headers-scenario.js';
import { casedMethod, otherMethod, OTHER_NAME, standardHeadersScenario, type StandardHeadersObs } from './standard-headers-scenario.js';
import { REBINDING_HOST, rebindingScenario, type RebindingObs } from './rebinding-scenario.js';
import type { PlainHttpResponse } from '../../ports/plain-http.js';
import type { Evidence } from '../../../results/verdict.js';
import { isResponse, responseId, type RequestId } from '../../../protocol/jsonrpc.js';
import { gated, type Precondition } from '../../kit/judge.js';

const HTTP = { transports: ['http' as const] };
const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** Which mirror headers of a sent request disagree with its body (HM-06, HM-08), after sentinel decoding (HM-09). */
function headerMismatches(ex: Exchange, headers: Record<string, string>): string[] {
  const req = sentRequest(ex);
  if (!req) return [];
  const out: string[] = [];
  const meta = req.params?._meta;
  const bodyVersion = isObj(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  // HTTP drops optional whitespace around a field value (RFC 9110 5.5): a value sent with it is the same value.
  const ows = (v: string | undefined) => v?.replace(/^[ \t]+|[ \t]+$/g, '');
  const hv = ows(headers['mcp-protocol-version']);
  if (typeof bodyVersion === 'string' && hv !== undefined && hv !== bodyVersion) out.push(`MCP-Protocol-Version ${hv} with ${bodyVersion} in _meta`);
  const hm = ows(headers['mcp-method']);
  if (hm !== undefined && decodeHeaderValue(hm) !== req.method) out.push(`Mcp-Method ${hm} on a ${req.method} body`);
  const field = NAME_FIELD[req.method];
  const hn = ows(headers['mcp-name']);
  const bodyName = field ? req.params?.[field] : undefined;
  if (field && hn !== undefined && typeof bodyName === 'string' && decodeHeaderValue(hn) !== bodyName) out.push(`Mcp-Name ${hn} with ${field} ${bodyName}`);
  return out;
}

/** What a plain HTTP request came to, when it got no status. */
function plainOutcome(r: PlainHttpResponse): string {
  if (r.aborted) return 'not answered before the run ended';
  if (r.timedOut) return `not answered within the timeout (${Math.round(r.elapsedMs)} ms)`;
  return `not answered: ${r.error ?? 'no status'}`;
}

function plainEvidence(what: string, r: PlainHttpResponse, expected: string): Evidence {
  const e: Evidence = { what: `${what}: ${r.method} ${r.url}`, seq: r.seq, expected };
  if (r.status !== undefined) e.http = { status: r.status, contentType: r.headers['content-type'], body: r.body.slice(0, 400) };
  return e;
}

/** The first request without Origin was served: otherwise nothing tells an Origin refusal from any other. */
const plainServed: Precondition<RebindingObs> = ({ plain }) => {
  if (plain.status === undefined) return untestable(`the first request without Origin was ${plainOutcome(plain)}`);
  if (plain.status >= 300) return untestable(`the first request without Origin got HTTP ${plain.status} (authorization required? give --header): no served request to compare with`);
  return undefined;
};

/** Every attempt of each request: a re-issued request's first attempt (its stream broke) before it. */
function attempts(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.flatMap((ex) => {
    const chain: Exchange[] = [];
    for (let e: Exchange | undefined = ex; e; e = e.reissueOf) chain.unshift(e);
    return chain;
  });
}

/** The ids (as JSON) of the requests mcpspec cancelled: their streams may end before a response. */
function cancelledIds(events: readonly { dir: string; message?: unknown }[]): Set<string> {
  return new Set(events.flatMap((e) => (e.dir === 'out' && isObj(e.message) && e.message.method === 'notifications/cancelled' && isObj(e.message.params) ? [JSON.stringify(e.message.params.requestId)] : [])));
}

/** How a stream resumed with Last-Event-ID went, for messages. */
function resumeOutcome(r: NonNullable<NonNullable<Exchange['http']>['resumed']>[number]): string {
  if (r.answered) return 'the response came';
  if (r.status === undefined) return 'no GET sent';
  if (r.refused) return `the GET with Last-Event-ID got HTTP ${r.status}${r.status === 200 ? ' without an SSE stream' : ''}`;
  return 'the resumed stream ended without the response';
}

/**
 * The ids of responses to other requests an answer carried (on its body or stream), but not those a
 * resumed stream replayed (http.resume-own-stream judges those); an id of another type only is not another request's.
 */
function crossedIds(ex: Exchange): RequestId[] {
  const replayed = new Set((ex.http?.resumed ?? []).flatMap((r) => r.foreignIds ?? []).map(String));
  return ex.messages.filter(isResponse).flatMap((m) => {
    const id = responseId(m);
    return id !== undefined && String(id) !== String(ex.id) && !replayed.has(String(id)) ? [id] : [];
  });
}

/** The methods of some answers, each once, for messages. */
function methodsOf(answers: readonly Exchange[]): string {
  return [...new Set(answers.map((ex) => ex.method ?? 'request'))].join(', ');
}

/** Refused as a header validation failure must be (HM-08): HTTP 400 with -32020. */
const headerRefused = (ex: Exchange) => ex.http?.status === 400 && errorCode(ex) === -32020;

/** The list request as mcpspec sends it was answered with a result: otherwise no refusal tells anything. */
const plainListServed: Precondition<StandardHeadersObs> = ({ plain, listMethod }) => {
  if (unanswerable(plain)) return untestable(`the run ended before ${listMethod} was answered`);
  if (!plain.response || errorCode(plain) !== undefined) return untestable(`${listMethod} with the standard headers as a client sends them got ${outcome(plain)}: nothing to compare the probes with`);
  return undefined;
};

type HeaderProbe = [what: string, ex: Exchange | undefined];

/** Probes that must each be refused with 400 and -32020; `untested` names what could not be probed. */
function judgeRefusals(probes: HeaderProbe[], untested: string | undefined, summary: string) {
  const sent = probes.filter((p): p is [string, Exchange] => p[1] !== undefined);
  if (sent.some(([, ex]) => unanswerable(ex))) return untestable('the run ended before the answers came');
  const bad = sent.filter(([, ex]) => !headerRefused(ex));
  if (bad.length) {
    return violated(bad.map(([what, ex]) => `${what}: ${outcome(ex)}`).join('; '), firstOffenders(bad).map(([what, ex]) => evidence(what, ex, { expected: 'HTTP 400, error -32020' })));
  }
  return holds(`${summary}: each refused with 400 and -32020${untested ? ` (not probed: ${untested})` : ''}`);
}

/** Whether a probe was served as the request without the twist was: a result for a result, the same error code for an error. */
function servedAlike(ex: Exchange, base: Exchange): boolean {
  if (!ex.response) return false;
  return errorCode(base) === undefined ? errorCode(ex) === undefined : errorCode(ex) === errorCode(base);
}

/** The probes served as the usual form of the same request was; the named one only when its usual form was answered. */
function judgeServedAlike(o: StandardHeadersObs, twist: string, list: HeaderProbe, named: HeaderProbe | undefined) {
  const probes: [string, Exchange, Exchange][] = [[list[0], list[1]!, o.plain]];
  let untested = o.whyNoNamed;
  if (named && o.named && o.namedPlain) {
    if (o.namedPlain.response) probes.push([named[0], named[1]!, o.namedPlain]);
    else untested = `${o.named.method} ${o.named.name} as a client sends it got ${outcome(o.namedPlain)}`;
  }
  if (probes.some(([, ex]) => unanswerable(ex))) return untestable('the run ended before the answers came');
  const bad = probes.filter(([, ex, base]) => !servedAlike(ex, base));
  if (bad.length) {
    return violated(bad.map(([what, ex, base]) => `${what}: ${outcome(ex)}, while the usual form got ${outcome(base)}`).join('; '),
      firstOffenders(bad).map(([what, ex, base]) => evidence(what, ex, { expected: `served as the usual form was (${outcome(base)})` })));
  }
  return holds(`${probes.length} request(s) with ${twist}, each served as usual${untested ? ` (not probed on a named request: ${untested})` : ''}`);
}

export const httpChecks = [
  check(httpScenario, {
    id: 'http.origin',
    title: 'a request with a foreign Origin is refused with 403 (2025-06-18: any 4xx)',
    requirements: ['HM-13'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ foreignOrigin }, ctx) {
      if (unanswerable(foreignOrigin)) return untestable('the run ended before the answer came');
      if (foreignOrigin.http?.status === 403) return holds('403');
      // 2025-06-18 requires validating Origin but names no status; any refusal counts there.
      const status = foreignOrigin.http?.status ?? 0;
      if (ctx.version === '2025-06-18' && status >= 400 && status < 500) return holds(`refused with HTTP ${status}`);
      return violated(`Origin: https://evil.example got ${outcome(foreignOrigin)}`, [evidence('foreign Origin', foreignOrigin, { expected: 'HTTP 403' })]);
    },
  }),
  check(rebindingScenario, {
    id: 'http.origin-rebinding',
    title: 'DNS rebinding: a request whose Host and Origin both name a hostile site is refused with 403 (2025-06-18: any 4xx); comparing Origin with Host is no Origin check',
    requirements: ['HM-13'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: HTTP,
    spec: SPEC.http26,
    judge: gated([plainServed], ({ rebinding }, ctx) => {
      const r = rebinding!;
      if (r.status === undefined) return untestable(`the rebinding request was ${plainOutcome(r)}`);
      const ev = [plainEvidence(`Host: ${REBINDING_HOST}, Origin: http://${REBINDING_HOST}`, r, 'HTTP 403')];
      if (r.status === 403) return holds('403', ev);
      if (ctx.version === '2025-06-18' && r.status >= 400 && r.status < 500) return holds(`refused with HTTP ${r.status}`, ev);
      if (r.status < 300) return violated(`a request with Host and Origin both ${REBINDING_HOST} was served (HTTP ${r.status}): an Origin that matches the Host is still foreign, the very request DNS rebinding makes`, ev);
      return violated(`a request with Host and Origin both ${REBINDING_HOST} got HTTP ${r.status}, not 403`, ev);
    }),
  }),
  check(rebindingScenario, {
    id: 'http.origin-same',
    title: 'a request whose Origin is the server\'s own origin (a browser client of the same origin) is served like one without Origin',
    requirements: ['HM-13'],
    // The spec refuses invalid Origins (MUST 403); refusing a valid one breaks browser clients without breaking that sentence.
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: HTTP,
    spec: SPEC.http26,
    judge: gated([plainServed], ({ sameOrigin, origin }) => {
      const r = sameOrigin!;
      if (r.status === undefined) return untestable(`the request from the server's own origin was ${plainOutcome(r)}`);
      const ev = [plainEvidence(`Origin: ${origin}`, r, 'served, as without Origin')];
      if (r.status < 300) return holds(`Origin: ${origin} served (HTTP ${r.status})`, ev);
      return violated(`a request from the server's own origin (Origin: ${origin}) got HTTP ${r.status}, while the same request without Origin was served`, ev);
    }),
  }),
  check(httpScenario, {
    id: 'http.notification-202',
    title: 'an accepted notification gets 202 with an empty body',
    requirements: ['HM-02', 'HL-02'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ notification }) {
      const h = notification.http;
      if (!h && (notification.timedOut || notification.aborted)) return untestable('the notification POST got no HTTP response in time');
      if (h?.status === 202 && h.body.trim() === '') return holds('202, empty body');
      if (h && h.status >= 400) return untestable(`the server refused notifications/cancelled with HTTP ${h.status}; a refused notification may get an error status`);
      return violated(`notifications/cancelled got HTTP ${h?.status ?? 'nothing'}${h?.body ? ` with body ${h.body.slice(0, 80)}` : ''}`, [evidence('notification', notification, { expected: 'HTTP 202, empty body' })]);
    },
  }),
  check(httpScenario, {
    id: 'http.malformed-body',
    title: 'an unparseable body gets a 4xx with a JSON-RPC -32700 body, not an HTML page',
    requirements: ['JR-06', 'HM-02'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ malformed }) {
      const h = malformed.http;
      if (!h && (malformed.timedOut || malformed.aborted)) return untestable('the malformed POST got no HTTP response in time');
      const problems: string[] = [];
      if (!h || h.status < 400 || h.status > 499) problems.push(`HTTP ${h?.status ?? 'nothing'}`);
      if (!h?.contentType?.includes('json')) problems.push(`content type ${h?.contentType ?? 'none'}`);
      if (errorCode(malformed) !== -32700) problems.push(`body ${isObj(malformed.response) ? `error ${String(errorCode(malformed))}` : 'not a JSON-RPC error'}`);
      if (problems.length) return violated(`a truncated JSON body got ${problems.join(', ')}`, [evidence('malformed body', malformed, { expected: 'HTTP 4xx, application/json, error -32700' })]);
      return holds(`HTTP ${h!.status}, -32700`);
    },
  }),
  check(httpScenario, {
    id: 'http.unknown-session',
    title: 'after the session is ended with DELETE, a request carrying its Mcp-Session-Id gets 404',
    requirements: ['HL-07'],
    level: 'MUST',
    versions: LEGACY,
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ usesSessions, deleted, unknownSession }) {
      if (!usesSessions) return untestable('the server issued no Mcp-Session-Id, so it does not use sessions');
      // A DELETE that did not end the session (405: not allowed; 404: no such route) leaves nothing to test.
      if (!unknownSession) return untestable(`the session was not ended (DELETE got ${deleted?.http ? `HTTP ${deleted.http.status}` : 'no answer'}), so there is no ended session to test`);
      if (unanswerable(unknownSession)) return untestable('the run ended before the answer came');
      if (unknownSession.http?.status === 404) return holds('404 after DELETE');
      return violated(`a request with the ended session's id got ${outcome(unknownSession)}`, [evidence('DELETE', deleted), evidence('request with the ended session id', unknownSession, { expected: 'HTTP 404' })]);
    },
  }),
  check(httpScenario, {
    id: 'http.get-stream',
    title: 'a GET asking for text/event-stream opens an SSE stream or gets 405 Method Not Allowed',
    requirements: ['HL-05'],
    level: 'MUST',
    versions: LEGACY,
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ getStream }) {
      if (!getStream) return untestable('no GET was sent');
      if (unanswerable(getStream) || !getStream.http) return untestable(`the GET got no response headers: ${outcome(getStream)}`);
      const { status, contentType } = getStream.http;
      if (status === 405) return holds('405: the server offers no standalone stream');
      const sse = contentType?.toLowerCase().startsWith('text/event-stream') ?? false;
      if (status >= 200 && status < 300 && sse) return holds(`HTTP ${status}, an SSE stream`);
      return violated(`a GET with Accept: text/event-stream got HTTP ${status}${contentType ? ` (${contentType})` : ''}: neither an SSE stream nor 405`, [
        evidence('GET', getStream, { request: 'GET with Accept: text/event-stream', expected: 'an SSE stream (text/event-stream) or HTTP 405' }),
      ]);
    },
  }),
  oracle({
    id: 'http.get-stream-no-response',
    title: 'legacy: the standalone GET stream carries requests and notifications only, never a JSON-RPC response (only a stream resumed with Last-Event-ID replays answers)',
    requirements: ['HL-05'],
    level: 'MUST',
    versions: LEGACY,
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ events }) {
      // What the session's standalone stream carried (a resumed stream's events are recorded apart).
      return every(events.filter((e) => e.dir === 'in' && e.kind === 'message' && e.data?.stream === 'get' && isObj(e.message)), {
        none: 'nothing came on a standalone GET stream (none was offered, or the server sent nothing on it)',
        offends: (e) => !('method' in (e.message as Record<string, unknown>)),
        violated: (responses, onGet) => `${responses.length} of the ${onGet.length} messages on the standalone GET stream are responses`,
        evidence: (e) => ({ what: 'a response on the standalone GET stream', actual: clipJson(e.message, 400), expected: 'requests and notifications only', seq: [e.seq] }),
        holds: (onGet) => `${onGet.length} message(s) on the standalone GET stream, each a request or a notification`,
      });
    },
  }),
  check(httpScenario, {
    id: 'http.modern-only-legacy-traffic',
    title: 'a server that speaks only 2026-07-28 answers GET and DELETE with 405 and ignores Mcp-Session-Id (never minting or echoing one) and Last-Event-ID',
    requirements: ['HM-14'],
    level: 'SHOULD',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ supportedVersions, legacyTraffic }, ctx) {
      if (!legacyTraffic) {
        if (!supportedVersions?.length) return untestable('server/discover listed no versions, so whether the server speaks only 2026-07-28 is unknown');
        return skip(`the server also speaks ${supportedVersions.filter((v) => v < ctx.version).join(', ')}: 2025-era GET, DELETE and sessions are its to serve`);
      }
      const { get, del, withSessionId } = legacyTraffic;
      const all = [get, del, withSessionId];
      if (all.some((ex) => unanswerable(ex) || !ex.http)) return untestable(`not every 2025-era request got an HTTP answer (GET: ${outcome(get)}; DELETE: ${outcome(del)}; request with Mcp-Session-Id: ${outcome(withSessionId)})`);
      const problems: [string, Exchange, unknown][] = [];
      if (get.http!.status !== 405) problems.push([`GET got HTTP ${get.http!.status}`, get, 'HTTP 405']);
      if (del.http!.status !== 405) problems.push([`DELETE got HTTP ${del.http!.status}`, del, 'HTTP 405']);
      if (errorCode(withSessionId) !== undefined || withSessionId.response === undefined) problems.push([`a request carrying an unknown Mcp-Session-Id and Last-Event-ID got ${outcome(withSessionId)}`, withSessionId, 'served as if the header were absent']);
      for (const ex of all) {
        const sid = ex.http!.headers['mcp-session-id'];
        if (sid !== undefined) problems.push([`${ex.http!.status} answer to ${ex === get ? 'GET' : ex === del ? 'DELETE' : ex.method} carries Mcp-Session-Id ${sid}`, ex, 'no Mcp-Session-Id header']);
      }
      const sent = (ex: Exchange) => (ex === get ? `GET with Mcp-Session-Id ${STALE_SESSION_ID}` : ex === del ? `DELETE with Mcp-Session-Id ${STALE_SESSION_ID}` : { headers: { 'Mcp-Session-Id': STALE_SESSION_ID, 'Last-Event-ID': STALE_EVENT_ID }, body: ex.request });
      if (problems.length) return violated(problems.map(([p]) => p).join('; '), problems.map(([what, ex, expected]) => evidence(what, ex, { request: sent(ex), expected })));
      return holds('GET and DELETE got 405; a request carrying a stale Mcp-Session-Id and Last-Event-ID was served, and no answer carried a session id');
    },
  }),
  oracle({
    id: 'http.session-id-visible',
    title: 'every Mcp-Session-Id the server hands out is visible ASCII only (0x21 to 0x7E: no space, no control or non-ASCII character)',
    requirements: ['HL-07'],
    level: 'MUST',
    versions: LEGACY,
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ exchanges }) {
      const sessionId = (ex: Exchange) => ex.http!.headers['mcp-session-id'];
      return every(exchanges.filter((ex) => ex.http?.headers['mcp-session-id'] !== undefined), {
        none: 'the server issued no Mcp-Session-Id',
        offends: (ex) => !/^[\x21-\x7e]+$/.test(sessionId(ex)!),
        violated: (bad, issued) => `${bad.length} of ${issued.length} answers carry an Mcp-Session-Id with characters outside visible ASCII; first: ${JSON.stringify(sessionId(bad[0]))}`,
        evidence: (ex) => evidence(`Mcp-Session-Id on the answer to ${ex.method ?? 'a request'}`, ex, { expected: 'visible ASCII only (0x21-0x7E)', actual: sessionId(ex) }),
        holds: (issued) => `${new Set(issued.map(sessionId)).size} session id(s) on ${issued.length} answers, each visible ASCII`,
      });
    },
  }),
  oracle({
    id: 'http.modern-no-session-id',
    title: 'no answer to a 2026-07-28 request carries an Mcp-Session-Id header (the version has no sessions: none is minted or echoed)',
    requirements: ['HM-14'],
    level: 'SHOULD',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ exchanges }) {
      // A dual-era server's legacy sessions (opened to probe versions) may have ids: their requests name no version.
      return every(exchanges.filter((ex) => ex.http && namesVersion(ex.request)), {
        none: 'no 2026-07-28 request got an HTTP answer',
        offends: (ex) => ex.http!.headers['mcp-session-id'] !== undefined,
        violated: (bad, answered) => `${bad.length} of ${answered.length} answers to 2026-07-28 requests carry Mcp-Session-Id; first: ${bad[0].method ?? 'a request'} (${bad[0].http!.headers['mcp-session-id']})`,
        evidence: (ex) => evidence(`the answer to ${ex.method ?? 'a request'} carries Mcp-Session-Id`, ex, { expected: 'no Mcp-Session-Id header', actual: ex.http!.headers['mcp-session-id'] }),
        holds: (answered) => `${answered.length} answers to 2026-07-28 requests, none with Mcp-Session-Id`,
      });
    },
  }),
  oracle({
    id: 'http.header-mismatch',
    title: 'every request whose MCP-Protocol-Version, Mcp-Method or Mcp-Name header disagrees with its body gets 400 and -32020',
    requirements: ['HM-06', 'HM-08'],
    level: 'MUST',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ exchanges, events }) {
      const mismatched: [Exchange, string[]][] = [];
      for (const ex of exchanges) {
        if (!ex.http || unanswerable(ex)) continue;
        const headers = sentHeaders(ex, events);
        const m = headers ? headerMismatches(ex, headers) : [];
        if (m.length) mismatched.push([ex, m]);
      }
      return every(mismatched, {
        none: 'no request of the run had headers that disagree with its body',
        offends: ([ex]) => !(ex.http?.status === 400 && errorCode(ex) === -32020),
        violated: (bad) => bad.map(([ex, m]) => `${m.join(', ')}: ${outcome(ex)}`).join('; '),
        evidence: ([ex, m]) => evidence(m.join(', '), ex, { expected: 'HTTP 400, error -32020' }),
        holds: () => `${mismatched.length} requests with mismatched headers got 400 and -32020`,
      });
    },
  }),
  oracle({
    id: 'http.event-ids-unique',
    title: 'SSE event ids, where a server uses them, are unique across all streams of a session (of the client, without sessions)',
    requirements: ['HL-06'],
    level: 'MUST',
    versions: LEGACY,
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ exchanges, events }) {
      const streams = exchanges.filter((ex) => ex.http?.eventIds?.length);
      if (streams.length === 0) return untestable('no SSE event carried an id');
      const seen = new Map<string, Exchange>();
      const repeats: { id: string; first: Exchange; again: Exchange }[] = [];
      for (const ex of streams) {
        const session = sentHeaders(ex, events)?.['mcp-session-id'] ?? '';
        for (const id of ex.http!.eventIds!) {
          const key = `${session}\n${id}`;
          const first = seen.get(key);
          if (first) repeats.push({ id, first, again: ex });
          else seen.set(key, ex);
        }
      }
      if (repeats.length) {
        const r = repeats[0];
        return violated(`${repeats.length} SSE event id(s) repeated within a session; first: ${JSON.stringify(r.id)} on the answers to ${r.first.method ?? 'a request'} and ${r.again.method ?? 'a request'}`,
          firstOffenders(repeats).map((x) => evidence(`event id ${JSON.stringify(x.id)} again`, x.again, { expected: 'an id not used before in this session', actual: { id: x.id, firstOn: clipJson(x.first.request, 300) } })));
      }
      return holds(`${seen.size} SSE event ids on ${streams.length} answers, none repeated within a session`);
    },
  }),
  oracle({
    id: 'http.sse-priming',
    title: 'an SSE answer starts with a priming event (an event id and empty data), so a client can resume it',
    requirements: ['HL-04'],
    level: 'SHOULD',
    versions: ['2025-11-25'],
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ exchanges }) {
      // Not initialize's: the version that asks for priming is agreed only by its answer.
      return every(exchanges.filter((ex) => ex.http?.ssePrimed !== undefined && ex.method !== 'initialize'), {
        none: 'no answer after initialize came as an SSE stream with an event',
        offends: (ex) => !ex.http!.ssePrimed,
        violated: (bad, streams) => `${bad.length} of ${streams.length} SSE answers do not start with a priming event (${methodsOf(bad)}); a client whose connection drops has no event id to resume from`,
        evidence: (ex) => evidence(`SSE answer to ${ex.method ?? 'a request'}`, ex, { expected: 'a first event with an id and empty data', actual: ex.http!.eventIds?.length ? `event ids ${ex.http!.eventIds.slice(0, 3).join(', ')}, the first event carrying data` : 'no event id on the stream' }),
        holds: (streams) => `${streams.length} SSE answers, each primed with an event id`,
      });
    },
  }),
  oracle({
    id: 'http.sse-retry',
    title: 'a server that closes an SSE answer before its response names a retry delay first, so the client knows when to resume',
    requirements: ['HL-04'],
    level: 'SHOULD',
    versions: ['2025-11-25'],
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ exchanges, events }) {
      // A request mcpspec cancelled gets no response: its stream ending early is not polling.
      const cancelled = cancelledIds(events);
      const closed = exchanges.filter((ex) => !cancelled.has(JSON.stringify(ex.id))).flatMap((ex) => (ex.http?.resumed ?? []).map((r) => ({ ex, ...r })));
      return every(closed, {
        none: 'the server closed no SSE answer before its response (it did not poll)',
        offends: (c) => c.retryMs === undefined,
        violated: (bare) => `${bare.length} of ${closed.length} SSE answers closed before their response named no retry delay (${methodsOf(bare.map((c) => c.ex))}); a client has to guess when to resume`,
        evidence: (c) => evidence(`SSE answer to ${c.ex.method ?? 'a request'}, closed after event ${JSON.stringify(c.afterEventId)}`, c.ex, { expected: 'a retry field before the connection closes', actual: 'no retry field on the stream' }),
        holds: () => `${closed.length} SSE answers closed before their response, each after naming a retry delay (${[...new Set(closed.map((c) => c.retryMs))].join(', ')} ms)`,
      });
    },
  }),
  oracle({
    id: 'http.resume-own-stream',
    title: 'a stream resumed with Last-Event-ID replays only that stream\'s messages: no response to another request',
    requirements: ['HL-06'],
    level: 'MUST',
    versions: LEGACY,
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ exchanges }) {
      const foreign = (ex: Exchange) => ex.http!.resumed!.flatMap((r) => r.foreignIds ?? []);
      return every(exchanges.filter((ex) => ex.http?.resumed?.length), {
        none: 'no SSE answer had to be resumed (the server closed none before its response)',
        offends: (ex) => ex.http!.resumed!.some((r) => r.foreignIds?.length),
        violated: (mixed, resumed) => `${mixed.length} of ${resumed.length} resumed streams replayed responses to other requests (ids ${mixed.flatMap(foreign).slice(0, 5).map((id) => JSON.stringify(id)).join(', ')})`,
        evidence: (ex) => evidence(`stream of ${ex.method ?? 'a request'} resumed after event ${ex.http!.resumed![0].afterEventId}`, ex, { expected: `only messages of the stream of request ${JSON.stringify(ex.id)}`, actual: `responses to ${foreign(ex).map((id) => JSON.stringify(id)).join(', ')}` }),
        holds: (resumed) => `${resumed.length} resumed streams, each replaying only its own request's messages`,
      });
    },
  }),
  oracle({
    id: 'http.resume-delivers',
    title: 'an SSE answer the server closed before its response delivers that response on the stream the client resumes with GET and Last-Event-ID',
    // "The SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC request sent in the POST body":
    // a server that closes the connection (not the stream) keeps the stream going on the client's resumption (HL-04).
    requirements: ['HL-04'],
    level: 'SHOULD',
    // Polling (closing the connection, not the stream, SEP-1699) is 2025-11-25's; 2026-07-28 streams are not resumable.
    versions: ['2025-11-25'],
    requires: HTTP,
    spec: SPEC.transports25,
    judge({ exchanges, events }) {
      const cancelled = cancelledIds(events);
      const polled = attempts(exchanges).filter((ex) => ex.http?.resumed?.length && !cancelled.has(JSON.stringify(ex.id)));
      const last = (ex: Exchange) => ex.http!.resumed![ex.http!.resumed!.length - 1];
      // Judged: a stream that delivered, or one the server would not resume (its GET refused). Not: one still
      // awaited when the run ended or the timeout passed (never time alone), nor one mcpspec stopped resuming
      // while the server still served it (it resumes a stream a bounded number of times).
      const judged = polled.filter((ex) => !ex.aborted && !ex.closed && (ex.http!.resumed!.some((r) => r.answered) || (!ex.timedOut && last(ex).refused)));
      if (polled.length && !judged.length) return untestable(`${polled.length} SSE answers closed before their response were resumed, none delivered or refused before the timeout or before mcpspec stopped resuming`);
      return every(judged, {
        none: 'the server closed no SSE answer before its response (it did not poll)',
        offends: (ex) => !ex.http!.resumed!.some((r) => r.answered),
        violated: (lost, all) => `${lost.length} of ${all.length} SSE answers closed before their response never delivered it after mcpspec resumed them with Last-Event-ID (${methodsOf(lost)}; ${resumeOutcome(last(lost[0]))}); the request is lost`,
        evidence: (ex) => evidence(`SSE answer to ${ex.method ?? 'a request'}, closed after event ${JSON.stringify(ex.http!.resumed![0].afterEventId)}, resumed ${ex.http!.resumed!.length} time(s)`, ex, { expected: `the response to request ${JSON.stringify(ex.id)} on the resumed stream`, actual: resumeOutcome(last(ex)) }),
        holds: (all) => `${all.length} SSE answers closed before their response, each delivered it on the stream resumed with Last-Event-ID`,
      });
    },
  }),
  oracle({
    id: 'http.sse-ends-after-response',
    title: 'an SSE answer ends its stream once the response is sent',
    requirements: ['HL-04', 'HM-04'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ exchanges }) {
      return every(exchanges.filter((ex) => ex.http?.sseAfterAnswer !== undefined), {
        none: 'no answer came as an SSE stream that was read past its response',
        offends: (ex) => ex.http!.sseAfterAnswer === 'open',
        violated: (open, streams) => `${open.length} of ${streams.length} SSE answers kept their stream open for a whole request timeout after the response (${methodsOf(open)}); every such stream holds a connection`,
        evidence: (ex) => evidence(`SSE answer to ${ex.method ?? 'a request'}`, ex, { expected: 'the stream ends after the response', actual: `still open ${ex.timeoutMs} ms after the response` }),
        holds: (streams) => `${streams.length} SSE answers, each stream ended after its response`,
      });
    },
  }),
  oracle({
    id: 'http.response-content-type',
    title: 'every HTTP answer that carries a JSON-RPC response (a result, or an error with any status) says Content-Type application/json or text/event-stream',
    // A client picks its parser from the media type (HL-03, HM-03); a JSON body labelled text/plain is one a
    // strict client drops, even though mcpspec itself reads it.
    requirements: ['HL-03', 'HM-03'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ exchanges }) {
      // Error answers too (a 400 with -32602, a 404 with -32601): their body is read by the same parser.
      const media = (ex: Exchange) => (ex.http!.contentType ?? '').split(';')[0].trim().toLowerCase();
      return every(exchanges.filter((ex) => ex.http !== undefined && ex.response !== undefined), {
        none: 'no request was answered over HTTP with a JSON-RPC response',
        offends: (ex) => media(ex) !== 'application/json' && media(ex) !== 'text/event-stream',
        violated: (bad, answers) => `${bad.length} of ${answers.length} answers carry their JSON-RPC response as ${[...new Set(bad.map((ex) => ex.http!.contentType ?? '(none)'))].join(', ')}`,
        evidence: (ex) => evidence(`HTTP ${ex.http!.status} answer to ${ex.method ?? 'a request'}`, ex, { expected: 'Content-Type: application/json or text/event-stream', actual: `Content-Type: ${ex.http!.contentType ?? '(none)'}` }),
        holds: (answers) => `${answers.length} answers, each application/json or text/event-stream`,
      });
    },
  }),
  oracle({
    id: 'http.sse-unbuffered',
    title: 'every SSE response stream carries X-Accel-Buffering: no, so proxies pass its events on at once',
    requirements: ['HM-04'],
    level: 'SHOULD',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ exchanges }) {
      return every(exchanges.filter((ex) => ex.http?.contentType?.toLowerCase().startsWith('text/event-stream')), {
        none: 'no answer came as an SSE stream',
        offends: (ex) => ex.http!.headers['x-accel-buffering']?.trim().toLowerCase() !== 'no',
        violated: (bad, streams) => `${bad.length} of ${streams.length} SSE responses lack X-Accel-Buffering: no (${methodsOf(bad)}); behind nginx and similar proxies their events can be held back`,
        evidence: (ex) => evidence(`SSE answer to ${ex.method ?? 'a request'}`, ex, { expected: 'X-Accel-Buffering: no', actual: `X-Accel-Buffering: ${ex.http!.headers['x-accel-buffering'] ?? '(absent)'}` }),
        holds: (streams) => `${streams.length} SSE responses, each with X-Accel-Buffering: no`,
      });
    },
  }),
  check(httpScenario, {
    id: 'http.concurrent-requests',
    title: `harmless requests posted at once (${CONCURRENT_REQUESTS}, each on its own POST) are each served with their own result on their own answer: none crossed onto another's body or stream, none lost or refused`,
    // Each request's answer is one JSON object or an SSE stream scoped to that request (HL-03, HM-03); each
    // server message goes on one stream only (HL-06); every request gets its response (JR-04).
    requirements: ['HL-03', 'HM-03', 'HL-06', 'JR-04'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ alone, concurrent }) {
      // Every attempt: a request whose stream broke was sent again, and its first answer counts as well.
      const sent = attempts(concurrent ?? []);
      // A refusal counts only when the same request alone was served: otherwise it is not about the others in flight.
      const servedAlone = alone?.response !== undefined && !errorOf(alone) && (alone.http?.status ?? 0) < 300;
      // Never time alone: an answer still awaited when the run ended or the timeout passed is not judged.
      const judged = sent.filter((ex) => ex.http !== undefined && !ex.aborted && !ex.closed && !(ex.timedOut && !ex.response));
      if (judged.length < 2) return untestable(`fewer than two of the ${sent.length} requests posted at once were answered before the run ended or the timeout passed`);
      const problem = (ex: Exchange): string | undefined => {
        const crossed = crossedIds(ex);
        if (crossed.length) return `its answer carried the response to ${crossed.map((id) => JSON.stringify(id)).join(', ')}${ex.response ? '' : ', not its own'}`;
        if (!ex.response) return `no response of its own came (${outcome(ex)})`;
        if (servedAlone && (errorOf(ex) || ex.http!.status >= 300)) return `refused while others were in flight, served alone: ${outcome(ex)}`;
        return undefined;
      };
      return every(judged, {
        none: 'no request was posted',
        offends: (ex) => problem(ex) !== undefined,
        violated: (bad, all) => `${bad.length} of ${all.length} ${methodsOf(all)} requests posted at once did not get their own response on their own answer; first: request ${JSON.stringify(bad[0].id)}: ${problem(bad[0])}`,
        evidence: (ex) => evidence(`${ex.method ?? 'request'} ${JSON.stringify(ex.id)}, posted with ${CONCURRENT_REQUESTS - 1} others`, ex, { expected: `the response to request ${JSON.stringify(ex.id)} on this request's own answer, and no other`, actual: problem(ex) }),
        holds: (all) => `${all.length} ${methodsOf(all)} requests posted at once, each answered with its own response on its own ${[...new Set(all.map((ex) => (ex.http!.contentType?.toLowerCase().startsWith('text/event-stream') ? 'SSE stream' : 'JSON body')))].join(' or ')}`,
      });
    },
  }),
  check(httpScenario, {
    id: 'http.unknown-method-404',
    title: 'an unknown method gets HTTP 404 with -32601 in the body',
    requirements: ['HM-07'],
    level: 'MUST',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge({ unknownMethod }) {
      if (unanswerable(unknownMethod)) return untestable('the run ended before the answer came');
      if (unknownMethod.http?.status === 404 && errorCode(unknownMethod) === -32601) return holds('404 with -32601');
      return violated(`mcpspec/no-such-method got ${outcome(unknownMethod)}`, [evidence('unknown method', unknownMethod, { expected: 'HTTP 404, error -32601' })]);
    },
  }),
  check(standardHeadersScenario, {
    id: 'http.standard-header-missing',
    title: 'a request without Mcp-Method (a list request), or without Mcp-Name where it needs one (resources/read, prompts/get, tools/call), gets 400 and -32020',
    requirements: ['HM-08'],
    level: 'MUST',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge: gated([plainListServed], ({ listMethod, noMethod, named, noName, whyNoNamed }) => judgeRefusals(
      [[`${listMethod} without Mcp-Method`, noMethod], [`${named?.method} ${named?.name} without Mcp-Name`, noName]],
      whyNoNamed && `a request without Mcp-Name (${whyNoNamed})`,
      named ? `${listMethod} without Mcp-Method, ${named.method} without Mcp-Name` : `${listMethod} without Mcp-Method`,
    )),
  }),
  check(standardHeadersScenario, {
    id: 'http.standard-header-mismatch',
    title: 'a request whose Mcp-Method or Mcp-Name differs from the body, in case only too (Mcp-Method: TOOLS/LIST on tools/list), gets 400 and -32020',
    requirements: ['HM-08', 'HM-09'],
    level: 'MUST',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge: gated([plainListServed], ({ listMethod, methodCase, methodMismatch, named, nameMismatch, whyNoNamed }) => {
      const [cased, other] = [casedMethod(listMethod), otherMethod(listMethod)];
      return judgeRefusals(
        [[`${listMethod} with Mcp-Method: ${cased} (values are case-sensitive)`, methodCase], [`${listMethod} with Mcp-Method: ${other}`, methodMismatch], [`${named?.method} ${named?.name} with Mcp-Name: ${OTHER_NAME}`, nameMismatch]],
        whyNoNamed && `a mismatched Mcp-Name (${whyNoNamed})`,
        `Mcp-Method ${cased} and ${other} on ${listMethod}${named ? `, Mcp-Name ${OTHER_NAME} on ${named.method}` : ''}`,
      );
    }),
  }),
  check(standardHeadersScenario, {
    id: 'http.standard-header-name-case',
    title: 'Mcp-Method and Mcp-Name under header names in other cases (MCP-METHOD, mcp-name, mcp-protocol-version) are served as usual: header names compare case-insensitively',
    requirements: ['HM-09', 'HM-08'],
    level: 'MUST',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge: gated([plainListServed], (o) => judgeServedAlike(o, 'header names in other cases',
      [`${o.listMethod} with header names MCP-METHOD and mcp-protocol-version`, o.namesCased],
      o.named && o.namedCased && [`${o.named.method} ${o.named.name} with header names mcp-method and MCP-NAME`, o.namedCased])),
  }),
  check(standardHeadersScenario, {
    id: 'http.standard-header-ows',
    title: 'Mcp-Method and Mcp-Name with spaces or a tab around the value are served as usual: HTTP drops optional whitespace around a field value (RFC 9110 5.5)',
    requirements: ['HM-08', 'HM-09'],
    level: 'MUST',
    versions: MODERN,
    requires: HTTP,
    spec: SPEC.http26,
    judge: gated([plainListServed], (o) => judgeServedAlike(o, 'spaces around the value',
      [`${o.listMethod} with Mcp-Method: " ${o.listMethod}\\t"`, o.methodOws],
      o.named && o.nameOws && [`${o.named.method} ${o.named.name} with spaces around Mcp-Name`, o.nameOws])),
  }),
  check(paramHeadersScenario, {
    id: 'http.param-headers',
    title: 'an Mcp-Param-* header that is missing, disagrees with the argument or is malformed Base64 gets 400 and -32020; a matching one is accepted, Base64-encoded too',
    requirements: ['HM-11', 'HM-09'],
    level: 'MUST',
    versions: MODERN,
    requires: { ...HTTP, capabilities: ['tools'] },
    spec: SPEC.http26,
    judge({ why, tool, header, value, correct, encoded, mismatched, missing, malformed }) {
      if (why || !correct || !encoded || !mismatched || !missing || !malformed) return untestable(why ?? 'nothing was probed');
      const probes = [correct, encoded, mismatched, missing, malformed];
      if (probes.some(unanswerable)) return untestable('the run ended before the answers came');
      // Whether a matching header is accepted shows only in an answer: silence says nothing about it.
      if (!correct.response || !encoded.response) return untestable(`tools/call ${tool} was not answered within the timeout`);
      const problems: [string, Exchange, string][] = [];
      for (const [what, ex] of [['matching', correct], ['matching, Base64-encoded', encoded]] as const) {
        if (errorCode(ex) === -32020) problems.push([what, ex, 'accepted (any answer but -32020)']);
      }
      for (const [what, ex] of [['disagreeing with the argument', mismatched], ['missing', missing], ['malformed Base64', malformed]] as const) {
        if (!(ex.http?.status === 400 && errorCode(ex) === -32020)) problems.push([what, ex, 'HTTP 400, error -32020']);
      }
      if (problems.length) {
        return violated(
          `tools/call ${tool} (${header} for ${JSON.stringify(value)}): ${problems.map(([what, ex]) => `${header} ${what}: ${outcome(ex)}`).join('; ')}`,
          firstOffenders(problems).map(([what, ex, expected]) => evidence(`${header} ${what}`, ex, { expected })),
        );
      }
      return holds(`tools/call ${tool}: ${header} accepted when it matches (plain and Base64), refused with 400 and -32020 when missing, wrong or malformed`);
    },
  }),
];
