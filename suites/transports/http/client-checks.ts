// client.*, Streamable HTTP: a client under test over HTTP. Its legacy session id and DELETE
// (HL-07, on the plain legacy server of lifecycle/client-scenarios.ts), SSE answers, resumption and
// re-issued requests (client-scenarios.ts beside it), and, over every POST of the run, the Accept,
// MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers (HL-01, HM-01, HM-06, HL-08,
// HM-08..HM-10).

import { encodeHeaderValue, isPlainHeaderValue } from '../../../protocol/http-headers.js';
import { isObj } from '../../../protocol/jsonrpc.js';
import { PARAM_HEADER_PREFIX, paramHeaderDeclarations, paramHeaderText, valueAtPath } from '../../../protocol/param-headers.js';
import { META_PROTOCOL_VERSION } from '../../../protocol/meta.js';
import { SPEC } from '../../../protocol/spec-links.js';
import { ALL_VERSIONS, MODERN } from '../../../protocol/versions.js';
import type { Evidence } from '../../../results/verdict.js';
import type { WireEvent } from '../../../results/wire.js';
import { check, holds, oracle, untestable, violated } from '../../kit/check.js';
import { crashOf, describeExit } from '../../kit/client-exit.js';
import { every, firstOffenders } from '../../kit/judge.js';
import type { RunObservations } from '../../kit/observations.js';
import type { Received } from '../../ports/scripted-server.js';
import type { ClientObs } from '../../client/client-run.js';
import { endedBadly, ev, isRequest, paramsOf, requestsOf, sameId, targetOf, withoutPings, type Msg } from '../../client/client-reading.js';
import { modernMetaOf, SESSION_ID, TOOL, TYPED_TOOL } from '../../client/scripted-server.js';
import { MRTR_METHODS } from '../../input-required/client-scenarios.js';
import { legacyServer } from '../../lifecycle/client-scenarios.js';
import { brokenStreamServer, INVALID_TOOLS, invalidToolsServer, paramTypesServer, pollingServer, sseAnswers, VALID_TOOL } from './client-scenarios.js';

type RunObs = RunObservations;

// ---------------------------------------------------------------- legacy sessions

const sessionId = check(legacyServer, {
  id: 'client.session-id',
  title: 'over HTTP the client echoes the Mcp-Session-Id from the initialize response on every later request',
  requirements: ['HL-07'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.transports25,
  judge(o) {
    const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize' && r.replySeq !== undefined);
    if (!init) return untestable('no legacy session was established (no initialize result)');
    // A later initialize starts a new session (mcp-remote's proxy tests the server with one session, then
    // opens its own): it carries no session id, as HL-07 has a client start a new session.
    const later = o.received.filter((r) => r.seq > init.replySeq! && !(isRequest(r.message) && r.message.method === 'initialize'));
    return every(later, {
      none: 'the client sent nothing after the initialize result',
      offends: (r) => r.headers?.['mcp-session-id'] !== SESSION_ID,
      violated: (bad) => `${bad.length} of ${later.length} later HTTP requests lack Mcp-Session-Id: ${SESSION_ID}`,
      evidence: (r) => ev(`${r.httpMethod ?? 'POST'} without the session id`, r, { expected: SESSION_ID, actual: r.headers?.['mcp-session-id'] ?? '(absent)' }),
      holds: () => `${later.length} later requests, each with the session id`,
    });
  },
});

const sessionDelete = check(legacyServer, {
  id: 'client.session-delete',
  title: 'over HTTP the client ends its session with DELETE (carrying the session id) when it is done',
  requirements: ['HL-07'],
  level: 'SHOULD',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.transports25,
  judge(o) {
    const init = o.received.find((r) => isRequest(r.message) && r.message.method === 'initialize' && r.replySeq !== undefined);
    if (!init) return untestable('no legacy session was established (no initialize result)');
    if (o.exit.timedOut || crashOf(o.exit)) return untestable(`the client did not end on its own (${describeExit(o.exit)})`);
    const del = o.received.find((r) => r.httpMethod === 'DELETE' && r.headers?.['mcp-session-id'] === SESSION_ID);
    if (!del) return violated(`the client ${describeExit(o.exit)} without sending DELETE for its session`, [ev('initialize', init)]);
    return holds('the client sent DELETE with its session id');
  },
});

// ---------------------------------------------------------------- SSE answers, resumption, broken streams

const sseResponses = check(sseAnswers, {
  id: 'client.sse-responses',
  title: 'the client handles SSE answers (with a priming event and a comment line) as it does JSON ones: the same requests, the same exit',
  requirements: ['HL-03', 'HM-03', 'SB-13'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(o) {
    if (!o.plain) return untestable('no run against the plain server to compare with');
    const answered = o.received.filter((r) => r.replySeq !== undefined).length;
    if (answered === 0) return untestable('no request was answered');
    const crashed = endedBadly(o, 'on SSE answers');
    if (crashed) return crashed;
    const methods = withoutPings(o.received.map((r) => (isObj(r.message) && typeof r.message.method === 'string' ? r.message.method : undefined)).filter((m): m is string => m !== undefined));
    const plainMethods = withoutPings(o.plain.methods);
    const same = JSON.stringify(methods) === JSON.stringify(plainMethods);
    if (o.exit.exitCode !== o.plain.exit.exitCode) return violated(`the client ${describeExit(o.exit)} on SSE answers but exited with code ${o.plain.exit.exitCode} on JSON ones`, [{ what: 'methods (SSE run)', actual: methods, expected: plainMethods }, { what: 'stderr', actual: o.exit.stderrTail.slice(-400) }]);
    if (!same && methods.length < plainMethods.length) return violated(`the client stopped after ${methods.length} messages on SSE answers (${plainMethods.length} on JSON ones)`, [{ what: 'methods', actual: methods, expected: plainMethods }]);
    return holds(`${answered} SSE answers handled; the client ${describeExit(o.exit)} as on JSON answers`);
  },
});

/**
 * How early a resumption may look and still count as waiting the retry: a quarter of the retry (at
 * least a clock tick). A client's timer starts from its event loop's clock, which on a loaded machine
 * lags the moment it saw the stream end by tens of milliseconds (Node reads it once per loop turn):
 * the 1.x SDK client, waiting its full 400 ms, came back 345 ms after the close with a load of 16.
 * A client that ignores the retry comes back at once (or on its own short delay).
 */
export const earlyToleranceMs = (retryMs: number): number => Math.max(20, Math.floor(retryMs / 4));

/** Each polled answer, and the client's GET that resumed it (if any). */
function resumptions(o: ClientObs): { polled: Received; resume?: Received }[] {
  return o.received
    .filter((r) => r.polled)
    .map((polled) => ({ polled, resume: o.received.find((r) => r.httpMethod === 'GET' && r.headers?.['last-event-id'] === polled.polled!.eventId) }));
}

const ssePollResumes = check(pollingServer, {
  id: 'client.sse-poll-resumes',
  title: 'the client resumes an SSE answer the server closed before its response: GET with Last-Event-ID naming the last event',
  requirements: ['HL-04'],
  level: 'SHOULD',
  versions: ['2025-11-25'],
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.transports25,
  judge(o) {
    return every(resumptions(o), {
      none: 'the client sent no request after initialize in a 2025-11-25 session, so no answer was polled',
      offends: (x) => !x.resume,
      violated: (lost, all) => `${lost.length} of ${all.length} answers whose stream closed early were never resumed; the client ${describeExit(o.exit)}`,
      evidence: (x) => ev(`request whose answer stream closed after event ${x.polled.polled!.eventId}`, x.polled, { expected: `GET with Last-Event-ID: ${x.polled.polled!.eventId}`, actual: 'no such GET' }),
      holds: (all) => `${all.length} answers closed early, each resumed with GET and Last-Event-ID`,
    });
  },
});

const sseRetryRespected = check(pollingServer, {
  id: 'client.sse-retry-respected',
  title: 'the client waits the retry the server named before it resumes a closed SSE stream',
  requirements: ['HL-04'],
  level: 'MUST',
  versions: ['2025-11-25'],
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.transports25,
  judge(o) {
    const resumed = resumptions(o).filter((x) => x.resume?.at !== undefined);
    return every(resumed.map((x) => ({ ...x, ms: x.resume!.at! - x.polled.polled!.closedAt, retry: x.polled.polled!.retryMs })), {
      none: 'the client resumed no closed SSE stream',
      offends: (x) => x.ms < x.retry - earlyToleranceMs(x.retry),
      violated: (early, waited) => `${early.length} of ${waited.length} resumptions came before the retry delay: ${early.map((x) => `${x.ms} ms of ${x.retry} ms`).join(', ')}`,
      evidence: (x) => ev(`GET resuming after event ${x.polled.polled!.eventId}`, x.resume!, { expected: `no earlier than ${x.retry} ms after the stream closed`, actual: `${x.ms} ms after` }),
      holds: (waited) => `${waited.length} resumptions, each after the retry delay (${waited.map((x) => `${x.ms} ms`).join(', ')} of ${waited[0].retry} ms)`,
    });
  },
});

const reissuesBrokenRequest = check(brokenStreamServer, {
  id: 'client.reissues-broken-request',
  title: 'a request whose answer stream broke before the answer is sent again as a new request with a new id',
  requirements: ['HM-05'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.changelog26,
  judge(o) {
    const broken = o.received.filter((r) => r.broken && isRequest(r.message));
    if (broken.length === 0) return untestable('the client sent no request after server/discover, so no answer stream was broken');
    const problems: Evidence[] = [];
    const reissued: string[] = [];
    for (const b of broken) {
      const m = b.message as Msg & { method: string };
      const target = targetOf(m.params);
      const what = `${m.method}${target ? ` ${target}` : ''} (id ${JSON.stringify(m.id)})`;
      const again = o.received.filter((r) => r.seq > b.seq && isRequest(r.message) && r.message.method === m.method && targetOf(r.message.params) === target);
      const fresh = again.find((r) => !sameId((r.message as Msg).id, m.id));
      if (fresh) reissued.push(`${what} as id ${JSON.stringify((fresh.message as Msg).id)}`);
      else if (again.length) problems.push(ev(`${what} sent again after its stream broke, with the same id`, again[0], { expected: 'a new request id', seq: [b.seq, again[0].seq] }));
      else problems.push(ev(`${what}: its answer stream closed before the answer`, b, { expected: `${m.method} sent again with a new id`, actual: `never sent again; the client ${describeExit(o.exit)}` }));
    }
    if (problems.length) return violated(`${problems.length} of ${broken.length} requests whose stream broke were not re-issued with a new id: ${problems[0].what}`, firstOffenders(problems));
    return holds(`re-issued ${reissued.join(', ')}`);
  },
});

// ---------------------------------------------------------------- oracles over every POST

/** The client's HTTP POSTs in the run. */
const posts = (obs: RunObs) => obs.events.filter((e) => e.dir === 'in' && e.channel === 'http' && e.http?.method === 'POST' && isObj(e.message));

const httpAccept = oracle({
  id: 'client.http-accept',
  title: 'every POST accepts both application/json and text/event-stream',
  requirements: ['HL-01', 'HM-01'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(obs) {
    return every(posts(obs), {
      none: 'the client sent no POST',
      offends: (e) => {
        const a = (e.http!.headers.accept ?? '').toLowerCase();
        return !(a.includes('application/json') && a.includes('text/event-stream'));
      },
      violated: (bad, ps) => `${bad.length} of ${ps.length} POSTs do not accept both types; first Accept: ${bad[0].http!.headers.accept ?? '(absent)'}`,
      evidence: (e) => ({ what: `${String((e.message as Msg).method ?? 'response')} POST`, actual: e.http!.headers.accept ?? '(absent)', expected: 'application/json, text/event-stream', seq: [e.seq] }),
      holds: (ps) => `${ps.length} POSTs, each accepting both`,
    });
  },
});

const httpProtocolVersion = oracle({
  id: 'client.http-protocol-version',
  title: 'every POST names its protocol version in MCP-Protocol-Version: equal to _meta (2026-07-28) or the negotiated one after initialize',
  requirements: ['HM-06', 'HL-08'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(obs) {
    const negotiated = new Map<string, { version: string; seq: number }>();
    for (const e of obs.events) {
      if (e.dir === 'out' && isObj(e.message) && isObj(e.message.result) && typeof e.message.result.protocolVersion === 'string' && !negotiated.has(String(e.source))) negotiated.set(String(e.source), { version: e.message.result.protocolVersion, seq: e.seq });
    }
    const judged: { e: WireEvent; expected: string }[] = [];
    for (const e of posts(obs)) {
      const m = e.message as Msg;
      const meta = modernMetaOf(m.params);
      if (meta) judged.push({ e, expected: String(meta[META_PROTOCOL_VERSION]) });
      else if (m.method !== 'initialize') {
        const n = negotiated.get(String(e.source));
        if (n && e.seq > n.seq) judged.push({ e, expected: n.version });
      }
    }
    return every(judged, {
      none: 'the client sent no modern POST and no POST after an initialize result',
      offends: ({ e, expected }) => e.http!.headers['mcp-protocol-version'] !== expected,
      violated: (bad) => `${bad.length} of ${judged.length} POSTs carry the wrong MCP-Protocol-Version; first: ${bad[0].e.http!.headers['mcp-protocol-version'] ?? '(absent)'} for ${bad[0].expected}`,
      evidence: ({ e, expected }) => ({ what: `${String((e.message as Msg).method ?? 'response')} POST`, expected, actual: e.http!.headers['mcp-protocol-version'] ?? '(absent)', seq: [e.seq] }),
      holds: () => `${judged.length} POSTs, each with the right MCP-Protocol-Version`,
    });
  },
});

/** Decode a header value the way servers must before comparing it with the body (HM-09). */
export function decodeHeaderValue(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(v);
  return m ? Buffer.from(m[1], 'base64').toString('utf8') : v;
}

const NAMED_METHODS = [...MRTR_METHODS, 'tasks/get', 'tasks/update', 'tasks/cancel'];

const nameOf = (params: unknown): string => (isObj(params) && typeof params.taskId === 'string' ? params.taskId : targetOf(params));

const modernRequestPosts = (obs: RunObs) => posts(obs).filter((e) => isRequest(e.message) && modernMetaOf((e.message as Msg).params));

const httpMethodHeader = oracle({
  id: 'client.http-method-header',
  title: 'every request POST carries Mcp-Method equal to the body\'s method',
  requirements: ['HM-08'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(obs) {
    return every(modernRequestPosts(obs), {
      none: 'the client sent no modern request over HTTP',
      offends: (e) => decodeHeaderValue(e.http!.headers['mcp-method']) !== (e.message as Msg).method,
      violated: (bad, ps) => `${bad.length} of ${ps.length} request POSTs have a missing or wrong Mcp-Method`,
      evidence: (e) => ({ what: `${String((e.message as Msg).method)} POST`, expected: (e.message as Msg).method, actual: e.http!.headers['mcp-method'] ?? '(absent)', seq: [e.seq] }),
      holds: (ps) => `${ps.length} request POSTs, each with Mcp-Method`,
    });
  },
});

const httpNameHeader = oracle({
  id: 'client.http-name-header',
  title: 'tools/call, prompts/get, resources/read and tasks/* POSTs carry Mcp-Name equal to params.name, params.uri or params.taskId',
  requirements: ['HM-08', 'HM-09', 'TB-19'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(obs) {
    return every(modernRequestPosts(obs).filter((e) => NAMED_METHODS.includes(String((e.message as Msg).method))), {
      none: 'the client called none of tools/call, prompts/get, resources/read, tasks/* over HTTP',
      offends: (e) => decodeHeaderValue(e.http!.headers['mcp-name']) !== nameOf((e.message as Msg).params),
      violated: (bad, ps) => `${bad.length} of ${ps.length} POSTs have a missing or wrong Mcp-Name`,
      evidence: (e) => ({ what: `${String((e.message as Msg).method)} POST`, expected: nameOf((e.message as Msg).params), actual: e.http!.headers['mcp-name'] ?? '(absent)', seq: [e.seq] }),
      holds: (ps) => `${ps.length} POSTs, each with Mcp-Name equal to the body`,
    });
  },
});

const TOOL_HEADERS = paramHeaderDeclarations(TOOL.inputSchema).declarations ?? [];

const httpParamHeaders = oracle({
  id: 'client.http-param-headers',
  title: 'tools/call POSTs mirror every x-mcp-header argument into its Mcp-Param-* header (Base64 where not plain) and send none for an absent one',
  requirements: ['HM-10', 'HM-09'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(obs) {
    const calls = modernRequestPosts(obs).filter((e) => (e.message as Msg).method === 'tools/call' && isObj((e.message as Msg).params) && ((e.message as Msg).params as Msg).name === TOOL.name);
    if (calls.length === 0) return untestable(`the client did not call ${TOOL.name} (its text argument is declared x-mcp-header) over HTTP`);
    const problems: Evidence[] = [];
    for (const e of calls) {
      const args = ((e.message as Msg).params as Msg).arguments;
      for (const d of TOOL_HEADERS) {
        const expected = paramHeaderText(valueAtPath(args, d.path));
        const sent = e.http!.headers[`${PARAM_HEADER_PREFIX}${d.header}`.toLowerCase()];
        const ok = expected === undefined ? sent === undefined : sent !== undefined && decodeHeaderValue(sent) === expected && (isPlainHeaderValue(expected) || sent !== expected);
        if (!ok) problems.push({ what: `tools/call ${TOOL.name} POST: ${PARAM_HEADER_PREFIX}${d.header}`, expected: expected === undefined ? '(absent)' : encodeHeaderValue(expected), actual: sent ?? '(absent)', seq: [e.seq] });
      }
    }
    if (problems.length) return violated(`${problems.length} of ${calls.length} tools/call POSTs have a missing or wrong Mcp-Param header; first: ${String(problems[0].actual)} for ${String(problems[0].expected)}`, firstOffenders(problems));
    return holds(`${calls.length} tools/call POSTs, each with the Mcp-Param headers of its arguments`);
  },
});

// ---------------------------------------------------------------- x-mcp-header, on purpose (SEP-2243)

/** The client's tools/call POSTs naming `name`, with their arguments. */
function toolCalls(o: ClientObs, name: string): { r: Received; args: Msg }[] {
  return o.received
    .filter((r) => r.headers && isRequest(r.message) && r.message.method === 'tools/call' && paramsOf(r).name === name)
    .map((r) => ({ r, args: isObj(paramsOf(r).arguments) ? (paramsOf(r).arguments as Msg) : {} }));
}

const TYPED_HEADERS = paramHeaderDeclarations(TYPED_TOOL.inputSchema).declarations ?? [];
const TYPED_PROPERTIES = TYPED_TOOL.inputSchema.properties as Record<string, { type: string }>;

const httpParamEncoding = check(paramTypesServer, {
  id: 'client.http-param-encoding',
  title: `an integer argument declared x-mcp-header goes into its Mcp-Param-* header in decimal (42, not 42.0), a boolean one as true or false (lower case, unquoted)`,
  requirements: ['HM-10'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(o) {
    const typed = (d: (typeof TYPED_HEADERS)[number], v: unknown) => (TYPED_PROPERTIES[d.path[0]].type === 'integer' ? Number.isSafeInteger(v) : typeof v === 'boolean');
    const values = toolCalls(o, TYPED_TOOL.name).flatMap(({ r, args }) => TYPED_HEADERS.filter((d) => typed(d, valueAtPath(args, d.path))).map((d) => ({ r, d, value: valueAtPath(args, d.path) })));
    const calls = toolCalls(o, TYPED_TOOL.name).length;
    return every(values, {
      none: calls ? `the client called ${TYPED_TOOL.name} ${calls} time(s), never with an integer count or a boolean enabled argument` : `the client did not call ${TYPED_TOOL.name} (its integer count and boolean enabled arguments are declared x-mcp-header)`,
      offends: ({ r, d, value }) => decodeHeaderValue(r.headers![`${PARAM_HEADER_PREFIX}${d.header}`.toLowerCase()]) !== String(value),
      violated: (bad) => `${bad.length} of ${values.length} integer or boolean arguments went into their header wrong; first: ${PARAM_HEADER_PREFIX}${bad[0].d.header}: ${bad[0].r.headers![`${PARAM_HEADER_PREFIX}${bad[0].d.header}`.toLowerCase()] ?? '(absent)'} for ${JSON.stringify(bad[0].value)}`,
      evidence: ({ r, d, value }) => ev(`tools/call ${TYPED_TOOL.name} POST: ${PARAM_HEADER_PREFIX}${d.header}`, r, { expected: String(value), actual: r.headers![`${PARAM_HEADER_PREFIX}${d.header}`.toLowerCase()] ?? '(absent)' }),
      holds: () => `${values.length} integer or boolean arguments, each in its header as ${[...new Set(values.map((x) => String(x.value)))].join(', ')}`,
    });
  },
});

const httpParamUnannotated = check(paramTypesServer, {
  id: 'client.http-param-unannotated',
  title: 'a tools/call POST carries no Mcp-Param-* header but those its tool declares with x-mcp-header: an argument without the annotation is not mirrored',
  requirements: ['HM-10'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(o) {
    const declared = new Set(TYPED_HEADERS.map((d) => `${PARAM_HEADER_PREFIX}${d.header}`.toLowerCase()));
    const annotated = new Set(TYPED_HEADERS.map((d) => d.path[0]));
    const calls = toolCalls(o, TYPED_TOOL.name);
    const judged = calls.filter(({ args }) => Object.keys(args).some((k) => !annotated.has(k)));
    const extra = (r: Received) => Object.keys(r.headers!).filter((h) => h.startsWith(PARAM_HEADER_PREFIX.toLowerCase()) && !declared.has(h));
    return every(judged, {
      none: calls.length ? `the client called ${TYPED_TOOL.name} only with arguments declared x-mcp-header` : `the client did not call ${TYPED_TOOL.name} (its text argument is not declared x-mcp-header)`,
      offends: ({ r }) => extra(r).length > 0,
      violated: (bad) => `${bad.length} of ${judged.length} tools/call ${TYPED_TOOL.name} POSTs carry Mcp-Param-* headers its schema declares nowhere: ${extra(bad[0].r).join(', ')}`,
      evidence: ({ r }) => ev(`tools/call ${TYPED_TOOL.name} POST`, r, { expected: `no Mcp-Param-* header but ${[...declared].join(', ')}`, actual: Object.fromEntries(extra(r).map((h) => [h, r.headers![h]])) }),
      holds: () => `${judged.length} tools/call ${TYPED_TOOL.name} POSTs with an argument not declared x-mcp-header, none mirrored`,
    });
  },
});

const httpInvalidToolUnused = check(invalidToolsServer, {
  id: 'client.http-invalid-tool-unused',
  title: 'over HTTP the client never calls a listed tool whose x-mcp-header is invalid (empty, not a token, repeated case-insensitively, on a non-primitive property): it must drop such tools from its tools/list',
  requirements: ['HM-10'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  requires: { transports: ['http'] },
  spec: SPEC.http26,
  judge(o) {
    const calls = requestsOf(o.received).filter((r) => r.headers && (r.message as Msg).method === 'tools/call');
    if (calls.length === 0) return untestable('the client called no tool');
    const invalid = calls.flatMap((r) => INVALID_TOOLS.filter((t) => t.tool.name === paramsOf(r).name).map((t) => ({ r, ...t })));
    if (invalid.length) {
      return violated(`the client called ${[...new Set(invalid.map((x) => `${String(x.tool.name)} (${x.breaks})`))].join(', ')}: a tool with an invalid x-mcp-header must be left out of the client's tools/list`,
        firstOffenders(invalid).map((x) => ev(`tools/call ${String(x.tool.name)}`, x.r, { expected: `no call: its schema has ${x.breaks}` })));
    }
    const valid = calls.filter((r) => paramsOf(r).name === VALID_TOOL.name).length;
    // A client that calls only tools it was not shown here never chose among the listed ones.
    if (!valid) return untestable(`the client called only ${[...new Set(calls.map((r) => String(paramsOf(r).name)))].join(', ')}, not ${VALID_TOOL.name} listed after the invalid tools: whether it leaves them out does not show`);
    return holds(`the client called no tool with an invalid x-mcp-header, and ${VALID_TOOL.name}, listed after them, ${valid} time(s)`);
  },
});

export const httpClientChecks = [
  sessionId, sessionDelete,
  sseResponses, ssePollResumes, sseRetryRespected, reissuesBrokenRequest,
  httpAccept, httpProtocolVersion, httpMethodHeader, httpNameHeader, httpParamHeaders,
  httpParamEncoding, httpParamUnannotated, httpInvalidToolUnused,
];
